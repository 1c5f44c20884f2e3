package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadsIsNotInTheDefault: the read hook is telemetry, registered only
// when asked for by name.
func TestReadsIsNotInTheDefault(t *testing.T) {
	env := testEnv(t)
	for _, h := range Hosts() {
		entries, err := h.Entries(env, User, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Part == Reads || strings.Contains(string(e.Value), readMarker) {
				t.Errorf("%s: the default set holds the read hook %s", h.Name(), e.Value)
			}
		}
	}
}

// TestReadsEntries: each host's read hook, alone, in the shape the real
// agents were captured with (docs/evidence-hooks.md).
func TestReadsEntries(t *testing.T) {
	env := testEnv(t)
	want := map[string]string{
		"claude":  `{"matcher":"Read","hooks":[{"type":"command","command":"agent-skills hook observe --host claude","timeout":10}]}`,
		"codex":   `{"matcher":"Bash","hooks":[{"type":"command","command":"agent-skills hook observe --host codex","timeout":10}]}`,
		"gemini":  `{"matcher":"read_file","hooks":[{"name":"agent-skills-observe","type":"command","command":"agent-skills hook observe --host gemini","timeout":10000}]}`,
		"copilot": `{"version":1,"hooks":{"postToolUse":[{"type":"command","bash":"agent-skills hook observe --host copilot","powershell":"agent-skills hook observe --host copilot","timeoutSec":10}]}}`,
	}
	for _, h := range Hosts() {
		entries, err := h.Entries(env, User, Options{Parts: []Part{Reads}})
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[h.Name()]
		if !ok {
			if len(entries) != 0 {
				t.Errorf("%s: %d read entries, want none", h.Name(), len(entries))
			}
			continue
		}
		if len(entries) != 1 || entries[0].Part != Reads || string(entries[0].Value) != w {
			t.Errorf("%s: entries %+v, want one read entry %s", h.Name(), entries, w)
		}
	}
}

// TestReadsEnableDisable: the read hook is added beside the session hook,
// reported by status, and removed by disable from the receipt.
func TestReadsEnableDisable(t *testing.T) {
	env := testEnv(t)
	if r := Enable(env, claude{}, User, Options{Parts: []Part{Hooks}}, true); r.Err != nil {
		t.Fatal(r.Err)
	}
	if r := Enable(env, claude{}, User, Options{Parts: []Part{Reads}}, true); r.Err != nil || !r.Written {
		t.Fatalf("Enable --reads: %v", r.Err)
	}
	file := filepath.Join(env.Home, ".claude", "settings.json")
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), `"PostToolUse"`) || !strings.Contains(string(data), "hook session-index") {
		t.Fatalf("settings.json = %s", data)
	}
	st := Status(env, claude{}, User, Options{}, func(Env, string) *CommandCheck { return &CommandCheck{} })
	found := false
	for _, e := range st.Entries {
		if e.Part == Reads && e.Status == "registered" {
			found = true
		}
	}
	if !found {
		t.Errorf("status does not report the read hook: %+v", st.Entries)
	}
	if r := Disable(env, claude{}, User, true); r.Err != nil {
		t.Fatal(r.Err)
	}
	data, _ = os.ReadFile(file)
	if strings.Contains(string(data), "hook observe") || strings.Contains(string(data), "hook session-index") {
		t.Errorf("after disable settings.json = %s", data)
	}
}
