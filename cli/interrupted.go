package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// pendingJournal reads the journal an interrupted run left for the
// project of sc; nil when there is none (and always in global scope,
// which has no skills.lock).
func (e *env) pendingJournal(sc workspace.Scope) (*journal, error) {
	if sc.Kind != agents.ScopeProject || sc.Root == "" {
		return nil, nil
	}
	return readJournal(e.journalPath(sc), sc.Root)
}

// settleJournal makes skills.lock record what the roots of j's agents
// hold for the names j journals (see settle), after install.Recover has
// settled each root's own transactions; the caller then removes the
// journal. The caller holds the run lock. With write false nothing is recovered or
// written — install.Scan resolves pending receipts in memory — and the
// result is only the lock the next run would record: for dry runs, list
// and doctor.
func (e *env) settleJournal(ctx context.Context, aenv agents.Env, sc workspace.Scope, j *journal, write bool) (settled, error) {
	adapters, err := agents.Default().Select(j.Agents)
	if err != nil {
		return settled{}, journalInvalid(e.journalPath(sc), err.Error())
	}
	opts := install.Options{Scope: agents.ScopeProject, Env: aenv, Agents: adapters}
	if write {
		if err := install.Recover(ctx, opts); err != nil {
			return settled{}, err
		}
	}
	found, err := install.Scan(ctx, opts)
	if err != nil {
		return settled{}, err
	}
	l, err := readLock(sc.LockPath())
	if err != nil {
		return settled{}, err
	}
	out := settle(l, j, found)
	if !write {
		return out, nil
	}
	if out.changed {
		if err := writeLock(sc.LockPath(), out.lock); err != nil {
			return out, err
		}
	}
	return out, e.fault(pointLockWritten)
}

// finishInterrupted settles the journal an interrupted run left, so that
// skills.lock records what the roots hold before this command reads it.
// Unless dryRun the caller holds the run lock; with dryRun nothing is
// written and p.lock becomes the lock the next run will record. It
// returns the journal it found, nil when there was none.
func (p *pipeline) finishInterrupted(dryRun bool) (*journal, error) {
	j, err := p.e.pendingJournal(p.sc)
	if err != nil || j == nil {
		return nil, err
	}
	out, err := p.e.settleJournal(p.e.ctx, p.aenv, p.sc, j, !dryRun)
	if err != nil {
		return j, err
	}
	if !dryRun {
		if err := p.e.retireJournal(p.sc, j); err != nil {
			return j, err
		}
	}
	p.lock = out.lock
	if again := p.command == j.Command && slices.Equal(p.requested, j.Requested); again && !dryRun {
		p.e.Note("finishing the interrupted %q (started %s)", j.String(), j.Started)
	} else {
		p.e.reportInterrupted(j, out, dryRun)
	}
	return j, nil
}

// recoverFirst is finishInterrupted for a command that plans on the lock
// before it takes the run lock to apply: it takes the run lock only when
// a journal is there.
func (p *pipeline) recoverFirst(dryRun bool) error {
	if j, err := p.e.pendingJournal(p.sc); err != nil || j == nil {
		return err
	}
	if dryRun {
		_, err := p.finishInterrupted(true)
		return err
	}
	return install.WithLock(p.e.ctx, p.e.runLockPath(p.sc), func() error {
		_, err := p.finishInterrupted(false)
		return err
	})
}

// journalled runs change, which changes the agent roots, between making j
// durable and settling skills.lock by it; the lock is settled whatever
// change returns, so that a failure and a kill end the same way. The
// caller holds the run lock. Outside project scope, and for an empty
// journal, change just runs.
func (p *pipeline) journalled(j *journal, change func() error) error {
	if p.sc.Kind != agents.ScopeProject || j == nil || j.empty() {
		return change()
	}
	if err := writeJournal(p.e.journalPath(p.sc), j); err != nil {
		return err
	}
	err := p.e.fault(pointJournalWritten)
	if err == nil {
		err = change()
	}
	// Settled even when the run was interrupted (SIGINT): the lock must
	// follow whatever the roots hold, and this takes a moment only.
	out, serr := p.e.settleJournal(context.WithoutCancel(p.e.ctx), p.aenv, p.sc, j, true)
	if serr == nil {
		serr = removeJournal(p.e.journalPath(p.sc))
	}
	if serr != nil {
		return errors.Join(err, serr)
	}
	p.lock = out.lock
	return err
}

// retireJournal removes the journal of an interrupted run that another
// command settled. One that removed skills is kept as the done record
// (see donePath) instead, replacing any older one, so that running the
// interrupted uninstall again finishes it rather than stopping at the
// names it had already removed.
func (e *env) retireJournal(sc workspace.Scope, j *journal) error {
	path := e.journalPath(sc)
	if len(j.names(changeRemove)) == 0 {
		return removeJournal(path)
	}
	if err := os.Rename(path, e.donePath(sc)); err != nil {
		return &askerr.Error{Code: "ASK_IO", Message: "cannot retire the run journal " + path, Err: err}
	}
	return nil
}

// doneJournal reads the done record of the project of sc; nil when there
// is none or it cannot be used, since it only spares an error.
func (e *env) doneJournal(sc workspace.Scope) *journal {
	if sc.Kind != agents.ScopeProject || sc.Root == "" {
		return nil
	}
	j, err := readJournal(e.donePath(sc), sc.Root)
	if err != nil {
		return nil
	}
	return j
}

// reportInterrupted says what settling an interrupted run's journal did.
func (e *env) reportInterrupted(j *journal, out settled, dryRun bool) {
	what := fmt.Sprintf("%q (started %s)", j.String(), j.Started)
	switch {
	case dryRun:
		e.Warn("an interrupted %s is not recorded in skills.lock yet; this shows what the next install, update or uninstall will record first", what)
	case len(out.partial) == 0:
		e.Note("recorded in skills.lock what the interrupted %s had done", what)
	default:
		var parts []string
		if names := filterChange(j, out.partial, changeRemove); len(names) > 0 {
			parts = append(parts, "still installed: "+nameList(names))
		}
		if names := filterChange(j, out.partial, changeInstall); len(names) > 0 {
			parts = append(parts, "not moved everywhere: "+nameList(names))
		}
		e.Warn("the interrupted %s was done only in part (%s); skills.lock now records what the agent folders hold. To finish it: %s",
			what, strings.Join(parts, "; "), j.rerun())
	}
}

// filterChange returns the names among names that j journals as change.
func filterChange(j *journal, names []string, change string) []string {
	var out []string
	for _, n := range names {
		if j.Skills[n].Change == change {
			out = append(out, n)
		}
	}
	return out
}
