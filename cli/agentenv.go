package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// agentEnv builds the agents module's view of this machine for a scope.
func (e *env) agentEnv(cfg *config.Config, projectRoot string) agents.Env {
	over := map[string]agents.RootOverride{}
	for id, a := range cfg.Agents {
		if a.GlobalRoot != "" || a.ProjectRoot != "" {
			over[id] = agents.RootOverride{GlobalRoot: a.GlobalRoot, ProjectRoot: a.ProjectRoot}
		}
	}
	home := e.userHome()
	return agents.Env{
		Home:         home,
		Getenv:       e.getenv,
		LookPath:     e.lookPath,
		Stat:         os.Stat,
		ReadFile:     os.ReadFile,
		EvalSymlinks: filepath.EvalSymlinks,
		Version:      agentVersion,
		ProjectRoot:  projectRoot,
		WorkDir:      e.cwd,
		Overrides:    over,
		// Roots that are one folder through a link are one root.
		Canonical: install.Canonicalizer(projectRoot, home),
	}
}

// lookPath finds an executable on the PATH of this invocation's
// environment (which tests isolate), not the process's.
func (e *env) lookPath(file string) (string, error) {
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// agentVersion runs "<agent> --version" with a short timeout; it is used
// only when the version cannot be read from the agent's package files.
func agentVersion(ctx context.Context, _ string, exe string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, exe, "--version").Output()
	if err != nil {
		return "", err
	}
	f := strings.Fields(string(out))
	for _, w := range f {
		if len(w) > 0 && w[0] >= '0' && w[0] <= '9' {
			return w, nil
		}
	}
	return "", nil
}

// selectAgents returns the agents to act on: those named with --agent, or
// every detected agent with strong evidence; agents disabled in the
// configuration are left out unless named.
func (e *env) selectAgents(cfg *config.Config, names []string, aenv agents.Env) ([]agents.Adapter, []agents.Report, error) {
	reg := agents.Default()
	if len(names) > 0 {
		sel, err := reg.Select(names)
		return sel, nil, err
	}
	var enabled []agents.Adapter
	for _, a := range reg.All() {
		if cfg.AgentEnabled(a.ID()) {
			enabled = append(enabled, a)
		}
	}
	reports := agents.DetectAll(e.ctx, aenv, enabled)
	sel, err := agents.AutoSelect(reports)
	return sel, reports, err
}

// seenAgents returns the agents whose view matters for list and doctor:
// those named, else every detected agent, else every supported agent (so
// that skills are still found on a machine where detection finds none).
func (e *env) seenAgents(cfg *config.Config, names []string, aenv agents.Env) ([]agents.Adapter, error) {
	if len(names) > 0 {
		return agents.Default().Select(names)
	}
	if sel, _, err := e.selectAgents(cfg, nil, aenv); err == nil && len(sel) > 0 {
		return sel, nil
	}
	return agents.Default().All(), nil
}
