package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

type uninstallCmd struct {
	Skills []string   `arg:"" help:"Names of installed skills."`
	Agent  []string   `short:"a" help:"Agent to remove them for; repeatable. Default: every detected agent."`
	Scope  scopeFlags `embed:""`
	DryRun bool       `help:"Print what would be removed; remove nothing."`
	Force  bool       `help:"Also remove files you changed, and skills agent-skills did not install."`
	JSON   bool       `name:"json" help:"Print the outcomes as JSON."`
}

func (c *uninstallCmd) Help() string {
	return `Removes exactly the files the install recorded in its receipt. A file you changed
stops the removal (unless --force); files you added inside the skill's folder are kept
and listed. In a project, the skill's entry leaves skills.lock, also when it is locked but
not installed here (a fresh clone); an uninstall that was killed half-way finishes when
run again. A skill another installed
skill requires is refused (name both), and skills that were installed only as
dependencies and that nothing requires any more are removed too.

Examples:
  agent-skills uninstall java-performance
  agent-skills uninstall review-diff --global --dry-run`
}

func (c *uninstallCmd) Run(e *env) error {
	p, err := e.newPipeline(c.Scope, c.Agent)
	if err != nil {
		return err
	}
	p.command, p.requested = "uninstall", c.Skills
	if c.Force {
		p.flags = []string{"--force"}
	}
	opts := install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters, Force: c.Force, DryRun: c.DryRun,
		Hook: e.faultHook()}
	var rep *install.Report
	run := func() error {
		prev, err := p.finishInterrupted(c.DryRun)
		if err != nil {
			return err
		}
		g, err := p.installedGraph()
		if err != nil {
			return err
		}
		if err := g.requiredElsewhere(c.Skills); err != nil {
			return err
		}
		orphans := g.orphans(c.Skills)
		p.noteOrphans(orphans, c.DryRun)
		done := e.doneJournal(p.sc)
		targets, finishing, err := p.splitFinishing(append(slices.Clone(c.Skills), orphans...), prev, done)
		if err != nil {
			return err
		}
		targets = g.dependentsFirst(targets)
		rep = &install.Report{DryRun: c.DryRun, Results: []install.Result{}}
		remove := func() error {
			if len(targets) == 0 {
				return nil
			}
			var err error
			rep, err = install.Uninstall(e.ctx, targets, opts)
			return err
		}
		if c.DryRun {
			err = remove()
		} else {
			err = p.journalled(p.removalJournal(append(slices.Clone(targets), finishing...)), remove)
		}
		if err != nil {
			return err
		}
		p.noteFinishing(finishing, prev, done, c.DryRun)
		if !c.DryRun && done != nil {
			// An uninstall completed: what an older one had removed is
			// history now.
			return removeJournal(e.donePath(p.sc))
		}
		return nil
	}
	if c.DryRun {
		err = run()
	} else {
		err = install.WithLock(e.ctx, e.runLockPath(p.sc), run)
	}
	if rep != nil {
		if err != nil {
			// Nothing was removed: show only why.
			rep = refusedOnly(rep)
		}
		if c.JSON {
			printJSONReport(e, p, nil, rep)
		} else {
			p.printReport(rep)
		}
	}
	return err
}

// splitFinishing separates the names to remove from the agents' roots
// from those only skills.lock still records for the selected agents: a
// skill an interrupted uninstall had already removed (prev: its journal,
// settled just now; done: the one another command settled), or one
// locked but never installed here (a fresh clone). Removing those is
// finishing what the lock says, not an error; a name neither installed
// nor locked stays in targets, for Uninstall to report as not installed.
func (p *pipeline) splitFinishing(names []string, prev, done *journal) (targets, finishing []string, err error) {
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters})
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
	for _, a := range p.adapters {
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
func (p *pipeline) noteFinishing(finishing []string, prev, done *journal, dryRun bool) {
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
		p.e.Info("already removed by the interrupted %q: %s", by.String(), nameList(before))
	}
	switch {
	case len(lockOnly) == 0:
	case dryRun:
		p.e.Info("not installed here for %s, would leave skills.lock only: %s", agentList(p.adapters), nameList(lockOnly))
	default:
		p.e.Info("not installed here for %s, left skills.lock only: %s", agentList(p.adapters), nameList(lockOnly))
	}
}

// refusedOnly keeps the refusals of a report that failed: the other
// results say what would have been done, and nothing was.
func refusedOnly(rep *install.Report) *install.Report {
	out := &install.Report{DryRun: rep.DryRun, Results: []install.Result{}}
	for _, r := range rep.Results {
		if r.Outcome == install.OutcomeRefused {
			out.Results = append(out.Results, r)
		}
	}
	return out
}

