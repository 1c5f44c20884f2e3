package skillset

import (
	"context"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// UninstallRequest is what `agent-skills uninstall <names…>` asks for.
type UninstallRequest struct {
	// Names are the installed skills to remove.
	Names []string
	// Force also removes files the user changed, and skills agent-skills
	// did not install.
	Force bool
	// DryRun plans and writes nothing.
	DryRun bool
}

// Uninstall removes exactly the files each install recorded, for the
// selected agents, and the skills installed only as their dependencies
// that nothing requires any more. In a project the entries leave
// skills.lock — also a skill locked but not installed here (a fresh
// clone), and the names an interrupted uninstall had already removed. A
// skill that another installed skill requires is refused. When the
// removal refuses or fails the outcome holds only the refusals: nothing
// was removed.
func (s *Session) Uninstall(ctx context.Context, r UninstallRequest) (*Outcome, error) {
	var flags []string
	if r.Force {
		flags = []string{"--force"}
	}
	p := s.begin(ctx, "uninstall", r.Names, flags, r.DryRun, nil)
	opts := p.installOptions(r.Force, r.DryRun)
	rep := &install.Report{DryRun: r.DryRun, Results: []install.Result{}}
	run := func() error {
		prev, err := p.finishInterrupted(r.DryRun)
		if err != nil {
			return err
		}
		if !r.DryRun {
			if p.lock, err = ReadLock(p.Scope.LockPath()); err != nil {
				return err
			}
		}
		g, err := p.installedGraph()
		if err != nil {
			return err
		}
		if err := g.requiredElsewhere(r.Names); err != nil {
			return err
		}
		orphans := g.orphans(r.Names)
		p.noteOrphans(orphans, r.DryRun)
		done := p.doneJournal()
		targets, finishing, err := p.splitFinishing(append(slices.Clone(r.Names), orphans...), prev, done)
		if err != nil {
			return err
		}
		targets = g.dependentsFirst(targets)
		remove := func() error {
			if len(targets) == 0 {
				return nil
			}
			var err error
			opts.Memo = p.memo
			rep, err = install.Uninstall(ctx, targets, opts)
			if err != nil {
				refusedOnly(rep) // the transaction removed nothing
			}
			return err
		}
		if r.DryRun {
			err = remove()
		} else {
			err = p.journalled(p.removalJournal(append(slices.Clone(targets), finishing...)), remove)
		}
		if err != nil {
			return err
		}
		p.noteFinishing(finishing, prev, done, r.DryRun)
		if !r.DryRun && done != nil {
			// An uninstall completed: what an older one had removed is
			// history now.
			return removeJournal(p.donePath())
		}
		return nil
	}
	err := p.lockedUnlessDry(r.DryRun, run)
	p.out.addReport(rep)
	return p.out, err
}

// splitFinishing separates the names to remove from the agents' roots
// from those only skills.lock still records for the selected agents: a
// skill an interrupted uninstall had already removed (prev: its journal,
// settled just now; done: the one another command settled), or one
// locked but never installed here (a fresh clone). Removing those is
// finishing what the lock says, not an error; a name neither installed
// nor locked stays in targets, for Uninstall to report as not installed.
func (p *op) splitFinishing(names []string, prev, done *journal) (targets, finishing []string, err error) {
	// Which names are installed where is what the receipts and the
	// folders' presence say: no file needs reading.
	found, err := install.Scan(p.ctx, install.Options{Scope: p.Scope.Kind, Env: p.Env, Agents: p.Agents, ReceiptsOnly: true, Memo: p.memo})
	if err != nil {
		return nil, nil, err
	}
	present := map[string]bool{}
	for _, in := range found {
		if len(in.Deprecated) == 0 || len(in.Deprecated) < len(in.Readers) {
			present[in.Name] = true
		}
	}
	selected := map[string]bool{}
	for _, a := range p.Agents {
		selected[a.ID()] = true
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		locked := false
		if p.lock != nil {
			if s, ok := p.lock.Skills[n]; ok {
				locked = slices.ContainsFunc(s.Agents, func(a string) bool { return selected[a] })
			}
		}
		removedBefore := prev.removes(n) || done.removes(n)
		if !present[n] && (locked || removedBefore) {
			finishing = append(finishing, n)
		} else {
			targets = append(targets, n)
		}
	}
	return targets, finishing, nil
}

// noteFinishing says which names only left skills.lock.
func (p *op) noteFinishing(finishing []string, prev, done *journal, dryRun bool) {
	var before, lockOnly []string
	by := prev
	for _, n := range finishing {
		switch {
		case prev.removes(n):
			before = append(before, n)
		case done.removes(n):
			before, by = append(before, n), done
		default:
			lockOnly = append(lockOnly, n)
		}
	}
	if len(before) > 0 {
		p.info("already removed by the interrupted %q: %s", by.String(), nameList(before))
	}
	switch {
	case len(lockOnly) == 0:
	case dryRun:
		p.info("not installed here for %s, would leave skills.lock only: %s", agentList(p.Agents), nameList(lockOnly))
	default:
		p.info("not installed here for %s, left skills.lock only: %s", agentList(p.Agents), nameList(lockOnly))
	}
}

// pruneOrphans removes the dependencies that nothing requires after an
// apply, adding their outcomes to rep. A dry run reads the graph the plan
// would leave: the installed one with each planned skill's dependencies.
// The caller holds the run lock unless dryRun.
func (p *op) pruneOrphans(rep *install.Report, plan *resolve.Plan, dryRun bool) error {
	if !dryRun && p.Scope.Project() {
		var err error
		if p.lock, err = ReadLock(p.Scope.LockPath()); err != nil {
			return err
		}
	}
	g, err := p.installedGraph()
	if err != nil {
		return err
	}
	if dryRun && plan != nil {
		for _, sel := range plan.Skills {
			g.deps[sel.Name] = sel.Dependencies
		}
	}
	orphans := g.orphans(nil)
	if len(orphans) == 0 {
		return nil
	}
	p.noteOrphans(orphans, dryRun)
	orphans = g.dependentsFirst(orphans)
	var urep *install.Report
	remove := func() error {
		var err error
		urep, err = install.Uninstall(p.ctx, orphans, p.installOptions(false, dryRun))
		if err != nil {
			refusedOnly(urep) // the transaction removed nothing
		}
		return err
	}
	if dryRun {
		err = remove()
	} else {
		err = p.journalled(p.removalJournal(orphans), remove)
	}
	if urep != nil {
		rep.Results = append(rep.Results, urep.Results...)
	}
	return err
}

// noteOrphans says which dependencies go because nothing requires them.
func (p *op) noteOrphans(orphans []string, dryRun bool) {
	verb := "removing it too"
	if dryRun {
		verb = "it would be removed too"
	}
	for _, o := range orphans {
		p.info("%s was installed as a dependency and nothing requires it any more: %s", o, verb)
	}
}

// agentList renders agent ids for messages, sorted.
func agentList(as []agents.Adapter) string {
	ids := make([]string, len(as))
	for i, a := range as {
		ids[i] = a.ID()
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}
