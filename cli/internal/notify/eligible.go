package notify

import "strings"

// Scope is what a command looks up before it runs.
type Scope int

const (
	// None: no lookup, no read of updates.json or config.json.
	None Scope = iota
	// CLIOnly: the CLI's own releases only (install and update, whose
	// requested skill resolution a skill notice would second-guess).
	CLIOnly
	// All: the CLI's releases and the installed skills' releases.
	All
)

// String names the scope as docs/cli.md does.
func (s Scope) String() string {
	switch s {
	case CLIOnly:
		return "CLI only"
	case All:
		return "CLI and skills"
	}
	return "never"
}

// Rule is one row of the command table: the top-level command, what it
// looks up, and why.
type Rule struct {
	Command string
	Scope   Scope
	Why     string
}

// Rules is the command table, the one source of docs/cli.md's "Update
// notifications" table (TestRulesDocumented keeps them in step). A
// command not listed is never checked.
func Rules() []Rule {
	return []Rule{
		{"list", All, "shows the installed skills"},
		{"outdated", All, "shows the installed skills"},
		{"search", All, "reads the registries"},
		{"info", All, "reads the registries"},
		{"agents", All, "shows where skills are installed"},
		{"doctor", All, "diagnoses the installation (not with --offline)"},
		{"audit", All, "scans the installed skills"},
		{"install", CLIOnly, "keeps the skill resolution that was asked for"},
		{"update", CLIOnly, "keeps the skill resolution that was asked for"},
		{"uninstall", None, "removal"},
		{"disable", None, "removal"},
		{"enable", None, "removal"},
		{"validate", None, "authoring"},
		{"create", None, "authoring"},
		{"publish", None, "authoring"},
		{"registry", None, "registry configuration"},
		{"catalog", None, "run by agents"},
		{"mcp", None, "run by agents"},
		{"hook", None, "run by agents"},
		{"setup", None, "agent settings"},
		{"plugin", None, "authoring"},
		{"evidence", None, "reads or records usage evidence"},
		{"collection", None, "collection maintenance"},
		{"snapshot", None, "collection maintenance"},
		{"observe", None, "collection maintenance"},
		{"upstream", None, "collection maintenance"},
		{"report", None, "collection maintenance"},
		{"completion", None, "run by shells"},
		{"self-update", None, "is the update itself"},
		{"help", None, "prints help"},
	}
}

// Input is what eligibility is decided from: the selected command
// (kong's "registry add <name>" form), the flags given on the command
// line by name (only those set), the environment, and whether stdin,
// stdout and stderr are terminals (a pipe on any of them is a script).
type Input struct {
	Command   string
	Flags     map[string]bool
	Getenv    func(string) string
	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
}

// NoNotifierEnv is the environment opt-out.
const NoNotifierEnv = "AGENT_SKILLS_NO_UPDATE_NOTIFIER"

// Eligible returns what the command may look up before it runs, and, for
// None, the rule that said no. It reads nothing but its input.
func Eligible(in Input) (Scope, string) {
	getenv := in.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	switch {
	case envTrue(getenv(NoNotifierEnv)):
		return None, NoNotifierEnv
	case getenv("CI") != "":
		return None, "CI"
	case envTrue(getenv("AGENT_SKILLS_OFFLINE")):
		return None, "AGENT_SKILLS_OFFLINE"
	}
	for _, f := range []string{"no-update-check", "help", "version", "json", "quiet", "dry-run", "offline"} {
		if in.Flags[f] {
			return None, "--" + f
		}
	}
	top, _, _ := strings.Cut(strings.TrimSpace(in.Command), " ")
	scope := None
	for _, r := range Rules() {
		if r.Command == top {
			scope = r.Scope
		}
	}
	if scope == None {
		if top == "" {
			return None, "no command"
		}
		return None, top
	}
	if !in.StdinTTY || !in.StdoutTTY || !in.StderrTTY {
		return None, "not a terminal"
	}
	return scope, ""
}

// envTrue reads a boolean opt-out: set and not "0"/"false".
func envTrue(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v != "" && v != "0" && v != "false" && v != "no"
}
