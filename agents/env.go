package agents

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
)

// Env is everything this package knows about the machine it plans for. The
// CLI fills it from the operating system; tests fill it with fakes. Every
// function field may be nil, in which case the evidence or value it would
// provide is simply absent: the package never reaches the OS on its own.
type Env struct {
	// Home is the user's home directory, an absolute OS path. Global roots
	// are resolved against it; when it is empty there are no global roots.
	Home string
	// Getenv reads an environment variable such as CLAUDE_CONFIG_DIR,
	// CODEX_HOME or XDG_CONFIG_HOME; "" means unset.
	Getenv func(key string) string
	// LookPath finds an executable on PATH, like exec.LookPath. A result
	// that is relative or inside ProjectRoot is ignored (see Detect); the
	// CLI's LookPath skips such PATH entries itself.
	LookPath func(file string) (string, error)
	// Stat describes a file, like os.Stat (it follows symlinks).
	Stat func(name string) (fs.FileInfo, error)
	// ReadFile reads a small file, like os.ReadFile. It is used only to read
	// an agent's version from its npm package.json.
	ReadFile func(name string) ([]byte, error)
	// EvalSymlinks resolves symlinks, like filepath.EvalSymlinks. It lets
	// detection find the npm package behind an executable on PATH.
	EvalSymlinks func(path string) (string, error)
	// Version, when set, reads an agent's version some other way (the CLI
	// may run `<agent> --version` with a timeout). It is consulted only
	// when no version could be read from a file, and never for an
	// executable that is relative or inside ProjectRoot. This package
	// never runs an agent itself.
	Version func(ctx context.Context, agentID, executable string) (string, error)
	// ProjectRoot is the absolute project directory for project-scoped
	// installs; when it is empty there are no project roots.
	ProjectRoot string
	// WorkDir is the directory the agent would be started in. Agents that
	// look for project skills in every directory from the working
	// directory up to the project root (Codex) read one root per level,
	// and agents that look in the working directory and at the git root
	// (Crush, OpenHands) read two; when WorkDir is empty or outside
	// ProjectRoot only the project root's own folder counts. An agent that
	// reads project skills only in the folder it is started in is taken to
	// start at the project root (its ProjectCaveat says so).
	WorkDir string
	// Overrides replaces an agent's skills roots, keyed by agent id, from
	// the configuration keys agents.<id>.globalRoot and projectRoot. Other
	// kinds (commands) keep the agent's own convention.
	Overrides map[string]RootOverride
	// Canonical, when set, returns the one spelling of the folder at path:
	// the same for two roots that are one folder, such as .agents/skills
	// and a .claude/skills that links to it. Every root this package
	// reports (Roots, ReadRoots, LocationFor, PlanRoots) goes through it,
	// so a folder that two agents reach by different paths is one root
	// with several readers: it is written once, with one receipt, and
	// listed once. It must be idempotent and return a clean absolute path;
	// the CLI resolves symbolic links with it. nil keeps every path as the
	// table spells it.
	Canonical func(path string) string
}

// canon returns the canonical spelling of a root path through
// e.Canonical, or path itself when it is empty or Canonical is nil.
func (e Env) canon(path string) string {
	if e.Canonical == nil || path == "" {
		return path
	}
	return e.Canonical(path)
}

// RootOverride names the skills roots a user configured for one agent,
// for when an agent moved its convention before the table caught up. A
// set field replaces the agent's preferred skills root for that scope,
// both as the root written to and as the root read; the agent's other read
// roots stay. An empty field keeps the agent's default. A relative ProjectRoot is taken
// relative to the project root; a GlobalRoot starting with "~/" is taken
// relative to the home directory.
type RootOverride struct {
	GlobalRoot  string `json:"globalRoot,omitempty"`
	ProjectRoot string `json:"projectRoot,omitempty"`
}

