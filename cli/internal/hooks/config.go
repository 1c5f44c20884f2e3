package hooks

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// TimeoutSeconds is the timeout registered with every host: generous, as
// the hook itself gives up after two seconds.
const TimeoutSeconds = 10

// Registration is the hook registration one host needs.
type Registration struct {
	// Host is the host.
	Host Host `json:"host"`
	// Files are where the host reads it, project file first.
	Files []string `json:"files"`
	// Snippet is the JSON to merge into the file.
	Snippet json.RawMessage `json:"snippet"`
	// Note says what else the host needs, if anything.
	Note string `json:"note,omitempty"`
}

// Command returns the command line a host runs for the session index.
func Command(h Host) string { return "agent-skills hook session-index --host " + string(h) }

// handler returns the hook handler object registered for h.
func handler(h Host) map[string]any {
	cmd := Command(h)
	switch h {
	case Copilot:
		return map[string]any{"type": "command", "bash": cmd, "powershell": cmd, "timeoutSec": TimeoutSeconds}
	case Gemini:
		return map[string]any{"name": "agent-skills-session-index", "type": "command", "command": cmd, "timeout": TimeoutSeconds * 1000}
	}
	return map[string]any{"type": "command", "command": cmd, "timeout": TimeoutSeconds}
}

// Config returns the registration of the session-index hook for h.
func Config(h Host) Registration {
	var doc any
	if h == Copilot {
		doc = map[string]any{"version": 1, "hooks": map[string]any{h.EventName(): []any{handler(h)}}}
	} else {
		doc = map[string]any{"hooks": map[string]any{h.EventName(): []any{map[string]any{"hooks": []any{handler(h)}}}}}
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	r := Registration{Host: h, Snippet: b}
	switch h {
	case Claude:
		r.Files = []string{".claude/settings.json", "~/.claude/settings.json"}
	case Codex:
		r.Files = []string{".codex/hooks.json", "~/.codex/hooks.json"}
		r.Note = "Hooks are on by default in Codex (no feature flag since 0.169.0), but it runs only a hook you trust, and codex exec skips a new one without a word. Trust it with /hooks in an interactive codex session; the trust is kept as [hooks.state.\"<file>:session_start:0:0\"] trusted_hash in ~/.codex/config.toml, and editing the hook means trusting it again. ~/.codex is $CODEX_HOME when that is set; .codex/hooks.json loads only in a trusted project."
	case Gemini:
		r.Files = []string{".gemini/settings.json", "~/.gemini/settings.json"}
	case Copilot:
		r.Files = []string{".github/hooks/agent-skills.json", "~/.copilot/hooks/agent-skills.json"}
		r.Note = "Copilot CLI adds the hook's top-level additionalContext to the session. ~/.copilot/hooks/agent-skills.json ($COPILOT_HOME/hooks when that is set) runs in every folder; .github/hooks/agent-skills.json runs only in a trusted folder."
	}
	return r
}

// Verify reports whether the settings file data holds the session-index
// registration of h exactly: under the host's event, a handler equal, key
// for key and value for value, to the one Config gives. When it does not,
// the returned lines say what is missing or different.
func Verify(h Host, data []byte) []string {
	return verify(h, data, h.EventName(), "", handler(h), "session-index")
}

// verify checks that data holds, under hooks.<ev> (in a group whose
// matcher is matcher, when it is not ""), the handler want; marker is
// the text of the command that makes a handler ours when it differs.
func verify(h Host, data []byte, ev, matcher string, handler map[string]any, marker string) []string {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return []string{"the file is not a JSON object: " + err.Error()}
	}
	want := normalize(handler)
	if h == Copilot {
		if v, ok := doc["version"].(float64); !ok || v != 1 {
			return []string{fmt.Sprintf("version is %v, want 1", doc["version"])}
		}
	}
	hooksObj, ok := doc["hooks"].(map[string]any)
	if !ok {
		return []string{`no "hooks" object`}
	}
	list, ok := hooksObj[ev].([]any)
	if !ok {
		return []string{fmt.Sprintf("hooks.%s is missing or not a list", ev)}
	}
	var candidates []candidate
	for i, g := range list {
		if h == Copilot {
			candidates = append(candidates, candidate{fmt.Sprintf("hooks.%s[%d]", ev, i), g, true})
			continue
		}
		gm, ok := g.(map[string]any)
		if !ok {
			continue
		}
		m, _ := gm["matcher"].(string)
		matches := matcher == "" || m == matcher
		hs, _ := gm["hooks"].([]any)
		for j, x := range hs {
			candidates = append(candidates, candidate{fmt.Sprintf("hooks.%s[%d].hooks[%d]", ev, i, j), x, matches})
		}
	}
	for _, c := range candidates {
		if c.matches && reflect.DeepEqual(c.value, want) {
			return nil
		}
	}
	for _, c := range candidates {
		m, ok := c.value.(map[string]any)
		if !ok || !mentions(m, marker) {
			continue
		}
		if !c.matches {
			return []string{fmt.Sprintf("%s is in a group whose matcher is not %q", c.where, matcher)}
		}
		return fieldDiff(c.where, m, want)
	}
	return []string{fmt.Sprintf("hooks.%s has no agent-skills %s handler; add: %s", ev, marker, compact(handler))}
}

// candidate is one handler found in a settings file.
type candidate struct {
	where   string
	value   any
	matches bool // its group's matcher is the one wanted
}

// mentions reports whether a handler's command holds marker.
func mentions(m map[string]any, marker string) bool {
	for _, k := range []string{"command", "bash", "powershell"} {
		if s, ok := m[k].(string); ok && strings.Contains(s, marker) {
			return true
		}
	}
	return false
}

// fieldDiff lists the keys of got that differ from want.
func fieldDiff(where string, got, want map[string]any) []string {
	keys := make([]string, 0, len(got)+len(want))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			out = append(out, fmt.Sprintf("%s.%s is missing, want %s", where, k, compact(w)))
		case !wok:
			out = append(out, fmt.Sprintf("%s.%s = %s is not part of the registration", where, k, compact(g)))
		case !reflect.DeepEqual(g, w):
			out = append(out, fmt.Sprintf("%s.%s = %s, want %s", where, k, compact(g), compact(w)))
		}
	}
	return out
}

// normalize round-trips v through JSON, so that numbers compare as float64.
func normalize(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// compact renders v as one line of JSON.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
