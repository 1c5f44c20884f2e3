package cli

import (
	"bufio"
	"context"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-skills/agent-skills/cli/internal/notify"
	"github.com/agent-skills/agent-skills/cli/internal/releases"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/registry"
)

// cliName is the name the CLI's own releases are dismissed and reminded
// under in updates.json.
const cliName = "agent-skills"

// checkUpdates runs the update notifier before the selected command
// (design §8): when the command is eligible, it looks the CLI's newest
// release up (updates.json reused for 24 hours), and asks on the
// terminal what to do about one not dismissed or reminded later. It is
// advisory: a failed lookup prints at most a --verbose line and never
// changes the command's result. done means the CLI updated itself, and
// the process exits with code before the command.
func (e *env) checkUpdates(kctx *kong.Context) (done bool, code int) {
	scope, why := notify.Eligible(notify.Input{
		Command:   kctx.Command(),
		Flags:     setFlags(kctx),
		Getenv:    e.ws.Getenv,
		StdinTTY:  e.stdinIsTerminal(),
		StdoutTTY: e.OutIsTerminal(),
		StderrTTY: e.ErrIsTerminal(),
	})
	if scope == notify.None {
		if why != "" && e.g.Verbose && why != "no command" {
			e.Verbose("update check skipped: %s", ui.Field(why))
		}
		return false, 0
	}
	now := time.Now().UTC()
	path := notify.StorePath(e.ws.Home())
	store := notify.Load(path)
	ctx, cancel := context.WithTimeout(e.ctx, notify.LookupTimeout)
	defer cancel()
	newest, changed := e.cliRelease(ctx, store, now)
	if changed {
		e.saveStore(store, path, now)
	}
	if newest == nil {
		return false, 0
	}
	rel := notify.Release{Name: cliName, Version: newest.Version}
	if store.Hidden(rel, now) {
		return false, 0
	}
	in := bufio.NewReader(e.stdin)
	line := "agent-skills " + ui.Field(newest.Version) + " is available (this is " + ui.Field(release()) + ")"
	if newest.Date != "" {
		line += ", released " + ui.Field(newest.Date)
	}
	e.Info("%s", line)
	if newest.Notes != "" {
		e.Info("  %s", ui.Field(newest.Notes))
	}
	e.Info("  %s", notify.CLIMenu(ui.Field(newest.Version)))
	e.prompt()
	switch notify.ReadChoice(in, false) {
	case notify.Update:
		updated, err := selfUpdate(e, *newest)
		if err != nil {
			// The user asked for it: say why it failed, then run the
			// command they asked for as if nothing had been offered.
			e.Error(err)
			return false, 0
		}
		if updated {
			return true, exitOK
		}
	case notify.Remind:
		store.Remind(rel, now)
		e.saveStore(store, path, now)
		e.Info("agent-skills %s: reminding you in 24 hours", ui.Field(newest.Version))
	case notify.Dismiss:
		store.Dismiss(rel)
		e.saveStore(store, path, now)
		e.Info("agent-skills %s dismissed; you will be told of the next release", ui.Field(newest.Version))
	}
	return false, 0
}

// cliRelease returns the CLI's newest release newer than this one, from
// updates.json when its lookup is fresh, else from the releases document
// (changed then says the store has a new lookup to save). Any failure is
// no release.
func (e *env) cliRelease(ctx context.Context, store *notify.Store, now time.Time) (newest *releases.Release, changed bool) {
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		e.Verbose("update check skipped: %v", err)
		return nil, false
	}
	u := releases.URL(e.ws.Getenv, cfg)
	if c := store.FreshCLI(u, release(), now); c != nil {
		return c.Newest, false
	}
	client := registry.NewHTTPClient(registry.HTTPOptions{Timeouts: e.ws.HTTP})
	defer client.CloseIdleConnections()
	doc, err := releases.Fetch(ctx, client, u)
	if err != nil {
		e.Verbose("update check: cannot look up the releases at %s: %v", ui.Field(u), err)
		return nil, false
	}
	check := &notify.CLICheck{URL: u, Current: release(), CheckedAt: now}
	if r, ok := doc.Newest(release()); ok {
		check.Newest = &r
	}
	store.CLI = check
	return check.Newest, true
}

// saveStore writes updates.json; a failure is a --verbose line.
func (e *env) saveStore(store *notify.Store, path string, now time.Time) {
	if err := store.Save(path, now); err != nil {
		e.Verbose("update check: cannot write %s: %v", e.Rel(path), err)
	}
}

// prompt asks for the answer on stderr.
func (e *env) prompt() {
	e.Info("%s", "Choice (Enter to continue):")
	e.Flush()
}

// setFlags lists the flags given a true or non-empty value on the
// command line, by name.
func setFlags(kctx *kong.Context) map[string]bool {
	set := map[string]bool{}
	for _, f := range kctx.Flags() {
		if !f.Set {
			continue
		}
		switch v := kctx.FlagValue(f).(type) {
		case bool:
			set[f.Name] = v
		default:
			set[f.Name] = true
		}
	}
	return set
}
