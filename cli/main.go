package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/alecthomas/kong"
)

// Version is the agent-skills release this binary reports; the build may
// override it with -ldflags "-X github.com/agent-skills/agent-skills/cli.Version=…".
var Version = "0.1.0-dev"

// globals are the flags every command accepts.
type globals struct {
	Verbose bool             `short:"v" help:"Print more detail about what is done."`
	Quiet   bool             `short:"q" help:"Print only errors."`
	NoColor bool             `name:"no-color" help:"Do not colour output (NO_COLOR in the environment does the same)."`
	Offline bool             `help:"Use no network: registries answer from their caches (AGENT_SKILLS_OFFLINE=1 does the same)."`
	Version kong.VersionFlag `help:"Print the version and exit."`
}

// app is the whole command tree. Each command lives in its own *_cmd.go file.
type app struct {
	globals

	Install   installCmd   `cmd:"" group:"Skills" help:"Install skills for your coding agents (or restore skills.lock)."`
	Uninstall uninstallCmd `cmd:"" group:"Skills" help:"Remove installed skills (only the files agent-skills wrote)."`
	Update    updateCmd    `cmd:"" group:"Skills" help:"Update installed skills within ^installed (or across majors with --major)."`
	List      listCmd      `cmd:"" group:"Skills" help:"List installed skills per agent and scope."`
	Search    searchCmd    `cmd:"" group:"Skills" help:"Search the configured registries."`
	Info      infoCmd      `cmd:"" group:"Skills" help:"Show a skill's manifest, versions, dependencies and install state."`
	Agents    agentsCmd    `cmd:"" group:"Skills" help:"Show the supported agents, what was detected, and where each reads skills."`
	Doctor    doctorCmd    `cmd:"" group:"Skills" help:"Diagnose the environment, registries, agents and installed skills."`
	Validate  validateCmd  `cmd:"" group:"Authoring" help:"Check skill packages: one package, or every package below a folder."`
	Create    createCmd    `cmd:"" group:"Authoring" help:"Scaffold a new skill, command or workflow package."`
	Publish   publishCmd   `cmd:"" group:"Authoring" help:"Validate a package and emit (or write) its registry index entry and archive."`
	Registry  registryCmd  `cmd:"" group:"Registries" help:"List, add, remove or export registries."`
	Catalog   catalogCmd   `cmd:"" group:"Agents" help:"Build and check skills-catalog.json; search, read and list the available skills."`
	MCP       mcpCmd       `cmd:"" name:"mcp" group:"Agents" help:"Serve the catalog to agents over MCP (stdio), or print a host's registration."`
	Hook      hookCmd      `cmd:"" group:"Agents" help:"Session-start hooks: print the skill index in a host's format, print or verify its registration."`
}

// env is what a command needs from the outside world. Commands receive it
// instead of reaching for os.* so that they stay testable.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	cwd    string
	style  style
	g      *globals
	// http bounds every download (see httpTimeoutsFrom).
	http registry.HTTPTimeouts
}

// info prints a progress or summary line unless --quiet was given.
func (e *env) info(format string, args ...any) {
	if !e.g.Quiet {
		fmt.Fprintf(e.stderr, format+"\n", args...)
	}
}

// note prints a notice (a registry skipped, a cache used) unless --quiet.
func (e *env) note(format string, args ...any) {
	if !e.g.Quiet {
		fmt.Fprintf(e.stderr, "%s %s\n", e.style.dim("note:"), fmt.Sprintf(format, args...))
	}
}

// verbose prints a line only with --verbose.
func (e *env) verbose(format string, args ...any) {
	if e.g.Verbose && !e.g.Quiet {
		fmt.Fprintf(e.stderr, format+"\n", args...)
	}
}

// warn prints a warning line unless --quiet was given.
func (e *env) warn(format string, args ...any) {
	if !e.g.Quiet {
		fmt.Fprintf(e.stderr, "%s %s\n", e.style.yellow("warning:"), fmt.Sprintf(format, args...))
	}
}

// exitSignal carries a kong-requested exit (after --help or --version)
// through a panic, so that Main returns instead of ending the process.
type exitSignal struct{ code int }

