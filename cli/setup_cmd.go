package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/setup"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

type setupCmd struct {
	Enable  setupEnableCmd  `cmd:"" help:"Preview (or with --write apply) the registration of the session hook and the MCP server in a host's settings."`
	Status  setupStatusCmd  `cmd:"" help:"Show, entry by entry, whether a host's settings still hold what setup wrote, and whether its command runs."`
	Disable setupDisableCmd `cmd:"" help:"Preview (or with --write apply) removing what setup wrote that is unchanged since."`
}

// setupTarget are the flags that choose hosts, scope and parts.
type setupTarget struct {
	Host  string `required:"" enum:"claude,codex,copilot,gemini,opencode,all" help:"The host: claude, codex, copilot, gemini, opencode, or all (every host installed on this machine)."`
	Scope string `default:"user" enum:"user,project" help:"user (every session of yours) or project (the project around the working folder)."`
	Hooks bool   `help:"Only the session-start hook (default: the hook and the MCP server)."`
	MCP   bool   `name:"mcp" help:"Only the MCP server (default: the hook and the MCP server)."`
	Reads bool   `help:"The read hook (agent-skills hook observe), which records the host's reads of installed skills' files in the evidence store; telemetry, so never part of the default."`
	JSON  bool   `name:"json" help:"Print the result as JSON."`
}

// options returns the setup options the flags ask for.
func (t setupTarget) options() setup.Options {
	var o setup.Options
	if t.Hooks {
		o.Parts = append(o.Parts, setup.Hooks)
	}
	if t.MCP {
		o.Parts = append(o.Parts, setup.MCP)
	}
	if t.Reads {
		o.Parts = append(o.Parts, setup.Reads)
	}
	return o
}

// setupEnv builds the machine's view for setup.
func (e *env) setupEnv() setup.Env {
	root, _ := e.ws.ProjectRoot("")
	return setup.Env{Getenv: e.ws.Getenv, Home: e.ws.UserHome(), StateDir: e.ws.Home(), ProjectRoot: root,
		LookPath: e.ws.LookPath, Version: release(), Environ: os.Environ()}
}

// hosts returns the hosts the flags name: one, or for all every host
// that is installed (and, for status and disable, every host with a
// receipt). A host that setup cannot edit yet is skipped with a note.
func (t setupTarget) hosts(e *env, senv setup.Env, withReceipts bool) ([]setup.Host, error) {
	if t.Host != "all" {
		h, ok := setup.HostNamed(t.Host)
		if !ok {
			return nil, askerr.Usage("unknown host %q: use %s or all", t.Host, strings.Join(setup.HostNames(), ", "))
		}
		return []setup.Host{h}, nil
	}
	var out []setup.Host
	for _, h := range setup.Hosts() {
		if !h.Installed(senv) && !(withReceipts && setup.HasReceipt(senv, h.Name(), setup.Scope(t.Scope))) {
			continue
		}
		if _, err := h.Entries(senv, setup.Scope(t.Scope), setup.Options{}); askerr.Is(err, setup.CodeHostUnsupported) {
			e.Note("%s is installed, but skipped: %s", h.Name(), err.Error())
			continue
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil, &askerr.Error{Code: agents.CodeNoAgent, Message: "no host that setup can edit is installed on this machine",
			Detail: []string{"looked for the configuration folders and executables of " + strings.Join(setup.HostNames(), ", ")},
			Try:    []string{"agent-skills setup enable --host claude   names a host explicitly"}}
	}
	return out, nil
}

type setupEnableCmd struct {
	setupTarget
	Write    bool   `help:"Apply the changes (without it, only the diff is printed)."`
	TrustMCP bool   `name:"trust-mcp" help:"Gemini CLI: write \"trust\": true on the MCP server, so that headless sessions offer its tools; it skips every confirmation of them."`
	Command  string `help:"The agent-skills command the host runs: a name found on PATH or an absolute path (default: agent-skills)."`
}

func (c *setupEnableCmd) Help() string {
	return `Registers the session-start hook ("agent-skills hook session-index") and the MCP
server ("agent-skills mcp serve") in the host's own settings files, for the user or
for the project. Without --write it prints a unified diff of every file it would
change and writes nothing. With --write it applies the diff atomically, keeping
every other byte of the file (comments and order included), and records the
entries it owns in a receipt. It refuses a file that does not parse, and an
agent-skills entry that it did not write as it is. Running it again is a no-op.
--reads registers the read hook ("agent-skills hook observe"), which records the
host's reads of installed skills' files in the evidence store; it is telemetry, so
it is registered only when asked for. See docs/setup.md for the files of each host.

Examples:
  agent-skills setup enable --host claude
  agent-skills setup enable --host all --write
  agent-skills setup enable --host codex --reads --write
  agent-skills setup enable --host gemini --scope project --mcp --trust-mcp --write`
}

func (c *setupEnableCmd) Run(e *env) error {
	if c.Command != "" && !isCommandName(c.Command) {
		return askerr.Usage("--command must be a program name found on PATH or an absolute path, not %q", c.Command)
	}
	senv := e.setupEnv()
	hosts, err := c.hosts(e, senv, false)
	if err != nil {
		return err
	}
	o := c.options()
	o.TrustMCP, o.Command = c.TrustMCP, c.Command
	var reports []*setup.Report
	for _, h := range hosts {
		reports = append(reports, setup.Enable(senv, h, setup.Scope(c.Scope), o, c.Write))
	}
	return e.setupResult(reports, c.JSON, func(r *setup.Report) {
		switch {
		case r.Written:
			e.Done("%s: wrote %s; receipt %s", r.Host, changedFiles(r), r.Receipt)
		case len(r.Changes) == 0:
			e.Done("%s: nothing to do: already registered", r.Host)
		default:
			e.Done("%s: preview only, nothing written: run again with --write to apply", r.Host)
		}
	})
}

// isCommandName reports whether s is a bare program name or an absolute
// path.
func isCommandName(s string) bool {
	if strings.HasPrefix(s, "/") {
		return true
	}
	return !strings.ContainsAny(s, "/\\ \t\n\"'") && s != "." && s != ".."
}

type setupStatusCmd struct {
	setupTarget
}

func (c *setupStatusCmd) Help() string {
	return `For every entry setup wrote (its receipt) or would write: registered (as setup wrote
it), modified (changed since), missing (setup wrote it, and it is gone), foreign (an
agent-skills entry setup did not write) or not-registered; whether the command it
runs is found and answers --version; and the host's trust gates, which can keep a
correct registration from taking effect. It changes nothing.

Examples:
  agent-skills setup status --host all
  agent-skills setup status --host claude --scope project --json`
}

func (c *setupStatusCmd) Run(e *env) error {
	senv := e.setupEnv()
	hosts, err := c.hosts(e, senv, true)
	if err != nil {
		return err
	}
	var reports []*setup.Report
	for _, h := range hosts {
		reports = append(reports, setup.Status(senv, h, setup.Scope(c.Scope), c.options(), setup.CheckCommand))
	}
	return e.setupResult(reports, c.JSON, nil)
}

type setupDisableCmd struct {
	setupTarget
	Write bool `help:"Apply the changes (without it, only the diff is printed)."`
}

func (c *setupDisableCmd) Help() string {
	return `Removes the entries setup wrote (its receipt lists them) that are unchanged since,
keeping every other byte of the files, and the receipt once nothing is left. An
entry you changed stays where it is and is named; the command then exits 1
(ASK_SETUP_PARTIAL). Without --write it prints the diff and writes nothing.

Examples:
  agent-skills setup disable --host claude
  agent-skills setup disable --host all --write`
}

func (c *setupDisableCmd) Run(e *env) error {
	senv := e.setupEnv()
	hosts, err := c.hosts(e, senv, true)
	if err != nil {
		return err
	}
	var reports []*setup.Report
	for _, h := range hosts {
		reports = append(reports, setup.Disable(senv, h, setup.Scope(c.Scope), c.Write))
	}
	return e.setupResult(reports, c.JSON, func(r *setup.Report) {
		switch {
		case r.Written:
			e.Done("%s: removed what setup wrote from %s", r.Host, changedFiles(r))
		case len(r.Changes) == 0:
			e.Done("%s: nothing to remove", r.Host)
		default:
			e.Done("%s: preview only, nothing written: run again with --write to apply", r.Host)
		}
	})
}

// changedFiles lists the files of a report's changes.
func changedFiles(r *setup.Report) string {
	var names []string
	for _, c := range r.Changes {
		names = append(names, c.File)
	}
	if len(names) == 0 {
		return "no file (the receipt only)"
	}
	return strings.Join(names, ", ")
}

// setupJSON is the --json form of one host's report.
type setupJSON struct {
	*setup.Report
	Error *jsonError `json:"error,omitempty"`
}

// jsonError is an error in --json output.
type jsonError struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Detail  []string `json:"detail,omitempty"`
}

