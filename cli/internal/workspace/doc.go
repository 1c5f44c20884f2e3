// Package workspace is where an agent-skills command runs: the user's
// home and agent-skills home, the configuration, the registries it names,
// the agents of this machine and the scope — a project or the user's
// global skills — that a command acts on.
//
// A Machine is built once per command from the process environment (the
// CLI passes the environment in; nothing here calls os.Getenv). Every
// command that needs registries, agents or a scope asks the Machine, so
// that the rules — which folder is a project, which executables detection
// may look at, how long a download may stall — are written once.
package workspace
