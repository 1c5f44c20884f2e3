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
and listed. In a project, the skill's entry leaves skills.lock; a skill another locked
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
		names := c.Skills
		if p.sc.scope == agents.ScopeProject && p.lock != nil {
			if err := requiredElsewhere(p.lock, names); err != nil {
				return err
			}
			orphans, err := p.orphans(names)
			if err != nil {
				return err
			}
			verb := "removing it too"
			if c.DryRun {
				verb = "it would be removed too"
			}
			for _, o := range orphans {
				e.info("%s was installed as a dependency and nothing requires it any more: %s", o, verb)
			}
			names = append(slices.Clone(names), orphans...)
		}
		var err error
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
		if len(left) == 0 {
			delete(l.Skills, name)
		} else {
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

// requiredElsewhere refuses to uninstall a skill that a locked skill staying
// installed depends on: the lock would name a dependency nothing installs,
// and the skill that needs it would lose it.
func requiredElsewhere(l *resolve.Lock, names []string) error {
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	var detail []string
	var keep []string
	for _, s := range slices.Sorted(maps.Keys(l.Skills)) {
		if gone[s] {
			continue
		}
		for _, d := range slices.Sorted(maps.Keys(l.Skills[s].Dependencies)) {
			if gone[d] {
				detail = append(detail, fmt.Sprintf("%s@%s requires %s", s, l.Skills[s].Version, d))
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

// orphans returns the locked skills, other than names, that were installed
// only as dependencies (their receipts say so for every copy this run can
// see, and those copies are unmodified) and that no remaining skill
// requires once names are gone, directly or through other skills.
func (p *pipeline) orphans(names []string) ([]string, error) {
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters})
	if err != nil {
		return nil, err
	}
	// A name is prunable when every copy seen is a clean dependency.
	prunable := map[string]bool{}
	for _, in := range found {
		ok := in.Role == install.RoleDependency && in.State == install.StateOK
		if v, seen := prunable[in.Name]; seen {
			ok = ok && v
		}
		prunable[in.Name] = ok
	}
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	// Everything reachable from the skills that stay and are not prunable
	// dependencies is still required.
	reach := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if reach[n] || gone[n] {
			return
		}
		reach[n] = true
		if s, ok := p.lock.Skills[n]; ok {
			for d := range s.Dependencies {
				walk(d)
			}
		}
	}
	for n := range p.lock.Skills {
		if !gone[n] && !prunable[n] {
			walk(n)
		}
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(p.lock.Skills)) {
		if !gone[n] && !reach[n] && prunable[n] {
			out = append(out, n)
		}
	}
	return out, nil
}
