package complete

import (
	"strings"
	"testing"
)

func TestScript(t *testing.T) {
	wants := map[string][]string{
		"bash": {"complete -o default -C 'agent-skills 2>/dev/null' agent-skills\n"},
		"zsh":  {"#compdef agent-skills\n", "_agent_skills() {", "compdef _agent_skills agent-skills", "COMP_LINE=\"$line\""},
		"fish": {"function __agent_skills_complete\n", "complete -c agent-skills -f -a '(__agent_skills_complete)'\n", "set -lx COMP_LINE"},
	}
	for _, shell := range Shells() {
		s, err := Script(shell, "agent-skills")
		if err != nil {
			t.Fatalf("Script(%q) error %v", shell, err)
		}
		if strings.Contains(s, "@NAME@") || strings.Contains(s, "@FN@") {
			t.Errorf("Script(%q) keeps a placeholder:\n%s", shell, s)
		}
		for _, want := range wants[shell] {
			if !strings.Contains(s, want) {
				t.Errorf("Script(%q) = \n%s\nwant it to contain %q", shell, s, want)
			}
		}
		delete(wants, shell)
	}
	if len(wants) > 0 {
		t.Errorf("Shells() = %q, missing %v", Shells(), wants)
	}
	if _, err := Script("powershell", "agent-skills"); err == nil || !strings.Contains(err.Error(), "bash, fish, zsh") {
		t.Errorf("Script(powershell) error = %v, want one naming the shells", err)
	}
}
