package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Host is a coding agent whose session-start hook agent-skills speaks.
type Host string

// The supported hosts.
const (
	Claude  Host = "claude"
	Codex   Host = "codex"
	Copilot Host = "copilot"
	Gemini  Host = "gemini"
)

// Hosts returns every supported host, sorted.
func Hosts() []Host { return []Host{Claude, Codex, Copilot, Gemini} }

// ParseHost returns the host called s, or an error naming the hosts.
func ParseHost(s string) (Host, error) {
	h := Host(s)
	if slices.Contains(Hosts(), h) {
		return h, nil
	}
	return "", fmt.Errorf("unknown host %q: use claude, codex, copilot or gemini", s)
}

// EventName is the SessionStart event name in the host's configuration.
func (h Host) EventName() string {
	if h == Copilot {
		return "sessionStart"
	}
	return "SessionStart"
}

// sessionStartOutput is the hookSpecificOutput envelope of Claude Code,
// Codex and Gemini CLI.
type sessionStartOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// Envelope returns what a SessionStart hook of host h prints on stdout to
// add text to the session's context, with a trailing newline.
func Envelope(h Host, text string) []byte {
	var v any
	if h == Copilot {
		v = struct {
			AdditionalContext string `json:"additionalContext"`
		}{text}
	} else {
		var o sessionStartOutput
		o.HookSpecificOutput.HookEventName = "SessionStart"
		o.HookSpecificOutput.AdditionalContext = text
		v = o
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.Bytes()
}

// Neutral returns the output that adds nothing and that the host accepts:
// the envelope with empty context (Codex rejects a bare {}), or {} for
// Copilot.
func Neutral(h Host) []byte {
	if h == Copilot {
		return []byte("{}\n")
	}
	return Envelope(h, "")
}
