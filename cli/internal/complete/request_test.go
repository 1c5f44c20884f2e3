package complete

import (
	"slices"
	"testing"

	"github.com/posener/complete"
)

func TestFromEnv(t *testing.T) {
	tests := []struct {
		line, point string
		want        Request
		ok          bool
	}{
		{"", "", Request{}, false},
		{"", "3", Request{}, false},
		{"agent-skills ins", "", Request{Line: "agent-skills ins"}, true},
		{"agent-skills ins", "16", Request{Line: "agent-skills ins"}, true},
		// The cursor in the middle: only what is before it counts.
		{"agent-skills install go-review", "16", Request{Line: "agent-skills ins"}, true},
		{"agent-skills ins", "-1", Request{Line: "agent-skills ins"}, true},
		{"agent-skills ins", "99", Request{Line: "agent-skills ins"}, true},
		{"agent-skills ins", "x", Request{Line: "agent-skills ins"}, true},
	}
	for _, tt := range tests {
		env := map[string]string{"COMP_LINE": tt.line, "COMP_POINT": tt.point}
		got, ok := FromEnv(func(k string) string { return env[k] })
		if got != tt.want || ok != tt.ok {
			t.Errorf("FromEnv(COMP_LINE=%q COMP_POINT=%q) = %+v, %v, want %+v, %v", tt.line, tt.point, got, ok, tt.want, tt.ok)
		}
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		line string
		want complete.Args
	}{
		{"", complete.Args{}},
		{"agent-skills", complete.Args{All: []string{}, Last: "agent-skills"}},
		{"agent-skills ", complete.Args{All: []string{""}, Completed: []string{}}},
		{"agent-skills ins", complete.Args{All: []string{"ins"}, Completed: []string{}, Last: "ins"}},
		{"agent-skills install  ", complete.Args{All: []string{"install", ""}, Completed: []string{"install"}, LastCompleted: "install"}},
		{"agent-skills install --agent=cl", complete.Args{All: []string{"install", "--agent", "cl"},
			Completed: []string{"install", "--agent"}, Last: "cl", LastCompleted: "--agent"}},
		// Only a flag is split at "=", and only at its first.
		{"agent-skills install a=b", complete.Args{All: []string{"install", "a=b"}, Completed: []string{"install"}, Last: "a=b", LastCompleted: "install"}},
		{"agent-skills x --f=a=b", complete.Args{All: []string{"x", "--f", "a=b"}, Completed: []string{"x", "--f"}, Last: "a=b", LastCompleted: "--f"}},
	}
	for _, tt := range tests {
		got := Request{Line: tt.line}.Args()
		if !slices.Equal(got.All, tt.want.All) || !slices.Equal(got.Completed, tt.want.Completed) ||
			got.Last != tt.want.Last || got.LastCompleted != tt.want.LastCompleted {
			t.Errorf("Request{%q}.Args() = %#v, want %#v", tt.line, got, tt.want)
		}
	}
}

func TestCommand(t *testing.T) {
	tests := map[string]string{
		"agent-skills ":                       "",
		"agent-skills ena":                    "",
		"agent-skills enable ":                "enable",
		"agent-skills -q --offline disable j": "disable",
		"agent-skills registry remove ":       "registry",
	}
	for line, want := range tests {
		if got := (Request{Line: line}).Command(); got != want {
			t.Errorf("Request{%q}.Command() = %q, want %q", line, got, want)
		}
	}
}

func TestCandidates(t *testing.T) {
	names := complete.PredictSet("go-review", "java-basics", "go-review", "evil\nname", "two words", "esc\x1b[31m", "")
	cmd := complete.Command{
		Sub: complete.Commands{
			"install":   {Flags: complete.Flags{"--agent": complete.PredictSet("claude", "codex")}},
			"uninstall": {Args: names},
		},
		GlobalFlags: complete.Flags{"--quiet": complete.PredictNothing, "--help": complete.PredictNothing},
	}
	tests := []struct {
		line string
		want []string
	}{
		{"agent-skills ins", []string{"install"}},
		{"agent-skills ", []string{"install", "uninstall"}},
		{"agent-skills -", []string{"--help", "--quiet"}},
		{"agent-skills install --agent c", []string{"claude", "codex"}},
		{"agent-skills install --agent=cl", []string{"claude"}},
		// Sorted, once each; no candidate with a space or a control
		// character reaches the shell.
		{"agent-skills uninstall ", []string{"go-review", "java-basics"}},
		{"agent-skills uninstall e", nil},
		{"agent-skills zzz", nil},
		{"agent-skills zzz ", nil},
	}
	for _, tt := range tests {
		if got := Candidates(cmd, Request{Line: tt.line}); !slices.Equal(got, tt.want) {
			t.Errorf("Candidates(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
