package skillset

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file is the dependency graph of the installed skills of a scope:
// what requires what, what can go when its dependents go, and in which
// order.

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
func (p *op) installedGraph() (*depGraph, error) {
	found, err := install.Scan(p.ctx, install.Options{Scope: p.Scope.Kind, Env: p.Env, Agents: p.Agents, Memo: p.memo})
	if err != nil {
		return nil, err
	}
	g := &depGraph{deps: map[string]map[string]string{}, versions: map[string]string{}, prunable: map[string]bool{}}
	for _, in := range found {
		ok := in.Role == resolve.RoleDependency && in.State == install.StateOK
		if v, seen := g.prunable[in.Name]; seen {
			ok = ok && v
		}
		g.prunable[in.Name] = ok
	}
	if p.Scope.Project() && p.lock != nil {
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
		Code:    CodeSkillRequired,
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
