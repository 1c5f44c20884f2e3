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
		var fs []fetched
		for _, it := range tt.items {
			fs = append(fs, fetched{item: it})
		}
		if got := needsAgentVersions(fs); got != tt.want {
			t.Errorf("needsAgentVersions(case %d) = %v, want %v", i, got, tt.want)
		}
	}
	// A package past the held budget is only sealed when apply runs
	// (Pkg nil, decoded again by install): fetch recorded what it sets.
	sealed := []fetched{{item: install.Item{Load: func() (*format.Package, error) { return nil, nil }}, agentVersions: true}}
	if !needsAgentVersions(sealed) {
		t.Errorf("needsAgentVersions(a sealed package with a minVersion) = false, want true")
	}
}
