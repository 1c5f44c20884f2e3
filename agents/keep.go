package agents

import (
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// KeepCopies adds to the plan, as targets, the roots that already hold
// the package (holds reports it, given a root) and that a selected agent
// reads although the plan does not write them: a copy an earlier install
// left there for another set of agents. Rewriting it with the others keeps
// every copy an agent can see the same — an agent that keeps one skill
// per name may pick either (Copilot prefers .github/skills to the
// .claude/skills a later install for Copilot and Claude Code writes), and
// it must not be the old one. The duplicates are counted again, each
// naming the roots kept this way.
//
// agents are the ones given to PlanRoots; roots are compared by their
// Env.Canonical spelling.
func (p *Plan) KeepCopies(agents []Adapter, kind format.Kind, scope Scope, env Env, holds func(root string) bool) {
	skipped := map[string]bool{}
	for _, s := range p.Skips {
		skipped[s.Agent] = true
	}
	type reader struct {
		a     Adapter
		reads []string
	}
	var active []reader
	var kept []string
	shapes := map[string]Location{}
	for _, a := range agents {
		if skipped[a.ID()] || slices.ContainsFunc(active, func(r reader) bool { return r.a.ID() == a.ID() }) {
			continue
		}
		loc, ok := a.LocationFor(kind, scope, env)
		if !ok {
			continue
		}
		r := reader{a: a}
		for _, root := range a.ReadRoots(kind, scope, env) {
			root = env.canon(root)
			r.reads = append(r.reads, root)
			if p.writes(root) || slices.Contains(kept, root) || !holds(root) {
				continue
			}
			kept = append(kept, root)
			shapes[root] = Location{Root: root, Shape: loc.Shape, Extension: loc.Extension}
		}
		active = append(active, r)
	}
	if len(kept) == 0 {
		return
	}
	for _, root := range kept {
		t := Target{Location: shapes[root], Kept: true}
		for _, r := range active {
			if slices.Contains(r.reads, root) {
				t.Readers = append(t.Readers, r.a.ID())
			}
		}
		p.Targets = append(p.Targets, t)
	}
	slices.SortFunc(p.Targets, func(a, b Target) int { return strings.Compare(a.Root, b.Root) })
	p.Duplicates = p.Duplicates[:0]
	for _, r := range active {
		var via, old []string
		for _, t := range p.Targets {
			if slices.Contains(r.reads, t.Root) {
				via = append(via, t.Root)
				if t.Kept {
					old = append(old, t.Root)
				}
			}
		}
		if len(via) > 1 {
			p.Duplicates = append(p.Duplicates, Duplicate{Agent: r.a.ID(), Roots: via, ByName: dedupes(r.a), Kept: old})
		}
	}
}

// writes reports whether the plan writes root.
func (p *Plan) writes(root string) bool {
	return slices.ContainsFunc(p.Targets, func(t Target) bool { return t.Root == root })
}

// dedupes reports whether agent a lists a skill once when two roots it
// reads hold it.
func dedupes(a Adapter) bool {
	t, ok := a.(*tableAdapter)
	return ok && t.row.dedupesByName
}