// pruneOrphans removes the dependencies that nothing requires after an
// apply, adding their outcomes to rep. A dry run reads the graph the plan
// would leave: the installed one with each planned skill's dependencies.
// The caller holds the run lock unless dryRun.
func (p *pipeline) pruneOrphans(rep *install.Report, plan *resolve.Plan, dryRun bool) error {
	if !dryRun && p.sc.Kind == agents.ScopeProject {
		var err error
		if p.lock, err = readLock(p.sc.LockPath()); err != nil {
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
		urep, err = install.Uninstall(p.e.ctx, orphans, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters,
			DryRun: dryRun, Hook: p.e.faultHook()})
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
func (p *pipeline) noteOrphans(orphans []string, dryRun bool) {
	verb := "removing it too"
	if dryRun {
		verb = "it would be removed too"
	}
	for _, o := range orphans {
		p.e.Info("%s was installed as a dependency and nothing requires it any more: %s", o, verb)
	}
}

// depGraph is what uninstall knows of the installed skills of the scope:
// what each requires, and which can go with what required them.
type depGraph struct {
	// deps maps each installed skill to its dependencies; a skill whose
	// dependencies are unknown (a receipt written before they were
	// recorded) maps to nil.
	deps map[string]map[string]string
	// versions are the installed versions, for messages.
	versions map[string]string
	// prunable are the skills installed only as dependencies, whose every
	// copy seen is unchanged.
	prunable map[string]bool
}

// installedGraph reads the graph: in a project with skills.lock, from the
// lock, which every machine of the team shares; otherwise from the
// receipts of the selected agents' roots. Roles and states come from the
// receipts either way.
func (p *pipeline) installedGraph() (*depGraph, error) {
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters})
	if err != nil {
		return nil, err
	}
	g := &depGraph{deps: map[string]map[string]string{}, versions: map[string]string{}, prunable: map[string]bool{}}
	for _, in := range found {
		ok := in.Role == install.RoleDependency && in.State == install.StateOK
		if v, seen := g.prunable[in.Name]; seen {
			ok = ok && v
		}
		g.prunable[in.Name] = ok
	}
	if p.sc.Kind == agents.ScopeProject && p.lock != nil {
		for n, s := range p.lock.Skills {
			d := s.Dependencies
			if d == nil {
				d = map[string]string{} // the lock lists every dependency
			}
			g.deps[n], g.versions[n] = d, s.Version
		}
		return g, nil
	}
	unknown := map[string]bool{}
	for _, in := range found {
		if in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
			continue // not ours: it requires nothing we know of
		}
		g.versions[in.Name] = in.Version
		if in.Dependencies == nil || unknown[in.Name] {
			unknown[in.Name] = true
			g.deps[in.Name] = nil
			continue
		}
		d := g.deps[in.Name]
		if d == nil {
			d = map[string]string{}
			g.deps[in.Name] = d
		}
		maps.Copy(d, in.Dependencies)
	}
	return g, nil
}

// dependentsFirst orders names so that each comes before the names it
// depends on: an uninstall cut short then leaves no remaining skill
// without a dependency. Otherwise names keep their order.
func (g *depGraph) dependentsFirst(names []string) []string {
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	placed := map[string]bool{}
	var rev []string
	// Depth-first, dependencies placed before what requires them; the
	// reverse is dependents first.
	var visit func(string)
	visit = func(n string) {
		if placed[n] {
			return
		}
		placed[n] = true
		for _, d := range slices.Sorted(maps.Keys(g.deps[n])) {
			if in[d] {
				visit(d)
			}
		}
		rev = append(rev, n)
	}
	for i := len(names) - 1; i >= 0; i-- {
		visit(names[i])
	}
	slices.Reverse(rev)
	return rev
}

// requiredElsewhere refuses to uninstall a skill that an installed skill
// staying behind depends on: that skill would lose it, and in a project
// the lock would name a dependency nothing installs.
func (g *depGraph) requiredElsewhere(names []string) error {
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	var detail []string
	var keep []string
	for _, s := range slices.Sorted(maps.Keys(g.deps)) {
		if gone[s] {
			continue
		}
		for _, d := range slices.Sorted(maps.Keys(g.deps[s])) {
			if gone[d] {
				detail = append(detail, fmt.Sprintf("%s@%s requires %s", s, g.versions[s], d))
				if !slices.Contains(keep, s) {
					keep = append(keep, s)
				}
			}
		}
	}
	if len(detail) == 0 {
		return nil
	}
	all := append(slices.Clone(names), keep...)
	return &askerr.Error{
		Code:    "ASK_SKILL_REQUIRED",
		Message: "cannot uninstall " + strings.Join(names, ", ") + ": other installed skills require it",
		Detail:  detail,
		Try: []string{
			"agent-skills uninstall " + strings.Join(all, " ") + "   to remove them together",
			"or uninstall only what requires it; a dependency nothing requires is then removed with it",
		},
	}
}

// orphans returns the installed skills, other than names, that are
// prunable and that no remaining skill requires once names are gone,
// directly or through other skills. When a remaining skill's dependencies
// are unknown, nothing is an orphan.
func (g *depGraph) orphans(names []string) []string {
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	reach := map[string]bool{}
	unknown := false
	var walk func(string)
	walk = func(n string) {
		if reach[n] || gone[n] {
			return
		}
		reach[n] = true
		d, ok := g.deps[n]
		if ok && d == nil {
			unknown = true
		}
		for dep := range d {
			walk(dep)
		}
	}
	for n := range g.deps {
		if !gone[n] && !g.prunable[n] {
			walk(n)
		}
	}
	if unknown {
		return nil
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(g.deps)) {
		if !gone[n] && !reach[n] && g.prunable[n] {
			out = append(out, n)
		}
	}
	return out
}
