package agents

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestPlanRootsExamples(t *testing.T) {
	j := filepath.Join
	env := testEnv(nil)
	cases := []struct {
		name   string
		agents []string
		kind   format.Kind
		scope  Scope
		want   []Target
		skips  []string
		dups   []string
	}{
		{
			name: "claude and codex, global", agents: []string{"claude-code", "codex"}, kind: format.KindSkill, scope: ScopeGlobal,
			want: []Target{
				{Location: Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"codex"}},
				{Location: Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code"}},
			},
		},
		{
			name: "codex and gemini share one copy", agents: []string{"codex", "gemini-cli"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{{Location: Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"codex", "gemini-cli"}}},
		},
		{
			name: "claude copy serves copilot", agents: []string{"claude-code", "github-copilot"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{{Location: Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code", "github-copilot"}}},
		},
		{
			name: "copilot cannot avoid seeing claude's and codex's copies", agents: []string{"claude-code", "codex", "github-copilot"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{
				{Location: Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"codex", "github-copilot"}},
				{Location: Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code", "github-copilot"}},
			},
			dups: []string{"github-copilot"},
		},
		{
			name: "commands are claude only", agents: []string{"claude-code", "codex"}, kind: format.KindCommand, scope: ScopeGlobal,
			want:  []Target{{Location: Location{Root: j("/home/u", ".claude", "commands"), Shape: ShapeFile, Extension: ".md"}, Readers: []string{"claude-code"}}},
			skips: []string{"codex"},
		},
		{
			name: "workflows have no location", agents: []string{"claude-code", "codex"}, kind: format.KindWorkflow, scope: ScopeProject,
			skips: []string{"claude-code", "codex"},
		},
		{
			name: "goose and amp share the XDG agents folder", agents: []string{"goose", "amp"}, kind: format.KindSkill, scope: ScopeGlobal,
			want: []Target{{Location: Location{Root: j("/home/u", ".config", "agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"goose", "amp"}}},
		},
		{
			name: "a repeated agent counts once", agents: []string{"codex", "codex"}, kind: format.KindSkill, scope: ScopeGlobal,
			want: []Target{{Location: Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"codex"}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := PlanRoots(adaptersByID(t, tc.agents), tc.kind, tc.scope, env)
			if !targetsEqual(plan.Targets, tc.want) {
				t.Errorf("PlanRoots(%q, %s, %s).Targets = %+v, want %+v", tc.agents, tc.kind, tc.scope, plan.Targets, tc.want)
			}
			var skips, dups []string
			for _, s := range plan.Skips {
				if s.Reason == "" {
					t.Errorf("PlanRoots(%q) skip of %s has no reason", tc.agents, s.Agent)
				}
				skips = append(skips, s.Agent)
			}
			for _, d := range plan.Duplicates {
				dups = append(dups, d.Agent)
			}
			if !slices.Equal(skips, tc.skips) {
				t.Errorf("PlanRoots(%q).Skips = %q, want %q", tc.agents, skips, tc.skips)
			}
			if !slices.Equal(dups, tc.dups) {
				t.Errorf("PlanRoots(%q).Duplicates = %q, want %q", tc.agents, dups, tc.dups)
			}
		})
	}
}

func targetsEqual(a, b []Target) bool {
	return slices.EqualFunc(a, b, func(x, y Target) bool {
		return x.Location == y.Location && slices.Equal(x.Readers, y.Readers)
	})
}

// planEnvs are the machines the property test plans for: plain, with the
// agents' own variables moving their folders, with overrides that make two
// agents' roots collide, and started from a subfolder of the project.
func planEnvs() map[string]Env {
	plain := testEnv(nil)
	moved := testEnv(map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex", "XDG_CONFIG_HOME": "/xdg"})
	collide := testEnv(nil)
	collide.Overrides = map[string]RootOverride{
		"codex":      {GlobalRoot: "~/.claude/skills", ProjectRoot: ".claude/skills"},
		"gemini-cli": {GlobalRoot: "~/.codex/skills", ProjectRoot: ".github/skills"},
	}
	sub := testEnv(nil)
	sub.WorkDir = "/work/p/a/b"
	return map[string]Env{"plain": plain, "moved": moved, "collide": collide, "subdir": sub, "aliased": aliasedEnv()}
}

// aliasedEnv is a machine whose .agents/skills and .github/skills folders
// are links to .claude/skills, in the project and at home, as Canonical
// reports them.
func aliasedEnv() Env {
	env := testEnv(nil)
	alias := map[string]string{}
	for _, top := range []string{"/work/p", "/home/u"} {
		for _, from := range []string{".agents/skills", ".github/skills", ".copilot/skills"} {
			alias[filepath.Join(top, from)] = filepath.Join(top, ".claude", "skills")
		}
	}
	env.Canonical = func(p string) string {
		if to, ok := alias[p]; ok {
			return to
		}
		return p
	}
	return env
}

// TestPlanRootsAliasedRoots checks that two roots that are one folder are
// planned as one root with every reader: written once, no duplicate.
func TestPlanRootsAliasedRoots(t *testing.T) {
	j := filepath.Join
	env := aliasedEnv()
	cases := []struct {
		agents []string
		scope  Scope
		want   []Target
	}{
		{[]string{"claude-code", "codex"}, ScopeProject,
			[]Target{{Location: Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code", "codex"}}}},
		{[]string{"claude-code", "codex", "github-copilot"}, ScopeProject,
			[]Target{{Location: Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code", "codex", "github-copilot"}}}},
		{[]string{"codex"}, ScopeGlobal,
			[]Target{{Location: Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"codex"}}}},
		{[]string{"claude-code", "codex"}, ScopeGlobal,
			[]Target{{Location: Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code", "codex"}}}},
	}
	for _, tc := range cases {
		plan := PlanRoots(adaptersByID(t, tc.agents), format.KindSkill, tc.scope, env)
		if !targetsEqual(plan.Targets, tc.want) {
			t.Errorf("PlanRoots(%q, %s) with aliased roots = %+v, want %+v", tc.agents, tc.scope, plan.Targets, tc.want)
		}
		if len(plan.Duplicates) > 0 {
			t.Errorf("PlanRoots(%q, %s) with aliased roots reports duplicates %+v, want none", tc.agents, tc.scope, plan.Duplicates)
		}
	}
}

// TestPlanRootsExactlyOnce checks, for every subset of the nine original
// built-in agents, every machine of planEnvs, both scopes and every kind,
// that PlanRoots gives each selected agent the package exactly once — or,
// when the table makes that impossible, as few duplicates as any choice of
// roots can — using only the read roots the table declares.
// TestPlanRootsWholeTable covers the larger table.
func TestPlanRootsExactlyOnce(t *testing.T) {
	all := Default().All()[:9]
	for envName, env := range planEnvs() {
		for _, kind := range format.Kinds() {
			for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
				c := planCheck{table: all, facts: newPlanFacts(all, kind, scope, env), oracle: 16, bystanders: true, fewestSeen: true}
				for set := uint64(1); set < 1<<len(all); set++ {
					checkPlan(t, c, envName, subset(all, set), kind, scope, env)
				}
			}
		}
	}
}

// TestPlanRootsWholeTable is the property test over the whole table, run
// on what Default holds and on syntheticTable (25 agents shaped like the
// ones issue 16 adds), on every machine of planEnvs, both scopes and every
// kind. Every subset of 25 agents is 2^25 plans per machine, scope and
// kind, too many for a test run, so it checks with checkPlan the subsets
// where a plan can go wrong:
//
//   - every subset of at most three agents. An agent sees a package twice
//     only through two written roots, each written for some selected agent
//     (itself or another), so every pattern that forces a choice between
//     roots — two agents sharing a root, one reading another's root for
//     its sake, an override landing on another's root, one agent reading
//     the roots of two others (Copilot with Claude Code and Codex) — first
//     appears among two or three agents;
//   - every subset of each sharing group: the agents that read one root,
//     for every root two or more agents read, when the group has at most
//     maxGroup agents. Which of them to serve from the shared root and
//     which from their own is exactly the choice the planner makes, so
//     every such choice is tried together with every way it interacts
//     with the others in the group (Warp, Crush and Kimi with the agents
//     whose roots they read). The larger groups, the twenty-odd readers of
//     .agents/skills and ~/.agents/skills, are covered by the next two;
//   - randomSubsets seeded random subsets, of every size;
//   - the whole table.
//
// The subsets of at most three and the whole table are also compared with
// the old exhaustive search (where it has at most 16 candidates), and the
// pairs, the random subsets and the whole table are checked for
// bystanders. Machines that give every agent the plain machine's roots
// are skipped (the variables of "moved" in project scope, the working
// directory of "subdir" in global scope).
func TestPlanRootsWholeTable(t *testing.T) {
	const maxGroup, randomSubsets = 12, 1000
	tables := []struct {
		name  string
		table []Adapter
	}{{"default", Default().All()}, {"synthetic", syntheticTable(t)}}
	for _, tc := range tables {
		t.Run(tc.name, func(t *testing.T) {
			all := tc.table
			if len(all) > 64 {
				t.Fatalf("%d agents: subsets are uint64 masks", len(all))
			}
			// How much each subset is checked beyond what the planner
			// promises: against the old exhaustive search, for bystanders.
			const core, oracle, bystanders = 0, 1, 2
			sets := map[uint64]int{}
			note := func(set uint64, depth int) { sets[set] |= depth }
			full := uint64(1)<<len(all) - 1
			note(full, oracle|bystanders)
			for i := range all {
				for j := i; j < len(all); j++ {
					note(1<<i|1<<j, oracle|bystanders)
					for k := j + 1; k < len(all); k++ {
						note(1<<i|1<<j|1<<k, oracle)
					}
				}
			}
			groups := 0
			for _, g := range sharingGroups(all) {
				if bits.OnesCount64(g) > maxGroup {
					continue
				}
				groups++
				for sub := g; sub != 0; sub = (sub - 1) & g {
					note(sub, core)
				}
			}
			if groups == 0 {
				t.Fatalf("no sharing group of at most %d agents in %d agents", maxGroup, len(all))
			}
			r := rand.New(rand.NewPCG(16, 30))
			for range randomSubsets {
				var set uint64
				p := r.Float64()
				for i := range all {
					if r.Float64() < p {
						set |= 1 << i
					}
				}
				if set != 0 {
					note(set, bystanders)
				}
			}
			keys := slices.Sorted(maps.Keys(sets))
			t.Logf("%d agents: %d subsets (%d sharing groups of at most %d)", len(all), len(keys), groups, maxGroup)
			for envName, env := range planEnvs() {
				for _, kind := range format.Kinds() {
					for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
						if (envName == "moved" && scope == ScopeProject || envName == "subdir" && scope == ScopeGlobal) &&
							planInputs(all, kind, scope, env) == planInputs(all, kind, scope, testEnv(nil)) {
							// The variables of moved move only global roots, and
							// the working directory matters only to project ones:
							// these plans are the plain machine's.
							continue
						}
						facts := newPlanFacts(all, kind, scope, env)
						for _, set := range keys {
							// Only skills are read by more than one agent (Claude
							// Code alone has commands): other kinds take the
							// single agents, the pairs and the whole table.
							if kind != format.KindSkill && bits.OnesCount64(set) > 2 && set != full {
								continue
							}
							c := planCheck{table: all, facts: facts, bystanders: sets[set]&bystanders != 0}
							if sets[set]&oracle != 0 {
								c.oracle = 16
							}
							checkPlan(t, c, envName, subset(all, set), kind, scope, env)
						}
					}
				}
			}
		})
	}
}

// planInputs prints everything PlanRoots reads of the agents of all:
// where each is written, every root it reads, and the roots it may be
// written to. Two machines with equal inputs get equal plans.
func planInputs(all []Adapter, kind format.Kind, scope Scope, env Env) string {
	var b strings.Builder
	for _, a := range all {
		loc, ok := a.LocationFor(kind, scope, env)
		fmt.Fprintf(&b, "%s %v %v %v %v\n", a.ID(), loc, ok, Roots(a, kind, scope, env), a.(*tableAdapter).writable(kind, scope, env))
	}
	return b.String()
}

// subset returns the agents of all whose bits are set in set, in order.
func subset(all []Adapter, set uint64) []Adapter {
	var out []Adapter
	for i, a := range all {
		if set&(1<<i) != 0 {
			out = append(out, a)
		}
	}
	return out
}

// sharingGroups returns, for every root that two or more agents of all
// read (skills, either scope, on the plain machine), the set of its
// readers, without repeats.
func sharingGroups(all []Adapter) []uint64 {
	env := testEnv(nil)
	readers := map[string]uint64{}
	for i, a := range all {
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			for _, r := range a.ReadRoots(format.KindSkill, scope, env) {
				readers[r] |= 1 << i
			}
		}
	}
	seen := map[uint64]bool{}
	var out []uint64
	for _, g := range readers {
		if bits.OnesCount64(g) >= 2 && !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// planCheck says what checkPlan checks beyond what it always does.
type planCheck struct {
	// table is the table the agents are taken from, for NoteBystanders.
	table []Adapter
	// facts are the table's, for the kind, scope and machine checked.
	facts *planFacts
	// oracle is the most candidates for which the plan is compared with
	// the old exhaustive search's; 0 skips the comparison.
	oracle int
	// bystanders checks NoteBystanders.
	bystanders bool
	// fewestSeen also requires the fewest agents seeing the package twice
	// at all, which holds when no agent that lists it twice could be
	// traded for two that do not (true of the nine original agents).
	fewestSeen bool
}

// checkPlan checks PlanRoots(agents, kind, scope, env), for agents taken
// from c.table: every selected agent with a location sees the package at
// least once, exactly once unless reported as a duplicate, and only as
// many agents are reported as no choice of roots avoids (minDuplicates:
// the fewest listing it twice, then the fewest seeing it twice); every
// root is written once, every reader listed is a real reader, every root
// written is one a selected agent may be written to; the plan is exact;
// NoteBystanders names exactly the unselected agents of the table that
// read each root; and, where the old exhaustive search has at most
// c.oracle candidates, the plan is the one it made.
func checkPlan(t *testing.T, c planCheck, envName string, agents []Adapter, kind format.Kind, scope Scope, env Env) {
	t.Helper()
	ids := make([]string, len(agents))
	for i, a := range agents {
		ids[i] = a.ID()
	}
	plan := PlanRoots(agents, kind, scope, env)
	if plan.Inexact {
		t.Errorf("%s PlanRoots(%q, %s, %s) is inexact", envName, ids, kind, scope)
	}

	written := map[string]bool{}
	for _, tg := range plan.Targets {
		if written[tg.Root] {
			t.Fatalf("%s PlanRoots(%q, %s, %s) writes %s twice", envName, ids, kind, scope, tg.Root)
		}
		written[tg.Root] = true
	}
	skipped := map[string]bool{}
	for _, s := range plan.Skips {
		skipped[s.Agent] = true
		i := slices.Index(ids, s.Agent)
		if i < 0 {
			t.Errorf("%s PlanRoots(%q, %s, %s) skips %s, which was not given", envName, ids, kind, scope, s.Agent)
		} else if _, ok := agents[i].LocationFor(kind, scope, env); ok {
			t.Errorf("%s PlanRoots(%q, %s, %s) skips %s, which has a location", envName, ids, kind, scope, s.Agent)
		}
	}
	dups := map[string]bool{}
	for _, d := range plan.Duplicates {
		dups[d.Agent] = true
	}
	var active []Adapter
	for _, a := range agents {
		if !skipped[a.ID()] {
			active = append(active, a)
		}
	}
	for _, a := range active {
		reads := c.facts.reads[a.ID()]
		n := 0
		for _, tg := range plan.Targets {
			in := slices.Contains(reads, tg.Root)
			listed := slices.Contains(tg.Readers, a.ID())
			if in != listed {
				t.Errorf("%s PlanRoots(%q, %s, %s): %s reads %s = %v, but listed as reader = %v", envName, ids, kind, scope, a.ID(), tg.Root, in, listed)
			}
			if in {
				n++
			}
		}
		switch {
		case n == 0:
			t.Errorf("%s PlanRoots(%q, %s, %s): %s sees the package 0 times, want 1", envName, ids, kind, scope, a.ID())
		case n > 1 && !dups[a.ID()]:
			t.Errorf("%s PlanRoots(%q, %s, %s): %s sees the package %d times and is not reported", envName, ids, kind, scope, a.ID(), n)
		case n == 1 && dups[a.ID()]:
			t.Errorf("%s PlanRoots(%q, %s, %s): %s reported as duplicate but sees it once", envName, ids, kind, scope, a.ID())
		}
	}
	for _, tg := range plan.Targets {
		if !slices.ContainsFunc(active, func(b Adapter) bool { return slices.Contains(c.facts.writable[b.ID()], tg.Root) }) {
			t.Errorf("%s PlanRoots(%q, %s, %s) writes %s, which no selected agent may be written to", envName, ids, kind, scope, tg.Root)
		}
	}
	if len(active) > 0 && len(plan.Targets) == 0 {
		t.Errorf("%s PlanRoots(%q, %s, %s) has no targets for %d agents", envName, ids, kind, scope, len(active))
	}
	if len(plan.Duplicates) > 0 {
		listed := 0
		for _, d := range plan.Duplicates {
			if !d.ByName {
				listed++
			}
		}
		wantListed, wantSeen, fewestSeen := minDuplicates(active, c.facts)
		if listed != wantListed || len(plan.Duplicates) != wantSeen {
			t.Errorf("%s PlanRoots(%q, %s, %s) leaves %d agents listing the package twice and %d seeing it twice; %d and %d are possible", envName, ids, kind, scope, listed, len(plan.Duplicates), wantListed, wantSeen)
		}
		if c.fewestSeen && len(plan.Duplicates) != fewestSeen {
			t.Errorf("%s PlanRoots(%q, %s, %s) leaves %d agents seeing the package twice; %d is possible", envName, ids, kind, scope, len(plan.Duplicates), fewestSeen)
		}
	}

	if c.oracle > 0 {
		if want, ok := exhaustivePlanRoots(agents, kind, scope, env, c.oracle); ok {
			if !reflect.DeepEqual(plan, want) {
				t.Errorf("%s PlanRoots(%q, %s, %s) = %+v\nthe exhaustive search made %+v", envName, ids, kind, scope, plan, want)
			}
		}
	}

	if !c.bystanders {
		return
	}
	plan.NoteBystanders(c.table, kind, scope, env)
	for _, tg := range plan.Targets {
		var want []string
		for _, a := range c.table {
			if !slices.Contains(ids, a.ID()) && slices.Contains(c.facts.reads[a.ID()], tg.Root) {
				want = append(want, a.ID())
			}
		}
		if !slices.Equal(tg.AlsoReadBy, want) {
			t.Errorf("%s PlanRoots(%q, %s, %s): %s AlsoReadBy = %q, want %q", envName, ids, kind, scope, tg.Root, tg.AlsoReadBy, want)
		}
	}
}

func mustLookup(t *testing.T, id string) Adapter {
	t.Helper()
	a, err := Default().Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// planFacts is what the checks read of each agent of a table for one
// kind, scope and machine, by id, computed once for many plans.
type planFacts struct {
	// reads are the agent's ReadRoots.
	reads map[string][]string
	// writable are the roots the agent may be written to.
	writable map[string][]string
	// cands are the roots minDuplicates may choose for the agent: one it
	// reads at the project root itself (a folder below it, read only when
	// the agent starts there, is no place to install to) that is neither
	// deprecated for it nor read only for another agent's sake.
	cands map[string][]string
}

func newPlanFacts(table []Adapter, kind format.Kind, scope Scope, env Env) *planFacts {
	f := &planFacts{reads: map[string][]string{}, writable: map[string][]string{}, cands: map[string][]string{}}
	top := env
	top.WorkDir = ""
	for _, a := range table {
		id := a.ID()
		f.reads[id] = a.ReadRoots(kind, scope, env)
		f.writable[id] = a.(*tableAdapter).writable(kind, scope, env)
		for _, r := range Roots(a, kind, scope, top) {
			if !r.Deprecated && slices.Contains(f.writable[id], r.Path) {
				f.cands[id] = append(f.cands[id], r.Path)
			}
		}
	}
	return f
}

// dupCandidates returns the roots minDuplicates chooses among, the cands
// of every agent, and, per agent, the indices of those it reads.
func dupCandidates(agents []Adapter, f *planFacts) ([]string, [][]int) {
	var cands []string
	for _, a := range agents {
		for _, r := range f.cands[a.ID()] {
			if !slices.Contains(cands, r) {
				cands = append(cands, r)
			}
		}
	}
	reads := make([][]int, len(agents))
	for i, a := range agents {
		for j, c := range cands {
			if slices.Contains(f.reads[a.ID()], c) {
				reads[i] = append(reads[i], j)
			}
		}
	}
	return cands, reads
}

// minDuplicates finds, independently of PlanRoots and by another search,
// the fewest agents that must see the package twice when every agent must
// see it at least once, choosing among dupCandidates, as PlanRoots ranks
// them: the fewest that list it twice (byName false), then the fewest that
// see it twice at all; and, alone, the fewest that see it twice at all.
// It branches on the first agent not yet served: one of the roots it reads
// must be chosen, so it tries each in turn, leaving out for the later
// tries those tried before. Every choice of roots holds one this search
// reaches, and adding roots never lowers a count, so the least counts it
// reaches are the least of all.
func minDuplicates(agents []Adapter, f *planFacts) (listed, seen, fewestSeen int) {
	cands, reads := dupCandidates(agents, f)
	readers := make([][]int, len(cands))
	for i, rs := range reads {
		for _, j := range rs {
			readers[j] = append(readers[j], i)
		}
	}
	byName := make([]bool, len(agents))
	for i, a := range agents {
		byName[i] = a.(*tableAdapter).row.dedupesByName
	}
	count := make([]int, len(agents))
	banned := make([]bool, len(cands))
	none := len(agents) + 1
	best := [2]int{none, none}
	fewestSeen = none
	var search func(cur [2]int)
	search = func(cur [2]int) {
		if slices.Compare(cur[:], best[:]) >= 0 && cur[1] >= fewestSeen {
			return
		}
		i := slices.Index(count, 0)
		if i < 0 {
			if slices.Compare(cur[:], best[:]) < 0 {
				best = cur
			}
			fewestSeen = min(fewestSeen, cur[1])
			return
		}
		var tried []int
		for _, j := range reads[i] {
			if banned[j] {
				continue
			}
			next := cur
			for _, k := range readers[j] {
				if count[k]++; count[k] == 2 {
					next[1]++
					if !byName[k] {
						next[0]++
					}
				}
			}
			search(next)
			for _, k := range readers[j] {
				count[k]--
			}
			banned[j] = true
			tried = append(tried, j)
		}
		for _, j := range tried {
			banned[j] = false
		}
	}
	search([2]int{})
	return best[0], best[1], fewestSeen
}

// minDuplicatesBrute is minDuplicates by trying every subset of at most 20
// candidates; ok is false beyond.
func minDuplicatesBrute(agents []Adapter, f *planFacts) (listed, seen, fewestSeen int, ok bool) {
	cands, reads := dupCandidates(agents, f)
	if len(cands) > 20 {
		return 0, 0, 0, false
	}
	masks := make([]uint64, len(agents))
	for i, rs := range reads {
		for _, j := range rs {
			masks[i] |= 1 << j
		}
	}
	none := len(agents) + 1
	best := [2]int{none, none}
	fewestSeen = none
	for mask := uint64(1); mask < 1<<len(cands); mask++ {
		var d [2]int
		for i, m := range masks {
			n := bits.OnesCount64(mask & m)
			if n == 0 {
				d = [2]int{none, none}
				break
			}
			if n > 1 {
				d[1]++
				if !agents[i].(*tableAdapter).row.dedupesByName {
					d[0]++
				}
			}
		}
		if slices.Compare(d[:], best[:]) < 0 {
			best = d
		}
		fewestSeen = min(fewestSeen, d[1])
	}
	return best[0], best[1], fewestSeen, true
}

// TestMinDuplicatesAgree checks the test's two searches for the fewest
// duplicates against each other, on subsets of the synthetic table small
// enough for the brute force, and that enough of them have duplicates
// where the counts differ (a byName agent, or a trade of one listing
// twice for two seeing twice).
func TestMinDuplicatesAgree(t *testing.T) {
	all := syntheticTable(t)
	r := rand.New(rand.NewPCG(1, 2))
	env := testEnv(nil)
	facts := map[Scope]*planFacts{}
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		facts[scope] = newPlanFacts(all, format.KindSkill, scope, env)
	}
	compared, some := 0, 0
	for range 400 {
		var agents []Adapter
		for _, a := range all {
			if r.IntN(4) == 0 {
				agents = append(agents, a)
			}
		}
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			wantListed, wantSeen, wantFewest, ok := minDuplicatesBrute(agents, facts[scope])
			if !ok || len(agents) == 0 {
				continue
			}
			compared++
			if wantListed != wantSeen || wantSeen != wantFewest {
				some++
			}
			listed, seen, fewest := minDuplicates(agents, facts[scope])
			if listed != wantListed || seen != wantSeen || fewest != wantFewest {
				t.Errorf("minDuplicates(%v, %s) = %d, %d, %d; brute force says %d, %d, %d", agents, scope, listed, seen, fewest, wantListed, wantSeen, wantFewest)
			}
		}
	}
	if compared < 100 || some < 20 {
		t.Errorf("compared %d subsets, %d with duplicates: too few", compared, some)
	}
}

// TestNoteBystanders checks that each target names the unselected agents
// of the table that read its root, in table order, comparing roots by
// their canonical spelling; that skipped agents count as selected; and
// that a second call replaces the first. The table is the nine original
// agents, so that rows added later do not change what is expected.
func TestNoteBystanders(t *testing.T) {
	j := filepath.Join
	table := Default().All()[:9]
	cases := []struct {
		name   string
		agents []string
		kind   format.Kind
		scope  Scope
		env    Env
		want   map[string][]string // root: AlsoReadBy
	}{
		{
			name: "claude's project root is read by four others", agents: []string{"claude-code"}, kind: format.KindSkill, scope: ScopeProject, env: testEnv(nil),
			want: map[string][]string{j("/work/p", ".claude", "skills"): {"github-copilot", "cursor", "opencode", "goose"}},
		},
		{
			name: "codex's global root", agents: []string{"codex"}, kind: format.KindSkill, scope: ScopeGlobal, env: testEnv(nil),
			want: map[string][]string{j("/home/u", ".agents", "skills"): {"github-copilot", "gemini-cli", "cursor", "opencode", "windsurf"}},
		},
		{
			name: "selected readers are not bystanders", agents: []string{"claude-code", "codex", "github-copilot"}, kind: format.KindSkill, scope: ScopeProject, env: testEnv(nil),
			want: map[string][]string{
				j("/work/p", ".agents", "skills"): {"gemini-cli", "cursor", "opencode", "windsurf", "goose", "amp"},
				j("/work/p", ".claude", "skills"): {"cursor", "opencode", "goose"},
			},
		},
		{
			name: "a moved claude folder is nobody else's", agents: []string{"claude-code"}, kind: format.KindSkill, scope: ScopeGlobal,
			env:  testEnv(map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}),
			want: map[string][]string{j("/cfg/claude", "skills"): nil},
		},
		{
			name: "linked folders are one root", agents: []string{"claude-code"}, kind: format.KindSkill, scope: ScopeProject, env: aliasedEnv(),
			want: map[string][]string{j("/work/p", ".claude", "skills"): {"codex", "github-copilot", "gemini-cli", "cursor", "opencode", "windsurf", "goose", "amp"}},
		},
		{
			// Codex, skipped (it reads no commands), is selected, so never
			// named; Copilot lists the commands in .claude/commands.
			name: "a skipped agent is selected", agents: []string{"claude-code", "codex"}, kind: format.KindCommand, scope: ScopeProject, env: testEnv(nil),
			want: map[string][]string{j("/work/p", ".claude", "commands"): {"github-copilot"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plan := PlanRoots(adaptersByID(t, tc.agents), tc.kind, tc.scope, tc.env)
			for range 2 {
				plan.NoteBystanders(append(table, table...), tc.kind, tc.scope, tc.env)
				got := map[string][]string{}
				for _, tg := range plan.Targets {
					got[tg.Root] = tg.AlsoReadBy
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("NoteBystanders after PlanRoots(%q, %s, %s) = %q, want %q", tc.agents, tc.kind, tc.scope, got, tc.want)
				}
			}
		})
	}
}

// TestNoteBystandersJSON checks the field's JSON name, and that it is left
// out when no other agent reads the root.
func TestNoteBystandersJSON(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("paths in the expected JSON are slash-separated")
	}
	env := testEnv(nil)
	nine := Default().All()[:9]
	plan := PlanRoots(adaptersByID(t, []string{"claude-code", "windsurf"}), format.KindSkill, ScopeProject, env)
	plan.NoteBystanders(nine, format.KindSkill, ScopeProject, env)
	data, err := json.Marshal(plan.Targets)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"root":"/work/p/.claude/skills","shape":"directory","readers":["claude-code"],"alsoReadBy":["github-copilot","cursor","opencode","goose"]},` +
		`{"root":"/work/p/.windsurf/skills","shape":"directory","readers":["windsurf"]}]`
	if string(data) != want {
		t.Errorf("json.Marshal(targets) = %s, want %s", data, want)
	}
}

// TestPlanRootsOverrideWithoutOwnRoot checks that an agent whose row
// reads only another agent's root, given a root of its own by an
// override, gets the package there: LocationFor names the override, which
// is no root the row may be written to, and the planner once left the
// agent with nothing.
func TestPlanRootsOverrideWithoutOwnRoot(t *testing.T) {
	a := &tableAdapter{row: agentRow{id: "x-borrower", displayName: "Borrower", kinds: map[format.Kind]kindSpec{
		format.KindSkill: {shape: ShapeDirectory, project: []rootSpec{readCompat(projectDir(".claude/skills"))}},
	}}}
	env := testEnv(nil)
	env.Overrides = map[string]RootOverride{"x-borrower": {ProjectRoot: ".mine/skills"}}
	plan := PlanRoots([]Adapter{a, mustLookup(t, "amp")}, format.KindSkill, ScopeProject, env)
	want := []Target{
		{Location: Location{Root: filepath.Join("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, Readers: []string{"amp"}},
		{Location: Location{Root: filepath.Join("/work/p", ".mine", "skills"), Shape: ShapeDirectory}, Readers: []string{"x-borrower"}},
	}
	if !targetsEqual(plan.Targets, want) || len(plan.Duplicates) > 0 || plan.Inexact {
		t.Errorf("PlanRoots(borrower with an override, amp) = %+v, want targets %+v", plan, want)
	}
	// The root it is written to is one it reads, and the one Roots marks
	// preferred.
	mine := filepath.Join("/work/p", ".mine", "skills")
	if reads := a.ReadRoots(format.KindSkill, ScopeProject, env); !slices.Contains(reads, mine) {
		t.Errorf("ReadRoots(borrower with an override) = %q, want it to hold %s", reads, mine)
	}
	if rs := Roots(a, format.KindSkill, ScopeProject, env); len(rs) == 0 || rs[0].Path != mine || !rs[0].Preferred {
		t.Errorf("Roots(borrower with an override) = %+v, want %s first, preferred", rs, mine)
	}
}

func TestPlanRootsForeignAdapter(t *testing.T) {
	claude := mustLookup(t, "claude")
	plan := PlanRoots([]Adapter{claude, fakeAdapter{id: "fake", root: "/fake/skills"}, fakeAdapter{id: "none"}}, format.KindSkill, ScopeGlobal, testEnv(nil))
	want := []Target{
		{Location: Location{Root: "/fake/skills", Shape: ShapeDirectory}, Readers: []string{"fake"}},
		{Location: Location{Root: filepath.Join("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code"}},
	}
	if !targetsEqual(plan.Targets, want) {
		t.Errorf("PlanRoots(with fakes).Targets = %+v, want %+v", plan.Targets, want)
	}
	if len(plan.Skips) != 1 || plan.Skips[0].Agent != "none" {
		t.Errorf("PlanRoots(with fakes).Skips = %+v, want the adapter without a root", plan.Skips)
	}
}