// Main runs agent-skills with args (without the program name) and returns
// the process exit code. It is the only place that maps errors to exit codes.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if os.Getenv("GOGC") == "" {
		// A command lives for milliseconds and allocates little that
		// survives: collecting garbage less often is nearly half of the
		// time of a large resolution. Long-running servers reset this.
		debug.SetGCPercent(400)
	}
	ctx, stop := interruptible(context.Background())
	defer stop()
	return run(ctx, args, stdin, stdout, stderr, os.Getenv)
}

func run(ctx context.Context, args []string, stdin io.Reader, rawStdout, rawStderr io.Writer, getenv func(string) string) (code int) {
	var cli app
	st := style{color: wantColor(rawStdout, getenv, args)}
	// Every byte printed passes the terminal backstop: untrusted text that
	// a call site forgot to escape still cannot send the terminal a
	// control sequence, and no URL password is printed. The flushes run
	// before the recover below, on every way out.
	stdout, stderr := guard(rawStdout, st), guard(rawStderr, st)
	defer stderr.Flush()
	defer stdout.Flush()
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
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { panic(exitSignal{c}) }),
		kong.Vars{"version": "agent-skills " + versionString()},
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
	)
	if err != nil {
		renderError(stderr, &Error{Code: "ASK_INTERNAL", Summary: "building the command line", Err: err}, st)
		return exitFailure
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		var pe *kong.ParseError
		summary := err.Error()
		if errors.As(err, &pe) && pe.Context != nil && pe.Context.Selected() != nil {
			summary = fmt.Sprintf("%s (agent-skills %s)", summary, pe.Context.Command())
		}
		renderError(stderr, &Error{Code: "ASK_USAGE", Summary: summary,
			Try: []string{helpHint(args)}}, st)
		return exitUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		renderError(stderr, &Error{Code: "ASK_IO", Summary: "cannot read the current directory", Err: err}, st)
		return exitFailure
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, cwd: cwd, style: st, g: &cli.globals}
	var warning string
	e.http, warning = httpTimeoutsFrom(getenv)
	if warning != "" {
		e.warn("%s", warning)
	}
	if err := kctx.Run(e); err != nil {
		if ctx.Err() != nil {
			err = interrupted(ctx)
		}
		renderError(stderr, err, st)
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

// wantColor decides whether to colour output: only on a terminal, never with
// NO_COLOR, TERM=dumb or --no-color.
func wantColor(w io.Writer, getenv func(string) string, args []string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" || getenv("CI") != "" {
		return false
	}
	for _, a := range args {
		if a == "--no-color" || a == "--json" {
			return false
		}
	}
	return isTerminal(w)
}

// guard wraps w in the terminal backstop: everything is escaped except
// the colour sequences st writes, and URL passwords are masked.
func guard(w io.Writer, st style) *termtext.Writer {
	return termtext.NewWriter(w, termtext.Options{Allow: st.sequences(), Filter: redact.Text})
}

// unwrapped returns the writer beneath the terminal backstop, or w.
func unwrapped(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}

// raw returns a writer that bypasses the terminal backstop of w, for a
// protocol stream or a line the caller escaped itself.
func raw(w io.Writer) io.Writer {
	if g, ok := w.(*termtext.Writer); ok {
		return g.Raw()
	}
	return w
}

// flush writes out what the terminal backstops hold back of an
// unfinished line: call it before waiting for input after a prompt.
func (e *env) flush() {
	for _, w := range []io.Writer{e.stdout, e.stderr} {
		if g, ok := w.(*termtext.Writer); ok {
			_ = g.Flush()
		}
	}
}

// isTerminal reports whether w (beneath the terminal backstop) is a
// character device.
func isTerminal(w io.Writer) bool {
	f, ok := unwrapped(w).(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// versionString returns Version plus the VCS revision the binary was built
// from, when the build recorded one.
func versionString() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
	}
	return v
}

// printJSON writes v to standard output as indented JSON with a trailing
// new line: the --json form of every command.
func (e *env) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return &Error{Code: "ASK_INTERNAL", Summary: "cannot encode the result as JSON", Err: err}
	}
	// The same values, with the characters a terminal acts on written as
	// \u escapes, so the backstop has nothing to change.
	_, err = fmt.Fprintf(e.stdout, "%s\n", termtext.JSON(b))
	return err
}
