package hooks

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestEnvelope(t *testing.T) {
	tests := []struct {
		host Host
		want string
	}{
		{Claude, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a <b> & c"}}` + "\n"},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a <b> & c"}}` + "\n"},
		{Gemini, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a <b> & c"}}` + "\n"},
		{Copilot, `{"additionalContext":"a <b> & c"}` + "\n"},
	}
	for _, tt := range tests {
		if got := string(Envelope(tt.host, "a <b> & c")); got != tt.want {
			t.Errorf("Envelope(%s) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestNeutral(t *testing.T) {
	tests := []struct {
		host Host
		want string
	}{
		{Claude, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":""}}` + "\n"},
		{Codex, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":""}}` + "\n"},
		{Gemini, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":""}}` + "\n"},
		{Copilot, "{}\n"},
	}
	for _, tt := range tests {
		if got := string(Neutral(tt.host)); got != tt.want {
			t.Errorf("Neutral(%s) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestParseHost(t *testing.T) {
	for _, h := range Hosts() {
		if got, err := ParseHost(string(h)); got != h || err != nil {
			t.Errorf("ParseHost(%q) = %q, %v; want %q", h, got, err, h)
		}
	}
	if _, err := ParseHost("cursor"); err == nil {
		t.Errorf("ParseHost(%q) = nil error, want an error", "cursor")
	}
}

func TestConfigVerifiesItself(t *testing.T) {
	for _, h := range Hosts() {
		reg := Config(h)
		if !json.Valid(reg.Snippet) || len(reg.Files) == 0 {
			t.Errorf("Config(%s) = %s, want valid JSON with files", h, reg.Snippet)
		}
		if diffs := Verify(h, reg.Snippet); diffs != nil {
			t.Errorf("Verify(%s, Config(%s)) = %v, want no differences", h, h, diffs)
		}
		for _, other := range Hosts() {
			if other != h && Verify(other, reg.Snippet) == nil {
				t.Errorf("Verify(%s, Config(%s)) = nil, want differences", other, h)
			}
		}
	}
}

func TestVerify(t *testing.T) {
	claudeMerged := `{"permissions":{"allow":[]},"hooks":{"PreToolUse":[],"SessionStart":[
		{"matcher":"startup","hooks":[{"type":"command","command":"echo hi"}]},
		{"hooks":[{"type":"command","command":"agent-skills hook session-index --host claude","timeout":10}]}]}}`
	tests := []struct {
		name string
		host Host
		data string
		want string // substring of the first difference; "" means none
	}{
		{"merged into other settings", Claude, claudeMerged, ""},
		{"not json", Claude, "{", "not a JSON object"},
		{"no hooks", Claude, `{}`, `no "hooks" object`},
		{"no event", Codex, `{"hooks":{}}`, "hooks.SessionStart is missing"},
		{"wrong timeout", Claude, strings.Replace(claudeMerged, `"timeout":10`, `"timeout":5`, 1), "timeout = 5, want 10"},
		{"wrong host", Claude, strings.Replace(claudeMerged, "--host claude", "--host codex", 1), "command ="},
		{"extra key", Claude, strings.Replace(claudeMerged, `"timeout":10`, `"timeout":10,"async":true`, 1), "async = true is not part"},
		{"other hooks only", Gemini, `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"x"}]}]}}`, "no agent-skills session-index handler"},
		{"copilot version", Copilot, `{"version":2,"hooks":{}}`, "version is 2"},
	}
	for _, tt := range tests {
		got := Verify(tt.host, []byte(tt.data))
		switch {
		case tt.want == "" && got != nil:
			t.Errorf("Verify(%s, %s) = %v, want no differences", tt.host, tt.name, got)
		case tt.want != "" && (len(got) == 0 || !strings.Contains(got[0], tt.want)):
			t.Errorf("Verify(%s, %s) = %v, want a difference containing %q", tt.host, tt.name, got, tt.want)
		}
	}
}

// TestConfigFilesAndNotes pins where each host reads the hook and what
// the note says, as docs/hosts.md verified against the real agents
// (Codex 0.169.0, Copilot CLI 1.0.102).
func TestConfigFilesAndNotes(t *testing.T) {
	for _, tc := range []struct {
		host      Host
		files     []string
		note      []string // substrings the note must hold
		notInNote []string
	}{
		{Claude, []string{".claude/settings.json", "~/.claude/settings.json"}, nil, nil},
		{Gemini, []string{".gemini/settings.json", "~/.gemini/settings.json"}, nil, nil},
		// Codex: hooks are on by default; the gate is trust.
		{Codex, []string{".codex/hooks.json", "~/.codex/hooks.json"},
			[]string{"on by default", "trust", "/hooks", "[hooks.state.", "trusted project"},
			[]string{"codex_hooks"}},
		// Copilot: the context reaches the model; the user-level file
		// needs no folder trust, the repository one does.
		{Copilot, []string{".github/hooks/agent-skills.json", "~/.copilot/hooks/agent-skills.json"},
			[]string{"additionalContext", "~/.copilot/hooks/agent-skills.json", "every folder", "trusted folder"},
			[]string{"ignored"}},
	} {
		reg := Config(tc.host)
		if !slices.Equal(reg.Files, tc.files) {
			t.Errorf("Config(%s).Files = %q, want %q", tc.host, reg.Files, tc.files)
		}
		if tc.note == nil && reg.Note != "" {
			t.Errorf("Config(%s).Note = %q, want none", tc.host, reg.Note)
		}
		for _, s := range tc.note {
			if !strings.Contains(reg.Note, s) {
				t.Errorf("Config(%s).Note = %q, want it to mention %q", tc.host, reg.Note, s)
			}
		}
		for _, s := range tc.notInNote {
			if strings.Contains(reg.Note, s) {
				t.Errorf("Config(%s).Note = %q, which still says %q", tc.host, reg.Note, s)
			}
		}
	}
}
