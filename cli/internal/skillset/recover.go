package skillset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file finishes what an interrupted run left: the run journal of a
// command killed while it changed the agent folders and skills.lock.

// pendingJournal reads the journal an interrupted run left for the
// project of sc; nil when there is none (and always in global scope,
// which has no skills.lock).
func pendingJournal(ws *workspace.Machine, sc workspace.Scope) (*journal, error) {
	if !sc.Project() || sc.Root == "" {
		return nil, nil
	}
	return readJournal(JournalPath(ws, sc), sc.Root, ws.Table())
}

// settleJournal makes skills.lock record what the roots of j's agents
// hold for the names j journals (see settle), after install.Recover has
// settled each root's own transactions; the caller then removes the
// journal and holds the run lock. With write false nothing is recovered
// or written — install.Scan resolves pending receipts in memory — and the
// result is only the lock the next run would record: for dry runs, list
// and doctor.
func (p *op) settleJournal(ctx context.Context, j *journal, write bool) (settled, error) {
	s := p.Session
	out, err := settleJournal(ctx, s.ws, s.Scope, s.Env, j, write, p.memo)
	if err != nil || !write {
		return out, err
	}
	if p.memo != nil {
		// Settling read the receipts the run wrote; what the command does
		// next (writing the lock, an update's pruning) does not need them
		// kept, and a later scan reads them afresh.
		p.memo.Forget()
	}
	if out.changed {
		if err := s.writeLock(s.Scope.LockPath(), out.lock); err != nil {
			return out, err
		}
	}
	return out, s.fault(PointLockWritten)
}

// settleJournal computes the settled lock of j without writing it (see
// op.settleJournal); with write it recovers the roots first. memo, when
// the caller holds the run lock, carries what earlier calls of the same
// command read and wrote of the receipts (see install.Memo): settling
// right after an install reads back none of the receipts it just wrote.
func settleJournal(ctx context.Context, ws *workspace.Machine, sc workspace.Scope, env agents.Env, j *journal, write bool, memo *install.Memo) (settled, error) {
	adapters, err := ws.Table().Select(j.Agents)
	if err != nil {
		return settled{}, journalInvalid(JournalPath(ws, sc), err.Error())
	}
	opts := install.Options{Scope: agents.ScopeProject, Env: env, Agents: adapters, Memo: memo}
	if write {
		if err := install.Recover(ctx, opts); err != nil {
			return settled{}, err
		}
	}
	// settle reads what the receipts say, never the files' contents, and
	// keeps a few bits of each package as the scan finds it (settler).
	opts.ReceiptsOnly = true
	s := newSettler(j)
	if err := install.ScanEach(ctx, opts, func(in install.Installed) error {
		s.add(in)
		return nil
	}); err != nil {
		return settled{}, err
	}
	l, err := ReadLock(sc.LockPath())
	if err != nil {
		return settled{}, err
	}
	return s.settle(l), nil
}

// Interrupted is what an interrupted install, update or uninstall left
// in a project, as a read-only command (list, doctor) reports it.
type Interrupted struct {
	// Command names the interrupted command, e.g. `agent-skills uninstall a b`.
	Command string
	// Started is when it started (UTC, RFC 3339).
	Started string
	// Rerun is the command line that finishes it.
	Rerun string
	// Lock is the lock the next install, update or uninstall records
	// before anything else; Changed says it differs from skills.lock.
	Lock    *resolve.Lock
	Changed bool
	// Diff says, skill by skill, how Lock differs from skills.lock.
	Diff []string
	// Partial are the names whose change is not complete in every agent
	// folder: running Rerun finishes them.
	Partial []string
}

// PendingRun reports the run journal an interrupted command left in the
// project of sc, as the agents of env see it; nil when there is none. It
// writes nothing. A journal that cannot be used is ASK_JOURNAL_INVALID.
func PendingRun(ctx context.Context, ws *workspace.Machine, sc workspace.Scope, env agents.Env) (*Interrupted, error) {
	j, err := pendingJournal(ws, sc)
	if err != nil || j == nil {
		return nil, err
	}
	out, err := settleJournal(ctx, ws, sc, env, j, false, nil)
	if err != nil {
		return nil, err
	}
	cur, err := ReadLock(sc.LockPath())
	if err != nil {
		return nil, err
	}
	return &Interrupted{Command: j.String(), Started: j.Started, Rerun: j.rerun(), Lock: out.lock, Changed: out.changed,
		Diff: lockDiff(cur, out.lock), Partial: out.partial}, nil
}

// finishInterrupted settles the journal an interrupted run left, so that
// skills.lock records what the roots hold before this command reads it.
// Unless dryRun the caller holds the run lock; with dryRun nothing is
// written and p.lock becomes the lock the next run will record. It
// returns the journal it found, nil when there was none.
func (p *op) finishInterrupted(dryRun bool) (*journal, error) {
	j, err := pendingJournal(p.ws, p.Scope)
	if err != nil || j == nil {
		return nil, err
	}
	out, err := p.settleJournal(p.ctx, j, !dryRun)
	if err != nil {
		return j, err
	}
	if !dryRun {
		if err := p.retireJournal(j); err != nil {
			return j, err
		}
	}
	p.lock = out.lock
	if again := p.command == j.Command && slices.Equal(p.requested, j.Requested); again && !dryRun {
		p.note("finishing the interrupted %q (started %s)", j.String(), j.Started)
	} else {
		p.reportInterrupted(j, out, dryRun)
	}
	return j, nil
}

