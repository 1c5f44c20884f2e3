package skillset

import (
	"context"
	"maps"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// apply installs the fetched packages under the run lock and records them
// in skills.lock (project scope). The roots change and the lock follows
// them under a run journal (see journalled), so that a run killed at any
// point leaves what the next run records; the packages go in dependencies
// first, so that a run cut short leaves no installed skill without what
// it needs. Each package goes in in the disabled state skills.lock (or, in
// global scope, its receipts) records for it (see wantedStates); a root
// that holds it in the other state is then switched in the same journal.
//
// An interrupt (p.ctx done) stops the run until install.Install commits;
// from then on the roots hold the new versions, and what is left —
// switching states, settling skills.lock, pruning — runs to the end with
// p.ctx no longer cancellable (see committed): the run succeeds, with a
// note when the interrupt came too late to stop it.
func (p *op) apply(fs []fetched, plan *resolve.Plan, force, dryRun bool) (_ *install.Report, err error) {
	interrupt := p.ctx
	defer func() {
		if err == nil && !dryRun && interrupt.Err() != nil {
			p.note("the interrupt came after the packages were in place: the %s finished", p.command)
		}
	}()
	order := dependenciesFirst(fs)
	opts := install.Options{Scope: p.Scope.Kind, Env: p.Env, Agents: p.Agents, Force: force, DryRun: dryRun,
		Hook: p.opts.Fault, Release: true}
	var rep *install.Report
	var states map[string]bool
	put := func() error {
		agentVersions := needsAgentVersions(fs)
		items := make([]install.Item, len(order))
		for i, k := range order {
			// Install drops each decoded package once it is planned
			// (Options.Release); nothing after it needs them.
			items[i], fs[k].item.Pkg, fs[k].item.Load = fs[k].item, nil, nil
		}
		// Nothing after this reads fs but for the names the report is
		// sorted by: the list (300 bytes a package, 3 MB at 10,000) is let
		// go while Install holds the items, unless the caller keeps it.
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = f.name
		}
		fs = nil
		if opts.AgentVersions == nil && agentVersions {
			// compatibility.agents[].minVersion is checked against what
			// detection reads; only read when a package sets one.
			opts.AgentVersions = p.ws.AgentVersions(p.ctx, p.Agents, p.reports, p.Env)
		}
		var err error
		opts.Memo = p.memo
		rep, err = install.Install(p.ctx, items, opts)
		if rep != nil {
			sortResultsBy(rep, resultOrder(names))
		}
		if err != nil {
			refusedOnly(rep) // the transaction changed nothing
			return err
		}
		p.committed()
		p.out.addInstalledHere(p.noteBystanders(rep))
		p.noteCaveats(rep, p.out)
		return p.switchStates(rep, states, force, dryRun)
	}
	prepare := func() error {
		var err error
		if states, err = p.wantedStates(fs); err != nil {
			return err
		}
		for i := range fs {
			fs[i].item.Disabled = states[fs[i].name]
		}
		return nil
	}
	if dryRun {
		if err := prepare(); err != nil {
			return nil, err
		}
		if err := put(); err != nil || !p.prune {
			return rep, err
		}
		return rep, p.pruneOrphans(rep, plan, true)
	}
	err = p.underRunLock(func() error {
		if err := prepare(); err != nil {
			return err
		}
		if err := p.journalled(p.installJournal(fs, plan), put); err != nil {
			return err
		}
		if p.prune {
			return p.pruneOrphans(rep, plan, false)
		}
		return nil
	})
	return rep, err
}

// committed marks the commit point of a use case: its transaction is in
// the roots, and what is left keeps the receipts and skills.lock in step
// with them. An interrupt no longer stops it there (a scan cancelled
// half-way would fail the command after its work was done, and claim it
// had stopped before it finished), so p.ctx is not cancellable from then
// on; what is left works on local files only, and a second interrupt
// still ends the process (see cli's interruptible).
func (p *op) committed() {
	p.ctx = context.WithoutCancel(p.ctx)
}

// underRunLock runs fn holding the run lock of the scope, after finishing
// what an interrupted run left and reading skills.lock afresh.
func (p *op) underRunLock(fn func() error) error {
	return p.withRunLock(func() error {
		if _, err := p.finishInterrupted(false); err != nil {
			return err
		}
		var err error
		if p.lock, err = ReadLock(p.Scope.LockPath()); err != nil {
			return err
		}
		return fn()
	})
}

// withRunLock runs fn holding the project's run lock, with the Memo the
// calls under it share (see memoized).
func (p *op) withRunLock(fn func() error) error {
	return install.WithLock(p.ctx, p.runLockPath(), p.memoized(fn))
}

// lockedUnlessDry runs fn under the run lock (withRunLock), or as it is
// for a dry run, which writes nothing.
func (p *op) lockedUnlessDry(dryRun bool, fn func() error) error {
	if dryRun {
		return fn()
	}
	return p.withRunLock(fn)
}

