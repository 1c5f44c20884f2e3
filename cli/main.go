package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/gctune"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/alecthomas/kong"
)

// Version is the agent-skills release this binary reports; the build may
// override it with -ldflags "-X github.com/agent-skills/agent-skills/cli.Version=…".
var Version = devVersion

// devVersion is Version when no build set it.
const devVersion = "0.1.0-dev"

// release is the version this binary is: Version as the build set it,
// else the module version the Go toolchain recorded for a
// `go install …/cli/cmd/agent-skills@v0.2.0` ("0.2.0"), else devVersion.
func release() string {
	if Version != devVersion {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		return moduleRelease(bi.Main.Version)
	}
	return Version
}

// moduleRelease turns a recorded module version into a release: "v0.2.0"
// is 0.2.0; "(devel)", empty or not a version leaves devVersion.
func moduleRelease(v string) string {
	if r, ok := strings.CutPrefix(v, "v"); ok && r != "" && r[0] >= '0' && r[0] <= '9' {
		return r
	}
	return devVersion
}

// Commit and Date are the release's commit and its date (YYYY-MM-DD),
// set with -ldflags -X by `make build`, `make install` and releases; when
// empty, --version reads what the Go toolchain recorded.
var (
	Commit string
	Date   string
)

// generator is what skills.lock records as generatedWith.
func generator() string { return "agent-skills@" + release() }

// globals are the flags every command accepts.
type globals struct {
	Verbose bool             `short:"v" help:"Print more detail about what is done."`
	Quiet   bool             `short:"q" help:"Print only errors."`
	NoColor bool             `name:"no-color" help:"Do not colour output (NO_COLOR in the environment does the same)."`
	Offline bool             `help:"Use no network: registries answer from their caches, sources that need the network are refused (AGENT_SKILLS_OFFLINE=1 does the same)."`
	Version kong.VersionFlag `help:"Print the version and exit."`
	// NoUpdateCheck: see updatecheck.go (AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 does the same).
	NoUpdateCheck bool `name:"no-update-check" help:"Do not look for new releases of agent-skills or the installed skills (AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 does the same)."`
}