// recoverFirst is finishInterrupted for a command that plans on the lock
// before it takes the run lock to apply: it takes the run lock only when
// a journal is there.
func (p *op) recoverFirst(dryRun bool) error {
	if j, err := pendingJournal(p.ws, p.Scope); err != nil || j == nil {
		return err
	}
	if dryRun {
		_, err := p.finishInterrupted(true)
		return err
	}
	return p.withRunLock(func() error {
		_, err := p.finishInterrupted(false)
		return err
	})
}

// journalled runs change, which changes the agent roots, between making j
// durable and settling skills.lock by it; the lock is settled whatever
// change returns, so that a failure and a kill end the same way. The
// caller holds the run lock. Outside project scope, and for an empty
// journal, change just runs.
func (p *op) journalled(j *journal, change func() error) error {
	if !p.Scope.Project() || j == nil || j.empty() {
		return change()
	}
	if err := writeJournal(p.journalPath(), j); err != nil {
		return err
	}
	err := p.fault(PointJournalWritten)
	if err == nil {
		err = change()
	}
	// Settled even when the run was interrupted (SIGINT): the lock must
	// follow whatever the roots hold, and this takes a moment only.
	out, serr := p.settleJournal(context.WithoutCancel(p.ctx), j, true)
	if serr == nil {
		serr = removeJournal(p.journalPath())
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
func (p *op) retireJournal(j *journal) error {
	path := p.journalPath()
	if len(j.names(changeRemove)) == 0 {
		return removeJournal(path)
	}
	if err := os.Rename(path, p.donePath()); err != nil {
		return askerr.IO("cannot retire the run journal "+path, err)
	}
	return nil
}

// doneJournal reads the done record of the project; nil when there is
// none or it cannot be used, since it only spares an error.
func (p *op) doneJournal() *journal {
	if !p.Scope.Project() || p.Scope.Root == "" {
		return nil
	}
	j, err := readJournal(p.donePath(), p.Scope.Root, p.ws.Table())
	if err != nil {
		return nil
	}
	return j
}

// reportInterrupted says what settling an interrupted run's journal did.
func (p *op) reportInterrupted(j *journal, out settled, dryRun bool) {
	what := fmt.Sprintf("%q (started %s)", j.String(), j.Started)
	switch {
	case dryRun:
		p.warn("an interrupted %s is not recorded in skills.lock yet; this shows what the next install, update or uninstall will record first", what)
	case len(out.partial) == 0 && !out.changed:
		// A run refused before it changed anything (or one killed after
		// it wrote the lock) leaves a journal too: nothing to record, and
		// the note must not claim otherwise.
		p.note("skills.lock already records what the interrupted %s had done", what)
	case len(out.partial) == 0:
		p.note("recorded in skills.lock what the interrupted %s had done", what)
	default:
		var parts []string
		if names := filterChange(j, out.partial, changeRemove); len(names) > 0 {
			parts = append(parts, "still installed: "+nameList(names))
		}
		if names := filterChange(j, out.partial, changeInstall); len(names) > 0 {
			parts = append(parts, "not moved everywhere: "+nameList(names))
		}
		p.warn("the interrupted %s was done only in part (%s); skills.lock now records what the agent folders hold. To finish it: %s",
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

// lockDiff says how lock b differs from lock a, skill by skill.
func lockDiff(a, b *resolve.Lock) []string {
	skills := func(l *resolve.Lock) map[string]resolve.LockedSkill {
		if l == nil {
			return nil
		}
		return l.Skills
	}
	as, bs := skills(a), skills(b)
	var gone, added, moved, agentsChanged []string
	for _, n := range slices.Sorted(maps.Keys(as)) {
		x := as[n]
		y, ok := bs[n]
		switch {
		case !ok:
			gone = append(gone, n)
		case x.Version != y.Version:
			moved = append(moved, fmt.Sprintf("%s %s → %s", n, x.Version, y.Version))
		case !slices.Equal(sortedAgents(x.Agents), sortedAgents(y.Agents)):
			agentsChanged = append(agentsChanged, fmt.Sprintf("%s [%s] → [%s]", n, strings.Join(sortedAgents(x.Agents), ", "), strings.Join(sortedAgents(y.Agents), ", ")))
		}
	}
	for _, n := range slices.Sorted(maps.Keys(bs)) {
		if _, ok := as[n]; !ok {
			added = append(added, n)
		}
	}
	var out []string
	if len(gone) > 0 {
		out = append(out, "locked but removed: "+nameList(gone))
	}
	if len(added) > 0 {
		out = append(out, "installed but not locked: "+nameList(added))
	}
	if len(moved) > 0 {
		out = append(out, "at another version: "+strings.Join(moved, ", "))
	}
	if len(agentsChanged) > 0 {
		out = append(out, "agents: "+strings.Join(agentsChanged, ", "))
	}
	if len(out) == 0 {
		out = append(out, "dependency versions differ")
	}
	return out
}
