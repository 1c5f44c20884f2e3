package agents

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// exhaustivePlanRoots is PlanRoots as it was before the search over shared
// roots (commit 634af96), kept as the oracle the planner is compared
// against: it tries every subset of at most 16 candidate roots and keeps
// the first with the least score. It returns false, with no targets, where
// that search gave up (more than 16 candidates) or where there are more
// than limit candidates. Only those two lines differ from the original.
func exhaustivePlanRoots(agents []Adapter, kind format.Kind, scope Scope, env Env, limit int) (Plan, bool) {
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
		return plan, true
	}

	var chosen []string
	if len(candidates) <= min(limit, 16) {
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
		return plan, false
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
	return plan, true
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

// TestPlanRootsMatchesExhaustive compares PlanRoots with the old
// exhaustive search wherever that search handled the input (at most 16
// candidates): the same targets, readers, skips and duplicates, so the
// same roots chosen, ties included. TestPlanRootsExactlyOnce does so for
// every subset of the nine original agents; this test covers subsets of
// the synthetic table and random tables, whose rows mix deprecated,
// compat and walk-up roots, agents that list a skill once or twice, and
// folders that are one by Canonical, to reach the rarer parts of the
// score (an agent seeing the package only through deprecated roots) and
// the ties between equal scores.
func TestPlanRootsMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 16))
	envs := map[string]Env{"plain": testEnv(nil), "subdir": planEnvs()["subdir"], "merged": mergedEnv()}
	compared := 0
	check := func(name string, agents []Adapter, scope Scope, env Env) {
		t.Helper()
		want, ok := exhaustivePlanRoots(agents, format.KindSkill, scope, env, 16)
		if !ok {
			return
		}
		compared++
		got, _ := planRoots(agents, format.KindSkill, scope, env, searchBudget)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s PlanRoots(%v, %s) = %+v\nthe exhaustive search made %+v", name, agents, scope, got, want)
		}
	}
	synthetic := syntheticTable(t)
	for range 300 {
		var agents []Adapter
		p := r.Float64() / 2
		for _, a := range synthetic {
			if r.Float64() < p {
				agents = append(agents, a)
			}
		}
		for envName, env := range envs {
			for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
				check("synthetic "+envName, agents, scope, env)
			}
		}
	}
	for range 400 {
		agents := randomAgents(r, 2+r.IntN(7))
		for envName, env := range envs {
			for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
				check("random "+envName, agents, scope, env)
			}
		}
	}
	if compared < 3000 {
		t.Errorf("compared %d plans, want at least 3000", compared)
	}
}

// mergedEnv is a machine on which .b/skills is a link to .a/skills, in
// the project and at home, for the random rows of randomAgents.
func mergedEnv() Env {
	env := testEnv(nil)
	env.Canonical = func(p string) string {
		for _, top := range []string{"/work/p", "/home/u"} {
			if p == filepath.Join(top, ".b", "skills") {
				return filepath.Join(top, ".a", "skills")
			}
		}
		return p
	}
	return env
}

// randomAgents returns n table adapters, r0…, each reading one to four of
// six folders, in both scopes, each root at random deprecated, compat or
// (in the project) read from every folder up from the working directory;
// an adapter whose roots are all deprecated or compat has no location.
func randomAgents(r *rand.Rand, n int) []Adapter {
	dirs := []string{".a", ".b", ".c", ".d", ".e", ".f"}
	out := make([]Adapter, n)
	for i := range n {
		var project, global []rootSpec
		for _, k := range r.Perm(len(dirs))[:1+r.IntN(4)] {
			project = append(project, rootSpec{
				place: projectDir(dirs[k] + "/skills"), walkUp: r.IntN(4) == 0,
				deprecated: r.IntN(5) == 0, compat: r.IntN(4) == 0,
			})
			global = append(global, rootSpec{
				place:      homeDir(dirs[k], "skills"),
				deprecated: r.IntN(5) == 0, compat: r.IntN(4) == 0,
			})
		}
		id := fmt.Sprintf("r%d", i)
		out[i] = &tableAdapter{row: agentRow{
			id: id, displayName: id,
			kinds:         map[format.Kind]kindSpec{format.KindSkill: {shape: ShapeDirectory, project: project, global: global}},
			skipReasons:   genericSkips(id),
			dedupesByName: r.IntN(2) == 0,
		}}
	}
	return out
}

// TestRootProblemMatchesExhaustive checks the search on random problems
// against trying every choice of roots, scored here on its own: many
// agents sharing few roots, with deprecated roots and preferred roots
// anywhere, so that every case of the private-root completion and every
// tie between equal scores comes up.
func TestRootProblemMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 3000 {
		p := rootProblem{n: 1 + r.IntN(12)}
		for range 1 + r.IntN(8) {
			var a problemAgent
			for j := range p.n {
				if r.IntN(3) == 0 {
					a.reads = append(a.reads, j)
					if r.IntN(3) == 0 {
						a.deprecated = append(a.deprecated, j)
					}
				}
			}
			if len(a.reads) == 0 {
				a.reads = []int{r.IntN(p.n)}
			}
			a.pref = a.reads[r.IntN(len(a.reads))]
			a.deprecated = slices.DeleteFunc(a.deprecated, func(j int) bool { return j == a.pref && r.IntN(2) == 0 })
			a.byName = r.IntN(2) == 0
			p.agents = append(p.agents, a)
		}
		want := bruteForce(p)
		got, _, exact := p.solve(searchBudget)
		if !exact || compareSets(got, want) != 0 {
			t.Fatalf("solve(%+v) = %b (exact %v), want %b", p, got, exact, want)
		}
	}
}

