package agents

import (
	"math/bits"
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
}

// maxExhaustive is the most candidate roots PlanRoots searches
// exhaustively; beyond it, each agent simply gets its preferred root.
const maxExhaustive = 16

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
// both. The result is deterministic.
func PlanRoots(agents []Adapter, kind format.Kind, scope Scope, env Env) Plan {
	var plan Plan
	type member struct {
		a     Adapter
		loc   Location
		reads []string
		byNm  bool
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
		for _, r := range a.ReadRoots(kind, scope, env) {
			if r = env.canon(r); !slices.Contains(m.reads, r) {
				m.reads = append(m.reads, r)
			}
		}
		if !slices.Contains(m.reads, loc.Root) {
			m.reads = append(m.reads, loc.Root)
		}
		writable := []string{loc.Root}
		if t, ok := a.(*tableAdapter); ok {
			writable = t.writable(kind, scope, env)
			m.byNm = t.row.dedupesByName
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
		return plan
	}

	var chosen []string
	if len(candidates) <= maxExhaustive {
		readMask := make([]uint32, len(active))
		deprecMask := make([]uint32, len(active))
		prefBit := make([]uint32, len(active))
		for i, m := range active {
			deprecated := deprecatedRoots(m.a, kind, scope, env)
			for j, c := range candidates {
				if slices.Contains(m.reads, c) {
					readMask[i] |= 1 << j
				}
				if slices.Contains(deprecated, c) {
					deprecMask[i] |= 1 << j
				}
				if c == m.loc.Root {
					prefBit[i] = 1 << j
				}
			}
		}
		type score [5]int
		var best score
		var bestMask uint32
		found := false
		for mask := uint32(1); mask < 1<<len(candidates); mask++ {
			var s score
			ok := true
			for i, m := range active {
				n := bits.OnesCount32(mask & readMask[i])
				if n == 0 {
					ok = false
					break
				}
				if n > 1 {
					if m.byNm {
						s[1]++
					} else {
						s[0]++
					}
				}
				if mask&readMask[i]&^deprecMask[i] == 0 {
					s[2]++
				}
				if mask&prefBit[i] == 0 {
					s[4]++
				}
			}
			if !ok {
				continue
			}
			s[1] += s[0]
			s[3] = bits.OnesCount32(mask)
			if !found || slices.Compare(s[:], best[:]) < 0 {
				best, bestMask, found = s, mask, true
			}
		}
		for j, c := range candidates {
			if bestMask&(1<<j) != 0 {
				chosen = append(chosen, c)
			}
		}
	} else {
		for _, m := range active {
			if !slices.Contains(chosen, m.loc.Root) {
				chosen = append(chosen, m.loc.Root)
			}
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
	return plan
}

// deprecatedRoots returns the roots a reads that are deprecated for it.
func deprecatedRoots(a Adapter, kind format.Kind, scope Scope, env Env) []string {
	var out []string
	for _, r := range Roots(a, kind, scope, env) {
		if r.Deprecated {
			out = append(out, r.Path)
		}
	}
	return out
}
