package agents

import (
	"slices"

	"github.com/agent-skills/agent-skills/format"
)

// Target is one root a package is written to, once, and the selected
// agents that will see it there.
type Target struct {
	Location
	// Readers are the ids of the selected agents that read Root, in the
	// order the agents were given.
	Readers []string `json:"readers"`
	// AlsoReadBy are the ids of agents that were not selected but read
	// Root too, so they will see the package as well, in table order. It
	// is empty until Plan.NoteBystanders fills it.
	AlsoReadBy []string `json:"alsoReadBy,omitempty"`
	// Kept says the root is written because it already holds the package
	// for a selected agent, not because the plan chose it (Plan.KeepCopies).
	Kept bool `json:"kept,omitempty"`
}

// Skip is a selected agent that gets nothing, and why: it has no location
// for the package's kind (Codex has no commands) or the scope cannot be
// resolved.
type Skip struct {
	Agent  string `json:"agent"`
	Reason string `json:"reason"`
}

// Duplicate is a selected agent that will see the package through more
// than one written root because no choice of roots avoids it: for example
// GitHub Copilot reads both .claude/skills, which Claude Code needs, and
// .agents/skills, which Codex needs.
type Duplicate struct {
	Agent string   `json:"agent"`
	Roots []string `json:"roots"`
	// ByName says the agent de-duplicates skills by name, so it will still
	// list the package once.
	ByName bool `json:"byName,omitempty"`
	// Kept are the roots among Roots that are written only because they
	// already held the package (Plan.KeepCopies): rewritten, so that
	// every copy the agent sees is the same.
	Kept []string `json:"kept,omitempty"`
}

// Plan is where one package is written so that the selected agents see it.
type Plan struct {
	// Targets are the distinct roots to write, sorted by root.
	Targets []Target `json:"targets"`
	// Skips are the selected agents that get nothing, in input order.
	Skips []Skip `json:"skips,omitempty"`
	// Duplicates are the agents that will see the package more than once,
	// in input order; empty whenever some choice of roots avoids it.
	Duplicates []Duplicate `json:"duplicates,omitempty"`
	// Inexact says the search gave up before it proved its choice the
	// best: the agents share roots in a pattern so tangled that it needed
	// more than about a million steps, where the whole built-in table
	// needs under a hundred. Every agent still sees the package and
	// Duplicates is still true of the roots chosen, but another choice may
	// leave fewer agents seeing it twice.
	Inexact bool `json:"inexact,omitempty"`
}

// PlanRoots chooses the roots one package of kind is written to in scope
// so that every selected agent sees it, each root is written once, and an
// agent sees it through more than one root only when no choice avoids that
// (Codex, for one, lists a skill twice when two roots it reads hold it).
//
// Among the choices that give every agent the package, PlanRoots prefers,
// in order: the fewest agents that would list it twice, then the fewest
// agents that would see it twice at all, then the fewest agents that would
// see it only through a root deprecated for them, then the fewest roots
// written, then the most agents served by their own preferred root. Only roots an
// agent reads and may be written to count (never a deprecated root, nor a
// root the agent reads only for another agent's sake unless that agent is
// selected too). Roots are compared by their Env.Canonical spelling, so a
// folder two agents reach by different paths is one candidate read by
// both. The result is deterministic, and it is the best choice by the
// order above (ties go to the choice that leaves out the roots met last)
// however many agents share roots; see rootProblem for how it is found.
func PlanRoots(agents []Adapter, kind format.Kind, scope Scope, env Env) Plan {
	plan, _ := planRoots(agents, kind, scope, env, searchBudget)
	return plan
}

