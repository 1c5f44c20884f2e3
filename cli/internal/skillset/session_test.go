package skillset

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	if s.Scope.Root != w.proj || !s.Scope.Project() || s.Lock != nil || len(s.Registries.Registries()) != 1 {
		t.Errorf("Open(project) = scope %v, lock %v, %d registries; want %s, no lock, team only", s.Scope, s.Lock, len(s.Registries.Registries()), w.proj)
	}
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
		t.Fatal(err)
	}
	if s := w.open(false, nil); s.Lock == nil || s.Lock.Skills["lib"].Version != "1.1.0" {
		t.Errorf("Open(project).Lock = %+v, want skills.lock with lib", s.Lock)
	}
	if s := w.open(true, nil); s.Scope.Project() || s.Lock != nil {
		t.Errorf("Open(global) = scope %v, lock %v; want global, no lock", s.Scope, s.Lock)
	}
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	tests := []struct {
		name  string
		setup func()
		opts  Options
		code  string
	}{
		{"global and project", nil, Options{Scope: workspace.ScopeRequest{Global: true, Project: true}, Agents: bothAgents}, askerr.CodeUsage},
		{"an unknown agent", nil, Options{Scope: workspace.ScopeRequest{Project: true}, Agents: []string{"no-such-agent"}}, "ASK_AGENT_UNKNOWN"},
		{"a broken skills.lock", func() { writeFile(t, filepath.Join(w.proj, "skills.lock"), "lockfileVersion: [\n") },
			Options{Scope: workspace.ScopeRequest{Project: true}, Agents: bothAgents}, "ASK_LOCK_INVALID"},
		{"a broken config.json", func() { writeFile(t, filepath.Join(w.env["AGENT_SKILLS_HOME"], "config.json"), "{") },
			Options{Scope: workspace.ScopeRequest{Project: true}, Agents: bothAgents}, "ASK_CONFIG_INVALID"},
	}
	for _, tt := range tests {
		if tt.setup != nil {
			tt.setup()
		}
		s, err := Open(t.Context(), w.machine(), tt.opts)
		if codeOf(err) != tt.code || s != nil {
			t.Errorf("Open(%s) = %v, %v; want %s", tt.name, s, err, tt.code)
		}
	}
}

// steps records a fetch's progress.
type steps struct {
	lines []string
	done  int
}

func (s *steps) Step(i, n int, label, item string) {
	s.lines = append(s.lines, fmt.Sprintf("%s %s %d/%d", label, item, i, n))
}
func (s *steps) Done() { s.done++ }

func TestInstallProgress(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	var p steps
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}, DryRun: true, Progress: &p}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"fetching app@1.0.0 1/2", "fetching lib@1.1.0 2/2"}; !slices.Equal(p.lines, want) || p.done != 1 {
		t.Errorf("Install(app).Progress = %q, done %d; want %q, done once", p.lines, p.done, want)
	}
}