// app is the whole command tree. Each command lives in its own *_cmd.go file.
type app struct {
	globals

	Install   installCmd   `cmd:"" group:"Skills" help:"Install skills for your coding agents (or restore skills.lock)."`
	Uninstall uninstallCmd `cmd:"" group:"Skills" help:"Remove installed skills (only the files agent-skills wrote)."`
	Update    updateCmd    `cmd:"" group:"Skills" help:"Update installed skills within ^installed (or across majors with --major)."`
	Disable   disableCmd   `cmd:"" group:"Skills" help:"Switch installed skills off for every agent without uninstalling them."`
	Enable    enableCmd    `cmd:"" group:"Skills" help:"Switch disabled skills on again."`
	List      listCmd      `cmd:"" group:"Skills" help:"List installed skills per agent and scope."`
	Outdated  outdatedCmd  `cmd:"" group:"Skills" help:"Show installed skills with newer versions (read-only)."`
	Search    searchCmd    `cmd:"" group:"Skills" help:"Search the configured registries."`
	Info      infoCmd      `cmd:"" group:"Skills" help:"Show a skill's manifest, versions, dependencies and install state."`
	Agents    agentsCmd    `cmd:"" group:"Skills" help:"Show the supported agents, what was detected, and where each reads skills."`
	Doctor    doctorCmd    `cmd:"" group:"Skills" help:"Diagnose the environment, registries, agents and installed skills."`
	Audit     auditCmd     `cmd:"" group:"Skills" help:"Scan packages, collections or the installed skills for hidden text, injection, secrets and risky scripts (text, JSON or SARIF)."`
	Validate  validateCmd  `cmd:"" group:"Authoring" help:"Check skill packages: one package, or every package below a folder."`
	Create    createCmd    `cmd:"" group:"Authoring" help:"Scaffold a new skill, command or workflow package."`
	Publish   publishCmd   `cmd:"" group:"Authoring" help:"Validate a package and emit (or write) its registry index entry and archive."`
	Registry  registryCmd  `cmd:"" group:"Registries" help:"List, add, remove or export registries."`
	Catalog   catalogCmd   `cmd:"" group:"Agents" help:"Build and check skills-catalog.json; search, read and list the available skills; index several collections."`
	MCP       mcpCmd       `cmd:"" name:"mcp" group:"Agents" help:"Serve the catalog to agents over MCP (stdio), or print a host's registration."`
	Hook      hookCmd      `cmd:"" group:"Agents" help:"Session-start hooks: print the skill index in a host's format, print or verify its registration."`
	Setup     setupCmd     `cmd:"" group:"Agents" help:"Register the session hook and the MCP server in agents' settings (preview, --write, status, disable), with receipts."`
	Evidence  evidenceCmd  `cmd:"" group:"Agents" help:"Usage evidence: which skills agents read, reported outcomes, overlap, inactivity (read-only queries), and explicit records."`
	Plugin    pluginCmd    `cmd:"" group:"Agents" help:"Build host plugins (Claude Code, Codex, Copilot CLI) from a collection, or the skills-only folder and ZIP for a plugin directory."`

	Collection collectionCmd `cmd:"" group:"Maintenance" help:"Audit a collection, plan the fixes, and apply the automatic ones (catalog sync) with rollback and a receipt."`
	Snapshot   snapshotCmd   `cmd:"" group:"Maintenance" help:"Capture a package or collection byte for byte; verify a tree against it; restore a package from it."`
	Observe    observeCmd    `cmd:"" group:"Maintenance" help:"Verify a snapshot and write its portable observation (no file bytes, no local paths) with source and check evidence."`
	Upstream   upstreamCmd   `cmd:"" group:"Maintenance" help:"Record where a collection's skills came from (upstreams.lock.json) and check what changed upstream."`
	Report     reportCmd     `cmd:"" group:"Maintenance" help:"Release reports: report bump compares two versions of a package and recommends patch, minor, major or undetermined."`

	Completion completionCmd `cmd:"" help:"Print the shell completion script for bash, zsh or fish."`
	Help       helpCmd       `cmd:"" help:"Show the help of a command (the same as agent-skills COMMAND --help)."`

	selfUpdateCommands // self-update, in selfupdate_cmd.go
}

// env is what a command needs from the outside world: the context, the
// printer for its output, the machine it runs on and the global flags.
// Commands receive it instead of reaching for os.* so that they stay
// testable.
type env struct {
	ctx   context.Context
	stdin io.Reader
	*ui.Printer
	ws *workspace.Machine
	g  *globals
}

// exitSignal carries a kong-requested exit (after --help or --version)
// through a panic, so that Main returns instead of ending the process.
type exitSignal struct{ code int }

