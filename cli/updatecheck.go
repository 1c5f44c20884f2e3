package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/notify"
	"github.com/agent-skills/agent-skills/cli/internal/releases"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/registry"
)

// cliName is the name the CLI's own releases are dismissed and reminded
// under in updates.json.
const cliName = "agent-skills"

// checkUpdates runs the update notifier before the selected command
// (design §8): when the command is eligible, it looks up the CLI's
// newest release (updates.json reused for 24 hours) and, for commands
// that check skills too, the releases of the skills installed from
// registries (skillnotice.go), and asks on the terminal what to do about
// each release not dismissed or put off. It is advisory: a failed lookup
// prints at most a --verbose line and never changes the command's
// result. done means the CLI updated itself, and the process exits with
// code before the command.
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
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		e.Verbose("update check skipped: %v", err)
		return false, 0
	}
	now := time.Now().UTC()
	path := notify.StorePath(e.ws.Home())
	store := notify.Load(path)
	// The CLI's releases and the registries are looked up side by side,
	// each within notify.LookupTimeout; the store is changed only here,
	// once every lookup is back.
	var newest *releases.Release
	var cliCheck *notify.CLICheck
	var skills *skillLookups
	var wg sync.WaitGroup
	wg.Go(func() { newest, cliCheck = e.cliRelease(store, cfg, now) })
	if scope == notify.All {
		wg.Go(func() { skills = e.skillReleases(store, cfg, now) })
	}
	wg.Wait()
	changed := cliCheck != nil
	if cliCheck != nil {
		store.CLI = cliCheck
		if cliCheck.Failed != "" {
			e.Verbose("update check: cannot look up the releases at %s: %s", ui.Field(cliCheck.URL), ui.Field(cliCheck.Failed))
		}
	}
	if skills != nil {
		for _, c := range skills.checks {
			store.PutRegistry(c)
			changed = true
		}
	}
	if changed {
		e.saveStore(store, path, now)
	}
	// ^D at one prompt ends the input for every later one too: a
	// terminal would otherwise read on after its end of file.
	in := bufio.NewReader(&endOnce{r: e.stdin})
	if newest != nil {
		if done := e.offerCLI(in, store, path, *newest, now); done {
			return true, exitOK
		}
	}
	if skills != nil {
		e.offerSkills(in, store, path, skills.notices(store, now), now)
	}
	return false, 0
}

// offerCLI shows the CLI's newest release, unless dismissed or put off,
// and does what the user answers. done means the CLI updated itself.
func (e *env) offerCLI(in *bufio.Reader, store *notify.Store, path string, newest releases.Release, now time.Time) (done bool) {
	rel := notify.Release{Name: cliName, Version: newest.Version}
	if store.Hidden(rel, now) {
		return false
	}
	line := "agent-skills " + ui.Field(newest.Version) + " is available (this is " + ui.Field(release()) + ")"
	if newest.Date != "" {
		line += ", released " + ui.Field(newest.Date)
	}
	e.Info("%s", line)
	if newest.Notes != "" {
		e.Info("  %s", ui.Field(newest.Notes))
	}
	e.Info("  %s", notify.CLIMenu(ui.Field(newest.Version)))
	switch notify.ParseChoice(e.ask(in, choicePrompt), false) {
	case notify.Update:
		updated, err := selfUpdate(e, newest)
		if err != nil {
			// The user asked for it: say why it failed, then run the
			// command they asked for as if nothing had been offered.
			e.Error(err)
			return false
		}
		return updated
	case notify.Remind:
		store.Remind(rel, now)
		e.saveStore(store, path, now)
		e.Info("agent-skills %s: reminding you in 24 hours", ui.Field(newest.Version))
	case notify.Dismiss:
		store.Dismiss(rel)
		e.saveStore(store, path, now)
		e.Info("agent-skills %s dismissed; you will be told of the next release", ui.Field(newest.Version))
	}
	return false
}

// cliRelease returns the CLI's newest release newer than this one, from
// updates.json when its lookup is fresh, else from the releases document;
// check is the new lookup for the store to keep (nil: none made). A
// failure is no release, and is kept too (notify.FailureTTL). It runs
// beside skillReleases and prints nothing.
func (e *env) cliRelease(store *notify.Store, cfg *config.Config, now time.Time) (newest *releases.Release, check *notify.CLICheck) {
	u := releases.URL(e.ws.Getenv, cfg)
	if c := store.FreshCLI(u, release(), now); c != nil {
		return c.Newest, nil
	}
	ctx, cancel := context.WithTimeout(e.ctx, notify.LookupTimeout)
	defer cancel()
	client := registry.NewHTTPClient(registry.HTTPOptions{Timeouts: e.ws.HTTP})
	defer client.CloseIdleConnections()
	check = &notify.CLICheck{URL: u, Current: release(), CheckedAt: now}
	doc, err := releases.Fetch(ctx, client, u)
	if err != nil {
		check.Failed = firstLine(err.Error())
		return nil, check
	}
	if r, ok := doc.Newest(release()); ok {
		check.Newest = &r
	}
	return check.Newest, check
}

// saveStore writes updates.json; a failure is a --verbose line.
func (e *env) saveStore(store *notify.Store, path string, now time.Time) {
	if err := store.Save(path, now); err != nil {
		e.Verbose("update check: cannot write %s: %v", e.Rel(path), err)
	}
}

// endOnce reads from r until its first error, then returns that error
// for ever after, as a file does at its end and a terminal does not.
type endOnce struct {
	r   io.Reader
	err error
}

func (o *endOnce) Read(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.r.Read(p)
	o.err = err
	return n, err
}

// choicePrompt ends every notice: Enter (or end of input) runs the command.
const choicePrompt = "Choice (Enter to continue):"

// ask puts question on stderr and reads the answer typed after it, on
// the same line, as a shell's read -p does.
func (e *env) ask(in *bufio.Reader, question string) string {
	fmt.Fprint(e.Err, question+" ")
	e.Flush() // the question has no new line; show it before waiting
	answer, ended := notify.ReadAnswer(in)
	if ended {
		fmt.Fprintln(e.Err) // ^D: what follows starts on a line of its own
	}
	return answer
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

// firstLine is the first line of s, for a one-line record of a failure.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