// planRoots is PlanRoots with the search limited to budget steps; it also
// returns the steps the search took.
func planRoots(agents []Adapter, kind format.Kind, scope Scope, env Env, budget int) (Plan, int) {
	var plan Plan
	type member struct {
		a          Adapter
		loc        Location
		reads      []string
		deprecated []string
		byNm       bool
	}
	var active []member
	var candidates []string
	shapes := map[string]Location{}
	seen := map[string]bool{}
	for _, a := range agents {
		if seen[a.ID()] {
			continue
		}
		seen[a.ID()] = true
		loc, ok := a.LocationFor(kind, scope, env)
		if !ok {
			plan.Skips = append(plan.Skips, Skip{Agent: a.ID(), Reason: SkipReason(a, kind, scope, env)})
			continue
		}
		// Table adapters report canonical roots already; canon is
		// idempotent, and makes any other adapter agree with them.
		loc.Root = env.canon(loc.Root)
		m := member{a: a, loc: loc}
		for _, r := range Roots(a, kind, scope, env) {
			if !slices.Contains(m.reads, r.Path) {
				m.reads = append(m.reads, r.Path)
			}
			if r.Deprecated {
				m.deprecated = append(m.deprecated, r.Path)
			}
		}
		if !slices.Contains(m.reads, loc.Root) {
			m.reads = append(m.reads, loc.Root)
		}
		writable := []string{loc.Root}
		if t, ok := a.(*tableAdapter); ok {
			writable = t.writable(kind, scope, env)
			m.byNm = t.row.dedupesByName
			// The root LocationFor names is always a choice: a configured
			// override names it even for a row whose roots are all
			// another agent's or deprecated.
			if !slices.Contains(writable, loc.Root) {
				writable = append(writable, loc.Root)
			}
		}
		for _, r := range writable {
			if _, ok := shapes[r]; !ok {
				shapes[r] = Location{Root: r, Shape: loc.Shape, Extension: loc.Extension}
				candidates = append(candidates, r)
			}
		}
		active = append(active, m)
	}
	if len(active) == 0 {
		return plan, 0
	}

	index := make(map[string]int, len(candidates))
	for j, c := range candidates {
		index[c] = j
	}
	prob := rootProblem{n: len(candidates), agents: make([]problemAgent, len(active))}
	for i, m := range active {
		pa := problemAgent{pref: index[m.loc.Root], byName: m.byNm}
		for _, r := range m.reads {
			if j, ok := index[r]; ok {
				pa.reads = append(pa.reads, j)
				if slices.Contains(m.deprecated, r) {
					pa.deprecated = append(pa.deprecated, j)
				}
			}
		}
		slices.Sort(pa.reads)
		slices.Sort(pa.deprecated)
		prob.agents[i] = pa
	}
	picked, steps, exact := prob.solve(budget)
	plan.Inexact = !exact
	var chosen []string
	for j, c := range candidates {
		if picked.has(j) {
			chosen = append(chosen, c)
		}
	}

	slices.Sort(chosen)
	for _, root := range chosen {
		t := Target{Location: shapes[root]}
		for _, m := range active {
			if slices.Contains(m.reads, root) {
				t.Readers = append(t.Readers, m.a.ID())
			}
		}
		plan.Targets = append(plan.Targets, t)
	}
	for _, m := range active {
		var via []string
		for _, root := range chosen {
			if slices.Contains(m.reads, root) {
				via = append(via, root)
			}
		}
		if len(via) > 1 {
			plan.Duplicates = append(plan.Duplicates, Duplicate{Agent: m.a.ID(), Roots: via, ByName: m.byNm})
		}
	}
	return plan, steps
}

// NoteBystanders fills each target's AlsoReadBy with the agents of table
// that were not selected for the plan but read the target's root for
// packages of kind in scope, so they will see the package too: an
// install for Claude Code that writes .claude/skills is also seen by
// Copilot, Cursor and OpenCode when they read that folder. Roots are
// compared by their Env.Canonical spelling, as PlanRoots compares them.
// The selected agents are the plan's readers and skipped agents; an agent
// listed twice in table counts once. Calling it again replaces what an
// earlier call noted.
func (p *Plan) NoteBystanders(table []Adapter, kind format.Kind, scope Scope, env Env) {
	var selected, roots []string
	for _, t := range p.Targets {
		selected = append(selected, t.Readers...)
		roots = append(roots, t.Root)
	}
	for _, s := range p.Skips {
		selected = append(selected, s.Agent)
	}
	for i, ids := range AlsoReaders(table, selected, kind, scope, env, roots) {
		p.Targets[i].AlsoReadBy = ids
	}
}

// AlsoReaders returns, for each of roots (canonical, as PlanRoots spells
// them), the ids of the agents of table that are not among selected but
// read it for packages of kind in scope, in table order; an agent listed
// twice in table counts once.
func AlsoReaders(table []Adapter, selected []string, kind format.Kind, scope Scope, env Env, roots []string) [][]string {
	out := make([][]string, len(roots))
	done := map[string]bool{}
	for _, id := range selected {
		done[id] = true
	}
	for _, a := range table {
		if done[a.ID()] {
			continue
		}
		done[a.ID()] = true
		var reads []string
		for _, r := range a.ReadRoots(kind, scope, env) {
			reads = append(reads, env.canon(r))
		}
		for i, root := range roots {
			if slices.Contains(reads, root) {
				out[i] = append(out[i], a.ID())
			}
		}
	}
	return out
}
