package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/hooks"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

type hookCmd struct {
	SessionIndex hookSessionIndexCmd `cmd:"" name:"session-index" help:"Print a bounded overview of the installed skills in a host's SessionStart hook format."`
	Observe      hookObserveCmd      `cmd:"" help:"Record a host's read of an installed skill's file in the evidence store (a post-tool hook)."`
	Config       hookConfigCmd       `cmd:"" help:"Print the hook registration snippet for a host's settings file."`
	Verify       hookVerifyCmd       `cmd:"" help:"Check that a settings file holds the hook registration exactly."`
}

// hookTimeout bounds a session-index run, well under every host's hook
// timeout (Claude Code and Codex: 60 s by default, Copilot CLI: 30 s).
const hookTimeout = 2 * time.Second

type hookSessionIndexCmd struct {
	Host       string `required:"" help:"The host running the hook: claude, codex, copilot or gemini."`
	MaxEntries int    `default:"50" help:"List at most this many skills (1-500)."`
	MaxBytes   int    `default:"8000" help:"Keep the context under this many bytes (512-9000; Claude Code caps it at 10,000 characters)."`
}

func (c *hookSessionIndexCmd) Help() string {
	return `Run by the host at session start: prints, in the host's output format, the names and
one-line descriptions of the skills installed in the project and globally, capped in
count and bytes. It never blocks the agent: on any failure it prints one line on
stderr, the host's neutral output on stdout, and exits 0; it gives up after 2 seconds.

Examples:
  agent-skills hook session-index --host claude
  agent-skills hook session-index --host codex --max-entries 20`
}

func (c *hookSessionIndexCmd) Run(e *env) error {
	h, err := hooks.ParseHost(c.Host)
	if err != nil {
		fmt.Fprintf(e.Err, "agent-skills hook: %v\n", err)
		fmt.Fprint(e.Out, "{}\n")
		return nil
	}
	fail := func(err error) error {
		msg := ui.OneLine(err.Error())
		if c := askerr.CodeOf(err); c != askerr.CodeInternal {
			msg += " (" + c + ")"
		}
		fmt.Fprintf(e.Err, "agent-skills hook session-index: %s\n", msg)
		_, _ = e.Out.Write(hooks.Neutral(h))
		return nil
	}
	if c.MaxEntries < 1 || c.MaxEntries > 500 || c.MaxBytes < 512 || c.MaxBytes > 9000 {
		return fail(askerr.Usage("--max-entries must be 1-500 and --max-bytes 512-9000"))
	}
	ctx, cancel := context.WithTimeout(e.ctx, hookTimeout)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("internal error: %v", r)}
			}
		}()
		text, err := c.index(e.withContext(ctx))
		done <- result{text, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return fail(r.err)
		}
		if r.text == "" {
			_, _ = e.Out.Write(hooks.Neutral(h))
			return nil
		}
		_, _ = e.Out.Write(termtext.JSON(hooks.Envelope(h, r.text)))
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fail(errors.New("gave up after " + hookTimeout.String()))
		}
		return fail(ctx.Err())
	}
	return nil
}

// index renders the overview of the installed skills, "" when none is.
func (c *hookSessionIndexCmd) index(e *env) (string, error) {
	cfg, root, err := e.ws.ConfigAndProject("")
	if err != nil {
		return "", err
	}
	skills, err := e.scanInstalled(e.catalogRoots(cfg, root), false)
	if err != nil {
		return "", err
	}
	if len(skills) == 0 {
		return "", nil
	}
	ov := catalog.BuildOverview(skills, catalog.OverviewOptions{MaxEntries: c.MaxEntries, MaxBytes: c.MaxBytes})
	return ov.Text, nil
}

// withContext returns a copy of e that runs under ctx and prints no notes,
// for work that must stay quiet and bounded (hooks, MCP tools).
func (e *env) withContext(ctx context.Context) *env {
	c := *e
	c.Printer = e.Printer.Quieted()
	ws := *e.ws
	ws.Notify = nil
	c.ws = &ws
	c.ctx = ctx
	return &c
}

type hookConfigCmd struct {
	Host  string `required:"" enum:"claude,codex,copilot,gemini" help:"The host: claude, codex, copilot or gemini."`
	Reads bool   `help:"The read hook (hook observe) instead of the session-index hook."`
	JSON  bool   `name:"json" help:"Print the registration with its files and notes as JSON."`
}

func (c *hookConfigCmd) Help() string {
	return `Prints the JSON to merge into the host's settings file so that it runs
"agent-skills hook session-index" at session start; where the file lives is printed
on stderr. See docs/catalog.md for each host's format and its source. With --reads it
prints the read hook ("agent-skills hook observe") instead: see docs/evidence-hooks.md.

Examples:
  agent-skills hook config --host claude
  agent-skills hook config --host gemini --reads
  agent-skills hook config --host copilot > ~/.copilot/hooks/agent-skills.json`
}

func (c *hookConfigCmd) Run(e *env) error {
	h, err := hooks.ParseHost(c.Host)
	if err != nil {
		return askerr.Usage("%v", err)
	}
	reg := hooks.Config(h)
	if c.Reads {
		reg = hooks.ReadConfig(h)
	}
	if c.JSON {
		return e.JSON(reg)
	}
	e.Info("add to %s:", strings.Join(reg.Files, " or "))
	if reg.Note != "" {
		e.Note("%s", reg.Note)
	}
	fmt.Fprintf(e.Out, "%s\n", reg.Snippet)
	return nil
}

type hookVerifyCmd struct {
	Host  string `required:"" enum:"claude,codex,copilot,gemini" help:"The host: claude, codex, copilot or gemini."`
	File  string `required:"" type:"path" help:"The settings file to check."`
	Reads bool   `help:"Check the read hook (hook observe) instead of the session-index hook."`
}

func (c *hookVerifyCmd) Help() string {
	return `Exits 0 when the file registers the session-index hook exactly as "hook config"
prints it, else exits 3 (ASK_HOOK_NOT_CONFIGURED) naming every difference. With
--reads it checks the read hook ("hook observe") as "hook config --reads" prints it.

Examples:
  agent-skills hook verify --host claude --file .claude/settings.json
  agent-skills hook verify --host claude --reads --file .claude/settings.json`
}

func (c *hookVerifyCmd) Run(e *env) error {
	h, err := hooks.ParseHost(c.Host)
	if err != nil {
		return askerr.Usage("%v", err)
	}
	data, err := os.ReadFile(c.File)
	if err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot read " + e.Rel(c.File), Err: err,
			Try: []string{"agent-skills hook config --host " + c.Host + "   prints what the file needs"}}
	}
	verify, what, flag := hooks.Verify, "session-index", ""
	if c.Reads {
		verify, what, flag = hooks.VerifyRead, "read (hook observe)", " --reads"
	}
	if diffs := verify(h, data); len(diffs) > 0 {
		return &askerr.Error{Code: CodeHookNotConfigured,
			Message: fmt.Sprintf("%s does not register the agent-skills %s hook for %s", e.Rel(c.File), what, c.Host),
			Detail:  diffs,
			Try:     []string{"agent-skills hook config --host " + c.Host + flag + "   and merge its output into " + e.Rel(c.File)}}
	}
	e.Info("%s registers the %s hook for %s", e.Rel(c.File), what, c.Host)
	return nil
}