// Main runs agent-skills with args (without the program name) and returns
// the process exit code. It is the only place that maps errors to exit codes.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// A command lives for milliseconds and allocates little that
	// survives: collecting garbage less often is nearly half of the time
	// of a large resolution, within a soft memory limit while the live
	// heap is small (see gctune). Long-running servers reset GOGC.
	gctune.Start(os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"))
	defer startProfiles(os.Getenv, stderr)()
	ctx, stop := interruptible(context.Background())
	defer stop()
	return run(ctx, args, stdin, stdout, stderr, os.Getenv)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (code int) {
	var cli app
	// Every byte printed passes the terminal backstop (see ui.Printer):
	// untrusted text that a call site forgot to escape still cannot send
	// the terminal a control sequence, and no URL password is printed.
	// The flush runs before the recover below, on every way out.
	// Each stream is coloured only when it is a terminal itself: results
	// piped to a file leave the warnings on the terminal coloured.
	outColor, errColor := ui.WantColor(stdout, getenv, args), ui.WantColor(stderr, getenv, args)
	out := ui.New(stdout, stderr, ui.Options{Color: outColor, ErrColor: errColor, CI: getenv("CI") != ""})
	defer out.Flush()
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(exitSignal); ok {
				code = s.code
				return
			}
			panic(r)
		}
	}()
	parser, err := kong.New(&cli,
		kong.Name("agent-skills"),
		kong.Description("The package manager and authoring toolchain for agent skills: "+
			"create, validate, publish and install skills for Claude Code, Codex and other coding agents."),
		kong.Writers(out.Out, out.Err),
		kong.Exit(func(c int) { panic(exitSignal{c}) }),
		kong.Vars{"version": "agent-skills " + versionString()},
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
	)
	if err != nil {
		out.Error(askerr.Internal("building the command line", err))
		return exitFailure
	}
	// A shell asking for completions (COMP_LINE, see completion_cmd.go)
	// is answered before parsing: the arguments are the shell's.
	if completeRequest(ctx, parser, stdout, getenv) {
		return exitOK
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		var pe *kong.ParseError
		msg := err.Error()
		if errors.As(err, &pe) && pe.Context != nil && pe.Context.Selected() != nil {
			msg = fmt.Sprintf("%s (agent-skills %s)", msg, pe.Context.Command())
		}
		out.Error(&askerr.Error{Code: askerr.CodeUsage, Message: msg, Try: []string{helpHint(args)}})
		return exitUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		out.Error(askerr.IO("cannot read the current directory", err))
		return exitFailure
	}
	out = ui.New(stdout, stderr, ui.Options{Color: outColor, ErrColor: errColor, CI: getenv("CI") != "",
		Quiet: cli.Quiet, Verbose: cli.Verbose, Cwd: cwd})
	defer out.Flush()
	e := &env{ctx: ctx, stdin: stdin, Printer: out, g: &cli.globals,
		ws: &workspace.Machine{Getenv: getenv, Cwd: cwd, OfflineFlag: cli.Offline, Notify: func(msg string) { out.Note("%s", msg) }}}
	// The agents of this run: the built-in ones and config.json's custom
	// ones, built once.
	e.ws.LoadAgents()
	var warning string
	e.ws.HTTP, warning = workspace.HTTPTimeoutsFrom(getenv)
	if warning != "" {
		e.Warn("%s", warning)
	}
	if done, code := e.checkUpdates(kctx); done {
		return code
	}
	if err := kctx.Run(e); err != nil {
		if ctx.Err() != nil {
			err = interrupted(ctx)
		}
		e.Error(err)
		return exitCodeOf(err)
	}
	return exitOK
}

// helpHint suggests the help of the command the user was typing.
func helpHint(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return "agent-skills " + a + " --help"
		}
	}
	return "agent-skills --help"
}

// versionString returns what --version and doctor print: Version, then
// the commit and its date — from the release build's -ldflags (Commit,
// Date), else from what the Go toolchain recorded (vcs.revision, vcs.time)
// — and "dev build" for a version that is not a release.
func versionString() string {
	commit, date, modified := Commit, Date, false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if commit == "" {
					commit = s.Value
				}
			case "vcs.time":
				if date == "" {
					date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true" && Commit == ""
			}
		}
	}
	return formatVersion(release(), commit, date, modified)
}

// formatVersion is "0.2.0 (abc1234, 2026-12-01)": the commit shortened to
// seven characters (with "-dirty" for a modified tree), the date to the
// day, and "dev build" first for a version with a pre-release "dev".
func formatVersion(version, commit, date string, modified bool) string {
	var parts []string
	if strings.Contains(version, "-dev") {
		parts = append(parts, "dev build")
	}
	if c, ok := strings.CutSuffix(commit, "-dirty"); ok {
		commit, modified = c, true
	}
	if commit != "" {
		if len(commit) > 7 {
			commit = commit[:7]
		}
		if modified {
			commit += "-dirty"
		}
		parts = append(parts, commit)
	}
	if len(date) >= 10 {
		parts = append(parts, date[:10])
	}
	if len(parts) == 0 {
		return version
	}
	return version + " (" + strings.Join(parts, ", ") + ")"
}
