package agents

import (
	"math/bits"
	"path/filepath"
	"slices"
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
				{Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, []string{"codex"}},
				{Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code"}},
			},
		},
		{
			name: "codex and gemini share one copy", agents: []string{"codex", "gemini-cli"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{{Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, []string{"codex", "gemini-cli"}}},
		},
		{
			name: "claude copy serves copilot", agents: []string{"claude-code", "github-copilot"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{{Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code", "github-copilot"}}},
		},
		{
			name: "copilot cannot avoid seeing claude's and codex's copies", agents: []string{"claude-code", "codex", "github-copilot"}, kind: format.KindSkill, scope: ScopeProject,
			want: []Target{
				{Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, []string{"codex", "github-copilot"}},
				{Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code", "github-copilot"}},
			},
			dups: []string{"github-copilot"},
		},
		{
			name: "commands are claude only", agents: []string{"claude-code", "codex"}, kind: format.KindCommand, scope: ScopeGlobal,
			want:  []Target{{Location{Root: j("/home/u", ".claude", "commands"), Shape: ShapeFile, Extension: ".md"}, []string{"claude-code"}}},
			skips: []string{"codex"},
		},
		{
			name: "workflows have no location", agents: []string{"claude-code", "codex"}, kind: format.KindWorkflow, scope: ScopeProject,
			skips: []string{"claude-code", "codex"},
		},
		{
			name: "goose and amp share the XDG agents folder", agents: []string{"goose", "amp"}, kind: format.KindSkill, scope: ScopeGlobal,
			want: []Target{{Location{Root: j("/home/u", ".config", "agents", "skills"), Shape: ShapeDirectory}, []string{"goose", "amp"}}},
		},
		{
			name: "a repeated agent counts once", agents: []string{"codex", "codex"}, kind: format.KindSkill, scope: ScopeGlobal,
			want: []Target{{Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, []string{"codex"}}},
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
			[]Target{{Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code", "codex"}}}},
		{[]string{"claude-code", "codex", "github-copilot"}, ScopeProject,
			[]Target{{Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code", "codex", "github-copilot"}}}},
		{[]string{"codex"}, ScopeGlobal,
			[]Target{{Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, []string{"codex"}}}},
		{[]string{"claude-code", "codex"}, ScopeGlobal,
			[]Target{{Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code", "codex"}}}},
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

// TestPlanRootsExactlyOnce checks, for every subset of the built-in agents,
// both scopes and every kind, that PlanRoots gives each selected agent the
// package exactly once — or, when the table makes that impossible, as few
// duplicates as any choice of roots can — using only the read roots the
// table declares.
func TestPlanRootsExactlyOnce(t *testing.T) {
	// The first nine agents only: h30-plan replaces the planner search
	// and extends this test to the whole table.
	all := Default().All()[:9]
	if len(all) > 16 {
		t.Fatalf("too many agents (%d) for an exhaustive subset test", len(all))
	}
	for envName, env := range planEnvs() {
		for _, kind := range format.Kinds() {
			for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
				for set := 1; set < 1<<len(all); set++ {
					var agents []Adapter
					for i, a := range all {
						if set&(1<<i) != 0 {
							agents = append(agents, a)
						}
					}
					checkPlan(t, envName, agents, kind, scope, env)
				}
			}
		}
	}
}

func checkPlan(t *testing.T, envName string, agents []Adapter, kind format.Kind, scope Scope, env Env) {
	t.Helper()
	ids := make([]string, len(agents))
	for i, a := range agents {
		ids[i] = a.ID()
	}
	plan := PlanRoots(agents, kind, scope, env)

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
		if _, ok := mustLookup(t, s.Agent).LocationFor(kind, scope, env); ok {
			t.Errorf("%s PlanRoots(%q, %s, %s) skips %s, which has a location", envName, ids, kind, scope, s.Agent)
		}
	}
	dups := map[string]bool{}
	for _, d := range plan.Duplicates {
		dups[d.Agent] = true
	}
	// Every selected agent with a location sees the package at least once,
	// exactly once unless reported as a duplicate; every reader listed is
	// a real reader; no deprecated root is written.
	var active []Adapter
	for _, a := range agents {
		if !skipped[a.ID()] {
			active = append(active, a)
		}
	}
	for _, a := range active {
		reads := a.ReadRoots(kind, scope, env)
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
			if !slices.ContainsFunc(active, func(b Adapter) bool { return isWritable(b, kind, scope, env, tg.Root) }) {
				t.Errorf("%s PlanRoots(%q, %s, %s) writes %s, which no selected agent may be written to", envName, ids, kind, scope, tg.Root)
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
	if len(active) > 0 && len(plan.Targets) == 0 {
		t.Errorf("%s PlanRoots(%q, %s, %s) has no targets for %d agents", envName, ids, kind, scope, len(active))
	}
	if len(plan.Duplicates) > 0 {
		if best := minDuplicates(active, kind, scope, env); best != len(plan.Duplicates) {
			t.Errorf("%s PlanRoots(%q, %s, %s) leaves %d agents seeing the package twice; %d is possible", envName, ids, kind, scope, len(plan.Duplicates), best)
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

// isWritable reports whether root is one a may be written to.
func isWritable(a Adapter, kind format.Kind, scope Scope, env Env, root string) bool {
	return slices.Contains(a.(*tableAdapter).writable(kind, scope, env), root)
}

// minDuplicates finds by brute force, independently of PlanRoots, the
// fewest agents that must see the package twice when every agent must see
// it at least once, choosing among every root some selected agent may be
// written to: one it reads at the project root itself (a folder below it,
// read only when the agent starts there, is no place to install to) that
// is neither deprecated for it nor read only for another agent's sake.
func minDuplicates(agents []Adapter, kind format.Kind, scope Scope, env Env) int {
	top := env
	top.WorkDir = ""
	var cands []string
	for _, a := range agents {
		for _, r := range Roots(a, kind, scope, top) {
			if !r.Deprecated && isWritable(a, kind, scope, env, r.Path) && !slices.Contains(cands, r.Path) {
				cands = append(cands, r.Path)
			}
		}
	}
	masks := make([]uint64, len(agents))
	for i, a := range agents {
		reads := a.ReadRoots(kind, scope, env)
		for j, c := range cands {
			if slices.Contains(reads, c) {
				masks[i] |= 1 << j
			}
		}
	}
	best := len(agents) + 1
	for mask := uint64(1); mask < 1<<len(cands); mask++ {
		d := 0
		for _, m := range masks {
			n := bits.OnesCount64(mask & m)
			if n == 0 {
				d = len(agents) + 1
				break
			}
			if n > 1 {
				d++
			}
		}
		best = min(best, d)
	}
	return best
}

func TestPlanRootsForeignAdapter(t *testing.T) {
	claude := mustLookup(t, "claude")
	plan := PlanRoots([]Adapter{claude, fakeAdapter{id: "fake", root: "/fake/skills"}, fakeAdapter{id: "none"}}, format.KindSkill, ScopeGlobal, testEnv(nil))
	want := []Target{
		{Location{Root: "/fake/skills", Shape: ShapeDirectory}, []string{"fake"}},
		{Location{Root: filepath.Join("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, []string{"claude-code"}},
	}
	if !targetsEqual(plan.Targets, want) {
		t.Errorf("PlanRoots(with fakes).Targets = %+v, want %+v", plan.Targets, want)
	}
	if len(plan.Skips) != 1 || plan.Skips[0].Agent != "none" {
		t.Errorf("PlanRoots(with fakes).Skips = %+v, want the adapter without a root", plan.Skips)
	}
}