// projectLocal reports whether the executable path exe may be the
// project's own code: a relative path, or one inside ProjectRoot (unless
// the project root holds the home folder, which is never a project). The
// test is lexical; the CLI's LookPath also resolves symbolic links.
func (e Env) projectLocal(exe string) bool {
	if !filepath.IsAbs(exe) {
		return true
	}
	if e.ProjectRoot == "" {
		return false
	}
	root := filepath.Clean(e.ProjectRoot)
	if e.Home != "" && within(filepath.Clean(e.Home), root) {
		return false
	}
	return within(filepath.Clean(exe), root)
}

// within reports whether the clean path p is dir or lies below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// getenv reads key through e.Getenv, treating a nil function as an empty
// environment.
func (e Env) getenv(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// isDir reports whether name exists and is a directory according to e.Stat.
func (e Env) isDir(name string) bool {
	if e.Stat == nil || name == "" {
		return false
	}
	fi, err := e.Stat(name)
	return err == nil && fi.IsDir()
}

// exists reports whether name exists according to e.Stat.
func (e Env) exists(name string) bool {
	if e.Stat == nil || name == "" {
		return false
	}
	_, err := e.Stat(name)
	return err == nil
}

// base says which directory a path in the agent table starts from.
type base int

const (
	// fromHome starts at Env.Home.
	fromHome base = iota
	// fromProject starts at Env.ProjectRoot.
	fromProject
	// fromEnv is only the value of the place's envVar: when the variable
	// is unset the place does not exist (Kilo Code's $KILO_CONFIG_DIR,
	// an extra folder read only when it is set).
	fromEnv
)

// place is a directory written in the agent table: start from base, or
// from the value of envVar when that variable is set, then add rel (only
// when envVar is unset: the variable names the whole directory), then
// sub. For example Claude Code's skills are {envVar: CLAUDE_CONFIG_DIR,
// rel: ".claude", sub: "skills"}. A relative variable value is taken from
// the home folder.
type place struct {
	base   base
	envVar string
	rel    string
	sub    string
}

// resolve turns the place into an absolute OS path, or "" when the
// directory it starts from is unknown.
func (p place) resolve(e Env) string {
	var dir string
	if v := e.getenv(p.envVar); p.envVar != "" && v != "" {
		dir = v
		if !filepath.IsAbs(dir) && p.base != fromProject && e.Home != "" {
			dir = filepath.Join(e.Home, dir)
		}
	} else {
		switch p.base {
		case fromHome:
			dir = e.Home
		case fromProject:
			dir = e.ProjectRoot
		case fromEnv:
			return ""
		}
		if dir == "" {
			return ""
		}
		dir = filepath.Join(dir, filepath.FromSlash(p.rel))
	}
	return filepath.Clean(filepath.Join(dir, filepath.FromSlash(p.sub)))
}

// resolveOverride turns a configured root into an absolute OS path: "~"
// and "~/x" are taken from the home directory, other relative paths from
// dir (the project root for project overrides, the home directory for
// global ones).
func resolveOverride(root, home, dir string) string {
	switch {
	case root == "":
		return ""
	case root == "~":
		return filepath.Clean(home)
	case strings.HasPrefix(root, "~/") || strings.HasPrefix(root, `~\`):
		if home == "" {
			return ""
		}
		return filepath.Join(home, root[2:])
	case filepath.IsAbs(root):
		return filepath.Clean(root)
	case dir == "":
		return ""
	}
	return filepath.Join(dir, root)
}

// walkUp returns dir, its parent, and so on up to and including top,
// nearest first. It returns just top when dir is empty or not inside top.
func walkUp(dir, top string) []string {
	top = filepath.Clean(top)
	if dir == "" {
		return []string{top}
	}
	dir = filepath.Clean(dir)
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return []string{top}
	}
	var out []string
	for {
		out = append(out, dir)
		if dir == top {
			return out
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return []string{top}
		}
		dir = parent
	}
}