// setupResult prints the reports and returns the run's error: a host's
// own when one host failed, else ASK_SETUP_PARTIAL naming each.
func (e *env) setupResult(reports []*setup.Report, asJSON bool, done func(*setup.Report)) error {
	var failed []*setup.Report
	for _, r := range reports {
		if r.Err != nil {
			failed = append(failed, r)
		}
	}
	if asJSON {
		var out []setupJSON
		for _, r := range reports {
			j := setupJSON{Report: r}
			if r.Err != nil {
				j.Error = &jsonError{Code: askerr.CodeOf(r.Err), Message: r.Err.Error(), Detail: askerr.DetailOf(r.Err)}
			}
			out = append(out, j)
		}
		if err := e.JSON(out); err != nil {
			return err
		}
	} else {
		for _, r := range reports {
			e.printSetup(r)
			if r.Err == nil && done != nil {
				done(r)
			}
		}
	}
	switch {
	case len(failed) == 0:
		return nil
	case len(failed) == 1 && len(reports) == 1:
		return failed[0].Err
	}
	var detail []string
	for _, r := range failed {
		if !asJSON {
			e.Error(r.Err)
		}
		detail = append(detail, r.Host+": "+r.Err.Error())
	}
	return &askerr.Error{Code: setup.CodePartial, Message: fmt.Sprintf("%d of %d hosts failed", len(failed), len(reports)),
		Detail: detail, Try: []string{"fix what each host's error names, then run the command again"}}
}

// printSetup prints one host's report as text: the entries, the notes
// and the diffs.
func (e *env) printSetup(r *setup.Report) {
	fmt.Fprintf(e.Out, "%s (%s scope):\n", r.Host, r.Scope)
	for _, x := range r.Entries {
		fmt.Fprintf(e.Out, "  %-14s %-5s %s: %s\n", x.Status, x.Part, x.File, x.Where)
		if x.Detail != "" {
			fmt.Fprintf(e.Out, "  %14s %s\n", "", termtext.Line(x.Detail))
		}
		if c := x.Command; c != nil {
			if c.Runs {
				fmt.Fprintf(e.Out, "  %14s command %s runs\n", "", c.Command)
			} else {
				fmt.Fprintf(e.Out, "  %14s command %s does not run: %s\n", "", c.Command, c.Problem)
			}
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(e.Out, "  note: %s\n", n)
	}
	for _, c := range r.Changes {
		fmt.Fprint(e.Out, termtext.Text(c.Diff))
	}
}
