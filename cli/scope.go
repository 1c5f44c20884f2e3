package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
)

// lockFileName is the project lock file.
const lockFileName = "skills.lock"

// scopeFlags are the scope flags of install, uninstall, update and list.
type scopeFlags struct {
	Global      bool   `help:"Act on the user's global skills (~/.claude/skills, ~/.agents/skills, …)."`
	Project     bool   `help:"Act on the project's skills (.claude/skills, .agents/skills, …) and its skills.lock."`
	ProjectRoot string `type:"path" help:"The project folder (default: the nearest folder above the working one with .git, skills.lock or an agent folder)."`
}

// scopeChoice is the decided scope and, for project scope, its root.
type scopeChoice struct {
	scope agents.Scope
	root  string // project root; "" for global scope
}

// lockPath returns the project's skills.lock, or "" for global scope.
func (s scopeChoice) lockPath() string {
	if s.scope != agents.ScopeProject {
		return ""
	}
	return filepath.Join(s.root, lockFileName)
}

// decideScope applies the design's rule: --global and --project exclude
// each other; without either, project scope when the project has a
// skills.lock or an agent project folder, else global.
func (e *env) decideScope(f scopeFlags) (scopeChoice, error) {
	if f.Global && f.Project {
		return scopeChoice{}, usageError("--global and --project cannot be used together")
	}
	root, err := e.projectRoot(f.ProjectRoot)
	if err != nil {
		return scopeChoice{}, err
	}
	switch {
	case f.Global:
		return scopeChoice{scope: agents.ScopeGlobal}, nil
	case f.Project:
		if root == "" {
			return scopeChoice{}, &Error{Code: "ASK_USAGE",
				Summary: "no project found above " + e.cwd,
				Detail:  []string{"A project is a folder with .git, skills.lock or an agent folder such as .claude or .agents; your home folder is never one."},
				Try:     []string{"--project-root <folder>", "git init   (to make this folder a project)"}}
		}
		return scopeChoice{scope: agents.ScopeProject, root: root}, nil
	}
	if root != "" && (exists(filepath.Join(root, lockFileName)) || e.hasAgentFolder(root)) {
		return scopeChoice{scope: agents.ScopeProject, root: root}, nil
	}
	return scopeChoice{scope: agents.ScopeGlobal}, nil
}

// configAndProject loads the configuration and finds the project root
// (see projectRoot), which most read-only commands need together.
func (e *env) configAndProject(explicit string) (*config.Config, string, error) {
	cfg, err := e.loadConfig()
	if err != nil {
		return nil, "", err
	}
	root, err := e.projectRoot(explicit)
	if err != nil {
		return nil, "", err
	}
	return cfg, root, nil
}

// projectRoot returns the explicit project root, or the nearest folder at
// or above the working folder holding .git, skills.lock or an agent
// project folder. The home folder is never a project: the search stops
// below it, and an explicit --project-root equal to home is refused.
func (e *env) projectRoot(explicit string) (string, error) {
	home := filepath.Clean(e.userHome())
	if explicit != "" {
		abs, err := filepath.Abs(explicit)
		if err != nil {
			return "", usageError("cannot resolve --project-root %s", explicit)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", usageError("--project-root %s is not a folder", explicit)
		}
		if abs == home {
			return "", usageError("your home folder cannot be a project; use --global for user-wide skills")
		}
		return abs, nil
	}
	for dir := filepath.Clean(e.cwd); ; dir = filepath.Dir(dir) {
		if dir == home {
			return "", nil
		}
		if exists(filepath.Join(dir, ".git")) || exists(filepath.Join(dir, lockFileName)) || e.hasAgentFolder(dir) {
			return dir, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", nil
		}
	}
}

// hasAgentFolder reports whether dir holds an agent project folder
// (.claude, .agents, .gemini, …).
func (e *env) hasAgentFolder(dir string) bool {
	for _, m := range agents.Default().ProjectMarkers() {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// describe renders the scope for messages: "project /x" or "global".
func (s scopeChoice) describe() string {
	if s.scope == agents.ScopeProject {
		return fmt.Sprintf("project %s", s.root)
	}
	return "global"
}
