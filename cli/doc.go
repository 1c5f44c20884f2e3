// Package cli is the agent-skills command line: it parses arguments with
// kong, wires registries, agents and the install pipeline together, and is
// the only place that turns an error into an exit code.
package cli
