package setup

import (
	"os"
	"path/filepath"
	"slices"
)

// Scope is where a registration applies: for the user everywhere, or for
// one project.
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// Env is the machine setup runs on, as the CLI sees it.
type Env struct {
	// Getenv reads the command's environment.
	Getenv func(string) string
	// Home is the user's home folder.
	Home string
	// StateDir is agent-skills' own folder ($AGENT_SKILLS_HOME), which
	// holds the receipts of user scope.
	StateDir string
	// ProjectRoot is the project's root, "" when there is none.
	ProjectRoot string
	// LookPath finds an executable on PATH (never in the project).
	LookPath func(string) (string, error)
	// Version is this agent-skills' version, recorded in receipts.
	Version string
	// Environ is the whole environment, for the programs setup starts
	// (codex app-server).
	Environ []string
}

// env returns the variable name, or def when it is unset or empty.
func (e Env) env(name, def string) string {
	if v := e.Getenv(name); v != "" {
		return v
	}
	return def
}

// Options are what the user asked for besides host and scope.
type Options struct {
	// Parts are the parts to register; empty means the session-start
	// hook and the MCP server (never the read hook, which is asked for by
	// name).
	Parts []Part
	// Command is the agent-skills command the entries run: a bare
	// name found on PATH ("agent-skills") or an absolute path.
	Command string
	// TrustMCP writes Gemini CLI's "trust": true on the MCP server, so
	// that headless sessions offer its tools (it skips every
	// confirmation of them).
	TrustMCP bool
}

// wants reports whether o asks for part p.
func (o Options) wants(p Part) bool {
	if len(o.Parts) == 0 {
		return p == Hooks || p == MCP
	}
	return slices.Contains(o.Parts, p)
}

// command returns the agent-skills command to write.
func (o Options) command() string {
	if o.Command == "" {
		return "agent-skills"
	}
	return o.Command
}

// Host is a coding agent whose settings setup edits. A host says which
// files hold what for a scope; the engine (Enable, Status, Disable) does
// the reading, diffing, writing and receipts.
type Host interface {
	// Name is the host's name on the command line.
	Name() string
	// Installed reports whether the host is on this machine: its
	// configuration folder exists or its executable is on PATH. Setup
	// never creates the folders of a host that is not installed when it
	// is asked for every host.
	Installed(env Env) bool
	// Entries returns what setup writes for the scope and options.
	Entries(env Env, scope Scope, o Options) ([]Entry, error)
	// Notes returns the trust gates that can keep a correct
	// registration from taking effect, for the scope and parts.
	Notes(scope Scope, o Options) []string
}

// afterWriter is a host with more to do once its files are written
// (Codex: trust the hook). It returns notes, and may add entries to rec.
type afterWriter interface {
	afterWrite(env Env, scope Scope, o Options, rec *Receipt, stamp string) ([]string, error)
}

// Hosts returns every host setup knows, sorted by name.
func Hosts() []Host {
	return []Host{claude{}, codex{}, copilot{}, gemini{}, opencode{}}
}

// HostNamed returns the host called name.
func HostNamed(name string) (Host, bool) {
	for _, h := range Hosts() {
		if h.Name() == name {
			return h, true
		}
	}
	return nil, false
}

// HostNames returns the names of every host.
func HostNames() []string {
	var out []string
	for _, h := range Hosts() {
		out = append(out, h.Name())
	}
	return out
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// onPath reports whether the executable name is on env's PATH.
func onPath(env Env, name string) bool {
	if env.LookPath == nil {
		return false
	}
	_, err := env.LookPath(name)
	return err == nil
}

// inProject returns the path rel in the project, or an error when there
// is no project.
func inProject(env Env, rel ...string) (string, error) {
	if env.ProjectRoot == "" {
		return "", errNoProject()
	}
	return filepath.Join(append([]string{env.ProjectRoot}, rel...)...), nil
}
