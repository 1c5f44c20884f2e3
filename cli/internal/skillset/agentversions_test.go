package skillset

import (
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
)

// TestNeedsAgentVersions: versions are read only when a package to
// install sets a minVersion.
func TestNeedsAgentVersions(t *testing.T) {
	pkg := func(compat ...format.AgentCompat) install.Item {
		m := &format.Manifest{}
		m.Compatibility.Agents = compat
		return install.Item{Pkg: &format.Package{Manifest: m}}
	}
	tests := []struct {
		items []install.Item
		want  bool
	}{
		{nil, false},
		{[]install.Item{{}, pkg()}, false},
		{[]install.Item{pkg(format.AgentCompat{ID: "codex"})}, false},
		{[]install.Item{pkg(), pkg(format.AgentCompat{ID: "codex", MinVersion: "0.5.0"})}, true},
	}
	for i, tt := range tests {
		if got := needsAgentVersions(tt.items); got != tt.want {
			t.Errorf("needsAgentVersions(case %d) = %v, want %v", i, got, tt.want)
		}
	}
}
