package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

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
and listed. In a project, the skill's entry leaves skills.lock. A skill another installed
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
	opts := install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters, Force: c.Force, DryRun: c.DryRun}
	var rep *install.Report
	run := func() error {
		g, err := p.installedGraph()
		if err != nil {
			return err
		}
		if err := g.requiredElsewhere(c.Skills); err != nil {
			return err
		}
		orphans := g.orphans(c.Skills)
		p.noteOrphans(orphans, c.DryRun)
		names := append(slices.Clone(c.Skills), orphans...)
		rep, err = install.Uninstall(e.ctx, names, opts)
		if err != nil || c.DryRun || p.sc.scope != agents.ScopeProject {
			return err
		}
		return p.forgetLocked(rep)
	}
	if c.DryRun {
		err = run()
	} else {
		err = install.WithLock(e.ctx, e.runLockPath(p.sc), run)
	}
	if rep != nil {
		if c.JSON {
			printJSONReport(e, p, nil, rep)
		} else {
			p.printReport(rep)
		}
	}
	return err
}

// forgetLocked updates skills.lock after an uninstall: a skill removed for
// every agent the lock records leaves it; one removed for some of them
// only stays, with the agents that still have it.
func (p *pipeline) forgetLocked(rep *install.Report) error {
	l, err := readLock(p.sc.lockPath())
	if err != nil || l == nil {
		return err
	}
	removedFor := map[string][]string{}
	for _, r := range rep.Results {
		if r.Outcome == install.OutcomeRemoved || r.Outcome == install.OutcomePreserved {
			removedFor[r.Name] = append(removedFor[r.Name], r.Readers...)
		}
	}
	changed := false
	for name, readers := range removedFor {
		s, ok := l.Skills[name]
		if !ok {
			continue
		}
		var left []string
		for _, a := range s.Agents {
			if !slices.Contains(readers, a) {
				left = append(left, a)
			}
		}
		switch {
		case len(left) == 0:
			delete(l.Skills, name)
		case len(left) == len(s.Agents):
			continue // removed only for agents the lock did not name
		default:
			s.Agents = left
			l.Skills[name] = s
		}
		changed = true
	}
	if !changed {
		return nil
	}
	return writeLock(p.sc.lockPath(), l)
}

// pruneOrphans removes the dependencies that nothing requires after an
// apply, adding their outcomes to rep. A dry run reads the graph the plan
// would leave: the installed one with each planned skill's dependencies.
func (p *pipeline) pruneOrphans(rep *install.Report, plan *resolve.Plan, dryRun bool) error {
	if !dryRun && p.sc.scope == agents.ScopeProject {
		var err error
		if p.lock, err = readLock(p.sc.lockPath()); err != nil {
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
	urep, err := install.Uninstall(p.e.ctx, orphans, install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters, DryRun: dryRun})
	if urep != nil {
		rep.Results = append(rep.Results, urep.Results...)
	}
	if err != nil || dryRun || p.sc.scope != agents.ScopeProject {
		return err
	}
	return p.forgetLocked(urep)
}

// noteOrphans says which dependencies go because nothing requires them.
func (p *pipeline) noteOrphans(orphans []string, dryRun bool) {
	verb := "removing it too"
	if dryRun {
		verb = "it would be removed too"
	}
	for _, o := range orphans {
		p.e.info("%s was installed as a dependency and nothing requires it any more: %s", o, verb)
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
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters})
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
	if p.sc.scope == agents.ScopeProject && p.lock != nil {
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
	return &Error{
		Code:    "ASK_SKILL_REQUIRED",
		Summary: "cannot uninstall " + strings.Join(names, ", ") + ": other installed skills require it",
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