// memoized runs fn, which the caller runs holding the run lock, with one
// install.Memo shared by every call fn makes of package install (through
// installOptions, apply and settleJournal): the receipts an install wrote
// are not read back to settle skills.lock. The Memo lives only while the
// lock is held.
func (p *op) memoized(fn func() error) func() error {
	return func() error {
		if p.memo != nil {
			return fn() // already under this command's run lock
		}
		p.memo = install.NewMemo()
		defer func() { p.memo = nil }()
		return fn()
	}
}

// installJournal is the journal of an install: for every fetched package
// its entry before and the entry it gets once in place, and for every
// locked skill that stays put the new versions of its dependencies. It
// is nil outside project scope.
func (p *op) installJournal(fs []fetched, plan *resolve.Plan) *journal {
	if !p.Scope.Project() {
		return nil
	}
	j := newJournal(p.command, p.requested, p.flags, p.Scope, p.Agents)
	j.Skills = make(map[string]journalSkill, len(fs)) // grown one by one, it is a fifth larger
	l := p.lock
	if l == nil {
		l = &resolve.Lock{Skills: map[string]resolve.LockedSkill{}}
	}
	for _, f := range fs {
		after := &lockEntry{Version: f.version, Registry: f.item.Registry, Resolved: f.item.Resolved,
			Integrity: f.item.Integrity, Dependencies: noDependencies,
			Source: f.source, Ref: f.ref, Commit: f.commit, Subpath: f.subpath, Disabled: f.item.Disabled}
		if len(f.deps) > 0 {
			after.Dependencies = maps.Clone(f.deps)
		}
		js := journalSkill{Change: changeInstall, After: after}
		if old, ok := l.Skills[f.name]; ok {
			js.Before = entryOf(old)
			// The same bytes installed earlier for other agents are still there.
			if old.Version == f.version && format.SameIntegrity(old.Integrity, f.item.Integrity) {
				after.Agents = slices.Clone(old.Agents)
			}
		}
		j.Skills[f.name] = js
	}
	// Skills that stay put may now depend on versions that move.
	if plan != nil {
		for _, sel := range plan.Skills {
			old, ok := l.Skills[sel.Name]
			if _, fetched := j.Skills[sel.Name]; fetched || !ok || old.Version != sel.Version {
				continue
			}
			deps := map[string]string{}
			for k, v := range sel.Dependencies {
				deps[k] = v
			}
			if maps.Equal(deps, old.Dependencies) {
				continue
			}
			after := entryOf(old)
			after.Dependencies = deps
			j.Skills[sel.Name] = journalSkill{Change: changeInstall, Before: entryOf(old), After: after}
		}
	}
	return j
}

// noDependencies is the Dependencies of every entry an install journals
// without any (encoded {}, as an empty map of its own was): one map, not
// one per package (half a megabyte of an install of 10,000, held until
// skills.lock is settled). Nothing writes to a journal's entries once
// made; lockEntry.locked copies the map.
var noDependencies = map[string]string{}

// removalJournal is the journal of removing names: each one's entry
// before. It is nil outside project scope.
func (p *op) removalJournal(names []string) *journal {
	if !p.Scope.Project() {
		return nil
	}
	j := newJournal(p.command, p.requested, p.flags, p.Scope, p.Agents)
	for _, n := range names {
		js := journalSkill{Change: changeRemove}
		if p.lock != nil {
			if old, ok := p.lock.Skills[n]; ok {
				js.Before = entryOf(old)
			}
		}
		j.Skills[n] = js
	}
	return j
}

// dependenciesFirst returns the order in which to install fs: every
// package after the fetched packages it depends on, otherwise as given.
func dependenciesFirst(fs []fetched) []int {
	pos := map[string]int{}
	for i, f := range fs {
		pos[f.name] = i
	}
	var order []int
	state := make([]int, len(fs)) // 0 new, 1 visiting, 2 placed
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return // placed, or a cycle, which resolution refuses anyway
		}
		state[i] = 1
		for _, d := range slices.Sorted(maps.Keys(fs[i].deps)) {
			if k, ok := pos[d]; ok {
				visit(k)
			}
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range fs {
		visit(i)
	}
	return order
}

// sortResults puts a report back in the order of fs, which is the order
// users read it in, whatever order the packages were installed in.
func sortResults(rep *install.Report, fs []fetched) {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	sortResultsBy(rep, resultOrder(names))
}

// resultOrder maps each of names to its first position.
func resultOrder(names []string) map[string]int {
	pos := make(map[string]int, len(names))
	for i, n := range names {
		if _, ok := pos[n]; !ok {
			pos[n] = i
		}
	}
	return pos
}

// sortResultsBy sorts a report's results by the positions of their names
// (resultOrder), keeping the order of those of one name.
func sortResultsBy(rep *install.Report, pos map[string]int) {
	slices.SortStableFunc(rep.Results, func(a, b install.Result) int { return pos[a.Name] - pos[b.Name] })
}

// needsAgentVersions reports whether a package to install limits an agent
// by version (compatibility.agents[].minVersion).
func needsAgentVersions(fs []fetched) bool {
	for _, f := range fs {
		if f.agentVersions || limitsAgentVersions(f.item.Pkg) {
			return true
		}
	}
	return false
}
