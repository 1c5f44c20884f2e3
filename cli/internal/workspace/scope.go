package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
)

// LockFileName is the project lock file.
const LockFileName = "skills.lock"

// Scope is the decided scope of a command and, for a project, its root.
type Scope struct {
	// Kind is agents.ScopeGlobal or agents.ScopeProject.
	Kind agents.Scope
	// Root is the project root; "" in global scope.
	Root string
}

// Project reports whether the scope is a project.
func (s Scope) Project() bool { return s.Kind == agents.ScopeProject }

// LockPath returns the project's skills.lock, or "" in global scope.
func (s Scope) LockPath() string {
	if !s.Project() {
		return ""
	}
	return filepath.Join(s.Root, LockFileName)
}

// String renders the scope for messages: "project /x" or "global".
func (s Scope) String() string {
	if s.Project() {
		return "project " + s.Root
	}
	return "global"
}

// ScopeRequest is what the user asked for with --global, --project and
// --project-root.
type ScopeRequest struct {
	Global, Project bool
	ProjectRoot     string
}

// DecideScope applies the design's rule: --global and --project exclude
// each other; without either, project scope when the project has a
// skills.lock, a skills-registries.json or an agent project folder, else
// global.
func (m *Machine) DecideScope(r ScopeRequest) (Scope, error) {
	if r.Global && r.Project {
		return Scope{}, askerr.Usage("--global and --project cannot be used together")
	}
	root, err := m.ProjectRoot(r.ProjectRoot)
	if err != nil {
		return Scope{}, err
	}
	switch {
	case r.Global:
		return Scope{Kind: agents.ScopeGlobal}, nil
	case r.Project:
		if root == "" {
			return Scope{}, &askerr.Error{Code: askerr.CodeUsage,
				Message: "no project found above " + m.Cwd,
				Detail:  []string{"A project is a folder with .git, skills.lock or an agent folder such as .claude or .agents; your home folder is never one."},
				Try:     []string{"--project-root <folder>", "git init   (to make this folder a project)"}}
		}
		return Scope{Kind: agents.ScopeProject, Root: root}, nil
	}
	if root != "" && (exists(filepath.Join(root, LockFileName)) || exists(config.ProjectPath(root)) || m.hasAgentFolder(root)) {
		return Scope{Kind: agents.ScopeProject, Root: root}, nil
	}
	return Scope{Kind: agents.ScopeGlobal}, nil
}

// ProjectRoot returns the explicit project root, or the nearest folder at
// or above the working folder holding .git, skills.lock,
// skills-registries.json or an agent project folder. The home folder is
// never a project: the search stops below it, and an explicit
// --project-root equal to home is refused.
func (m *Machine) ProjectRoot(explicit string) (string, error) {
	home := filepath.Clean(m.UserHome())
	if explicit != "" {
		abs, err := filepath.Abs(explicit)
		if err != nil {
			return "", askerr.Usage("cannot resolve --project-root %s", explicit)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", askerr.Usage("--project-root %s is not a folder", explicit)
		}
		if abs == home {
			return "", askerr.Usage("your home folder cannot be a project; use --global for user-wide skills")
		}
		return abs, nil
	}
	for dir := filepath.Clean(m.Cwd); ; dir = filepath.Dir(dir) {
		if dir == home {
			return "", nil
		}
		if exists(filepath.Join(dir, ".git")) || exists(filepath.Join(dir, LockFileName)) || exists(config.ProjectPath(dir)) || m.hasAgentFolder(dir) {
			return dir, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", nil
		}
	}
}

// hasAgentFolder reports whether dir holds an agent project folder
// (.claude, .agents, .gemini, …).
func (m *Machine) hasAgentFolder(dir string) bool {
	for _, mk := range m.Table().ProjectMarkers() {
		if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(mk))); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// RunLockPath is the advisory lock file that serialises agent-skills runs
// on one scope: one per project root, one for the global scope.
func (m *Machine) RunLockPath(s Scope) string {
	return filepath.Join(m.Home(), "locks", RunKey(s)+".lock")
}

// RunKey names the files of a scope under $AGENT_SKILLS_HOME/locks: the
// first 16 hex digits of the sha256 of the project root, or "global".
func RunKey(s Scope) string {
	if s.Root == "" {
		return "global"
	}
	sum := sha256.Sum256([]byte(s.Root))
	return hex.EncodeToString(sum[:8])
}
