package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// AgentEnv builds the agents module's view of this machine for a scope.
func (m *Machine) AgentEnv(cfg *config.Config, projectRoot string) agents.Env {
	over := cfg.Overrides()
	untrusted := m.untrustedDirs(projectRoot)
	home := m.UserHome()
	return agents.Env{
		Home:         home,
		Getenv:       m.Getenv,
		LookPath:     func(file string) (string, error) { return m.lookPathOutside(file, untrusted) },
		Stat:         os.Stat,
		ReadFile:     os.ReadFile,
		EvalSymlinks: filepath.EvalSymlinks,
		Version: func(ctx context.Context, id, exe string) (string, error) {
			if !filepath.IsAbs(exe) || insideAny(exe, untrusted) {
				return "", errProjectExecutable
			}
			return agentVersion(ctx, id, exe)
		},
		ProjectRoot: projectRoot,
		WorkDir:     m.Cwd,
		Overrides:   over,
		// Roots that are one folder through a link are one root.
		Canonical: install.Canonicalizer(projectRoot, home),
	}
}

// errProjectExecutable refuses to run an executable the project controls.
var errProjectExecutable = errors.New("refusing to run an executable inside the project or the working folder")

// LookPath finds an executable on the PATH of this invocation's
// environment (which tests isolate), not the process's, skipping every
// PATH entry the working folder or its project controls (see
// lookPathOutside).
func (m *Machine) LookPath(file string) (string, error) {
	return m.lookPathOutside(file, m.untrustedDirs(""))
}

// lookPathOutside finds file on PATH like exec.LookPath, but only in
// absolute PATH entries outside the untrusted folders, and only when the
// file it finds (its symbolic links resolved) is outside them too. A
// relative entry (".", "node_modules/.bin") names whatever folder the
// command runs in, and an absolute one inside the project is what npm
// and similar tools prepend: an executable found there is the project's
// code, and detection runs "<agent> --version" (issue 11, B16). Go's
// exec.LookPath refuses relative entries for the same reason (ErrDot).
func (m *Machine) lookPathOutside(file string, untrusted []string) (string, error) {
	for _, dir := range m.searchPath(untrusted) {
		p, ok := executable(filepath.Join(dir, file), m.Getenv)
		if !ok {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err != nil || insideAny(real, untrusted) {
			continue
		}
		return p, nil
	}
	return "", exec.ErrNotFound
}

// searchPath returns the PATH entries lookPathOutside may search: the
// absolute ones outside the untrusted folders. Detecting every agent looks
// up dozens of executables and each check resolves the entry's links, so
// the answer is kept for the process, by PATH and untrusted folders.
func (m *Machine) searchPath(untrusted []string) []string {
	key := m.Getenv("PATH") + "\x00" + strings.Join(untrusted, "\x00")
	if dirs, ok := searchPaths.Load(key); ok {
		return dirs.([]string)
	}
	var dirs []string
	for _, dir := range filepath.SplitList(m.Getenv("PATH")) {
		if dir != "" && filepath.IsAbs(dir) && !insideAny(dir, untrusted) {
			dirs = append(dirs, dir)
		}
	}
	searchPaths.Store(key, dirs)
	return dirs
}

// searchPaths holds searchPath's answers.
var searchPaths sync.Map

// untrustedDirs returns the folders whose executables are never looked
// up or run: the project root given, the project found above the working
// folder, and the working folder itself, each also with its symbolic
// links resolved. A folder that holds the home folder is left out (the
// home folder is never a project, and ~/.local/bin is where agents live).
func (m *Machine) untrustedDirs(projectRoot string) []string {
	found, _ := m.ProjectRoot("")
	home := filepath.Clean(m.UserHome())
	var out []string
	for _, d := range []string{projectRoot, found, m.Cwd} {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		for _, v := range []string{filepath.Clean(d), evalOr(d)} {
			if home != "." && within(home, v) || slices.Contains(out, v) {
				continue
			}
			out = append(out, v)
		}
	}
	return out
}

// evalOr returns p with its symbolic links resolved, or p cleaned.
func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// insideAny reports whether p, lexically or with its symbolic links
// resolved, is one of dirs or lies below one.
func insideAny(p string, dirs []string) bool {
	for _, c := range []string{filepath.Clean(p), evalOr(p)} {
		for _, d := range dirs {
			if within(c, d) {
				return true
			}
		}
	}
	return false
}

// within reports whether the clean path p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// agentVersion runs "<agent> --version" with a short timeout; it is used
// only when the version cannot be read from the agent's package files,
// and only for an executable outside the project (see agentEnv).
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

// SelectAgents returns the agents to act on: those named with --agent, or
// every detected agent with strong evidence; agents disabled in the
// configuration are left out unless named.
func (m *Machine) SelectAgents(ctx context.Context, cfg *config.Config, names []string, aenv agents.Env) ([]agents.Adapter, []agents.Report, error) {
	reg := m.Table()
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
	reports := agents.DetectAll(ctx, aenv, enabled)
	sel, err := agents.AutoSelect(reports)
	return sel, reports, err
}

// AgentVersions returns the version of each of the selected agents that
// can be read, by id, for the minVersion of a manifest's
// compatibility.agents: from the detection reports SelectAgents returned,
// and for an agent named with --agent, which SelectAgents does not
// detect, from detecting it now (its npm package.json, else "<agent>
// --version" with a 2-second limit, never an executable the project
// controls). An agent whose version cannot be read is left out.
func (m *Machine) AgentVersions(ctx context.Context, selected []agents.Adapter, reports []agents.Report, aenv agents.Env) map[string]string {
	known := map[string]agents.Detection{}
	for _, r := range reports {
		known[r.Adapter.ID()] = r.Detection
	}
	out := map[string]string{}
	for _, a := range selected {
		d, ok := known[a.ID()]
		if !ok {
			d = a.Detect(ctx, aenv)
		}
		if d.Version != "" {
			out[a.ID()] = d.Version
		}
	}
	return out
}

// SeenAgents returns the agents whose view matters for list and doctor:
// those named, else every detected agent, else every supported agent (so
// that skills are still found on a machine where detection finds none).
func (m *Machine) SeenAgents(ctx context.Context, cfg *config.Config, names []string, aenv agents.Env) ([]agents.Adapter, error) {
	if len(names) > 0 {
		return m.Table().Select(names)
	}
	if sel, _, err := m.SelectAgents(ctx, cfg, nil, aenv); err == nil && len(sel) > 0 {
		return sel, nil
	}
	return m.Table().All(), nil
}