// bruteForce returns the least mask among the choices of p with the least
// score, trying every mask in increasing order, as the old PlanRoots did.
func bruteForce(p rootProblem) rootSet {
	var best planScore
	var bestMask uint64
	found := false
	for mask := uint64(1); mask < 1<<p.n; mask++ {
		var s planScore
		ok := true
		for _, a := range p.agents {
			seen, fresh := 0, 0
			for _, j := range a.reads {
				if mask&(1<<j) != 0 {
					seen++
					if !slices.Contains(a.deprecated, j) {
						fresh++
					}
				}
			}
			if seen == 0 {
				ok = false
				break
			}
			if seen > 1 {
				s[1]++
				if !a.byName {
					s[0]++
				}
			}
			if fresh == 0 {
				s[2]++
			}
			if mask&(1<<a.pref) == 0 {
				s[4]++
			}
		}
		if !ok {
			continue
		}
		s[3] = bits.OnesCount64(mask)
		if !found || slices.Compare(s[:], best[:]) < 0 {
			best, bestMask, found = s, mask, true
		}
	}
	out := newRootSet(p.n)
	out[0] = bestMask
	return out
}

// TestPlanRootsSearchBudget checks what happens past the search budget:
// the plan is marked inexact and still gives every agent the package,
// with every agent that sees it twice reported; and that the whole
// synthetic table, on every machine, needs far fewer steps than the
// budget allows.
func TestPlanRootsSearchBudget(t *testing.T) {
	all := syntheticTable(t)
	most := 0
	for envName, env := range planEnvs() {
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			plan, steps := planRoots(all, format.KindSkill, scope, env, searchBudget)
			most = max(most, steps)
			if plan.Inexact {
				t.Errorf("%s PlanRoots(all, %s) is inexact after %d steps", envName, scope, steps)
			}
			short, shortSteps := planRoots(all, format.KindSkill, scope, env, steps/2)
			if !short.Inexact || shortSteps != steps/2 {
				t.Errorf("%s PlanRoots(all, %s) with %d of the %d steps it needs: inexact %v after %d steps, want true after %d", envName, scope, steps/2, steps, short.Inexact, shortSteps, steps/2)
			}
			checkCovered(t, envName, all, short, format.KindSkill, scope, env)
			if none, _ := planRoots(all, format.KindSkill, scope, env, 0); !none.Inexact {
				t.Errorf("%s PlanRoots(all, %s) with no steps is not inexact", envName, scope)
			} else {
				checkCovered(t, envName, all, none, format.KindSkill, scope, env)
			}
		}
	}
	t.Logf("the synthetic table takes at most %d steps of %d", most, searchBudget)
	if most*1000 > searchBudget {
		t.Errorf("the synthetic table takes %d steps, more than a thousandth of the budget %d", most, searchBudget)
	}
}

// checkCovered checks that plan gives every agent with a location the
// package, and reports exactly the agents that see it more than once.
func checkCovered(t *testing.T, envName string, agents []Adapter, plan Plan, kind format.Kind, scope Scope, env Env) {
	t.Helper()
	for _, a := range agents {
		if _, ok := a.LocationFor(kind, scope, env); !ok {
			continue
		}
		var via []string
		for _, tg := range plan.Targets {
			if slices.Contains(a.ReadRoots(kind, scope, env), tg.Root) {
				via = append(via, tg.Root)
			}
		}
		reported := slices.IndexFunc(plan.Duplicates, func(d Duplicate) bool { return d.Agent == a.ID() })
		switch {
		case len(via) == 0:
			t.Errorf("%s inexact plan for %s: %s sees nothing", envName, scope, a.ID())
		case len(via) > 1 && (reported < 0 || !slices.Equal(plan.Duplicates[reported].Roots, via)):
			t.Errorf("%s inexact plan for %s: %s sees %q, reported %+v", envName, scope, a.ID(), via, plan.Duplicates)
		case len(via) == 1 && reported >= 0:
			t.Errorf("%s inexact plan for %s: %s sees one root but is reported", envName, scope, a.ID())
		}
	}
}

// TestPlanRootsManyAgents plans for 120 random agents sharing six
// folders and for the synthetic table four times over (100 agents, each
// root read by four or more): the search ends, exact, within the budget.
func TestPlanRootsManyAgents(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	synthetic := syntheticTable(t)
	var quadrupled []Adapter
	for n := range 4 {
		for _, a := range synthetic {
			row := a.(*tableAdapter).row
			row.id = fmt.Sprintf("%s-%d", row.id, n)
			quadrupled = append(quadrupled, &tableAdapter{row: row})
		}
	}
	for name, agents := range map[string][]Adapter{"random": randomAgents(r, 120), "quadrupled": quadrupled} {
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			plan, steps := planRoots(agents, format.KindSkill, scope, testEnv(nil), searchBudget)
			t.Logf("%s, %s: %d steps, %d targets, %d duplicates", name, scope, steps, len(plan.Targets), len(plan.Duplicates))
			if plan.Inexact {
				t.Errorf("%s PlanRoots(%d agents, %s) is inexact", name, len(agents), scope)
			}
			checkCovered(t, name, agents, plan, format.KindSkill, scope, testEnv(nil))
		}
	}
}
