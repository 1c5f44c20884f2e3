package agents

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// The tests in this file hold the five verified rows to what the real
// agents did under ../shared/tools/agent-oracle (Claude Code 2.1.328, Codex
// 0.169.0, GitHub Copilot CLI 1.0.102, Gemini CLI 0.61.0, OpenCode 1.18.33;
// scripts/agent-versions): each expectation is written out as literal
// paths, independently of builtin.go, so a row that drifts from the
// observed behaviour fails here.

// verifiedFive are the agents the oracle can run, by table id.
var verifiedFive = []string{"claude-code", "codex", "github-copilot", "gemini-cli", "opencode"}

// observedReads is where each real agent read skills in the oracle runs
// with a home of /home/u, a git project at /work/p, started in workDir
// (the project root or a folder below it), with no agent variable set.
func observedReads(agent string, scope Scope, workDir string) []string {
	j := filepath.Join
	h := "/home/u"
	// levels are the folders from the start folder up to the project
	// root, nearest first, for the agents that walk up.
	levels := walkUp(workDir, "/work/p")
	up := func(rels ...string) []string {
		var out []string
		for _, rel := range rels {
			for _, l := range levels {
				out = append(out, j(l, filepath.FromSlash(rel)))
			}
		}
		return out
	}
	switch scope {
	case ScopeGlobal:
		switch agent {
		case "claude-code":
			return []string{j(h, ".claude/skills")}
		case "codex":
			return []string{j(h, ".agents/skills"), j(h, ".codex/skills")}
		case "github-copilot":
			return []string{j(h, ".copilot/skills"), j(h, ".agents/skills")}
		case "gemini-cli":
			return []string{j(h, ".gemini/skills"), j(h, ".agents/skills")}
		case "opencode":
			return []string{
				j(h, ".config/opencode/skills"), j(h, ".config/opencode/skill"),
				j(h, ".opencode/skills"), j(h, ".opencode/skill"),
				j(h, ".claude/skills"), j(h, ".agents/skills"),
			}
		}
	case ScopeProject:
		switch agent {
		case "claude-code":
			return up(".claude/skills")
		case "codex":
			return up(".agents/skills", ".codex/skills")
		case "github-copilot":
			return up(".github/skills", ".agents/skills", ".claude/skills")
		case "gemini-cli":
			// Only the folder Gemini starts in: the project's roots
			// count when it starts at the project root.
			return []string{"/work/p/.gemini/skills", "/work/p/.agents/skills"}
		case "opencode":
			return up(".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills")
		}
	}
	panic("observedReads: " + agent)
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestVerifiedReadRoots(t *testing.T) {
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		for _, wd := range []string{"", "/work/p", "/work/p/a/b"} {
			for _, id := range verifiedFive {
				a, err := Default().Lookup(id)
				if err != nil {
					t.Fatal(err)
				}
				env := testEnv(nil)
				env.WorkDir = wd
				got := a.ReadRoots(format.KindSkill, scope, env)
				if want := observedReads(id, scope, wd); !slices.Equal(sortedCopy(got), sortedCopy(want)) {
					t.Errorf("%s.ReadRoots(skill, %s) from %q = %q, want %q", id, scope, wd, got, want)
				}
			}
		}
	}
}

// TestVerifiedAgentVariables checks the roots each agent's own variables
// move, as the oracle saw them with every variable set at once.
func TestVerifiedAgentVariables(t *testing.T) {
	j := filepath.Join
	h := "/home/u"
	vars := map[string]string{
		"CLAUDE_CONFIG_DIR":   "/cc",
		"CODEX_HOME":          "/cx",
		"COPILOT_HOME":        "/cp",
		"GEMINI_CLI_HOME":     "/gh",
		"OPENCODE_CONFIG_DIR": "/oc",
		"XDG_CONFIG_HOME":     "/xdg",
	}
	want := map[string][]string{
		"claude-code": {"/cc/skills"},
		"codex":       {j(h, ".agents/skills"), "/cx/skills"},
		// COPILOT_HOME replaces ~/.copilot, and Copilot then no longer
		// reads ~/.agents/skills.
		"github-copilot": {"/cp/skills"},
		// GEMINI_CLI_HOME replaces the home folder for both roots.
		"gemini-cli": {"/gh/.gemini/skills", "/gh/.agents/skills"},
		// ~/.claude/skills is read literally: OpenCode does not follow
		// CLAUDE_CONFIG_DIR.
		"opencode": {
			"/xdg/opencode/skills", "/xdg/opencode/skill",
			j(h, ".opencode/skills"), j(h, ".opencode/skill"),
			"/oc/skills", "/oc/skill",
			j(h, ".claude/skills"), j(h, ".agents/skills"),
		},
	}
	for _, id := range verifiedFive {
		a, _ := Default().Lookup(id)
		got := a.ReadRoots(format.KindSkill, ScopeGlobal, testEnv(vars))
		if !slices.Equal(sortedCopy(got), sortedCopy(want[id])) {
			t.Errorf("%s.ReadRoots(skill, global) with agent variables = %q, want %q", id, got, want[id])
		}
	}
	// The places the variables name are detection evidence too.
	dirs := map[string]string{"github-copilot": "/cp", "gemini-cli": "/gh/.gemini", "claude-code": "/cc", "codex": "/cx"}
	for id, dir := range dirs {
		r := rowByID(t, id)
		var got []string
		for _, p := range r.configDirs {
			got = append(got, p.resolve(testEnv(vars)))
		}
		if !slices.Contains(got, dir) {
			t.Errorf("%s config dirs with agent variables = %q, want %q among them", id, got, dir)
		}
	}
}

func rowByID(t *testing.T, id string) agentRow {
	t.Helper()
	for _, r := range builtinRows() {
		if r.id == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return agentRow{}
}

// TestVerifiedDedupesByName: only Codex lists a skill once per root that
// holds it; the other four list it once.
func TestVerifiedDedupesByName(t *testing.T) {
	for _, id := range verifiedFive {
		want := id != "codex"
		if got := rowByID(t, id).dedupesByName; got != want {
			t.Errorf("%s dedupesByName = %v, want %v", id, got, want)
		}
	}
}

// TestVerifiedClaudeAndCopilotGlobal is the install the issue reports:
// --global --agent claude,copilot wrote only ~/.claude/skills, which the
// real Copilot CLI does not read.
func TestVerifiedClaudeAndCopilotGlobal(t *testing.T) {
	j := filepath.Join
	var sel []Adapter
	for _, id := range []string{"claude-code", "github-copilot"} {
		a, _ := Default().Lookup(id)
		sel = append(sel, a)
	}
	got := PlanRoots(sel, format.KindSkill, ScopeGlobal, testEnv(nil))
	want := []Target{
		{Location: Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, Readers: []string{"claude-code"}},
		{Location: Location{Root: j("/home/u", ".copilot", "skills"), Shape: ShapeDirectory}, Readers: []string{"github-copilot"}},
	}
	if fmt.Sprint(got.Targets) != fmt.Sprint(want) {
		t.Errorf("PlanRoots(claude-code, github-copilot; global).Targets = %v, want %v", got.Targets, want)
	}
}

// TestVerifiedSubsetsSeeOnce plans a skill for every non-empty subset of
// the five agents, in both scopes and from the root and a subfolder, and
// checks the plan against what the real agents read (observedReads, not
// the table): every selected agent finds a written copy, Codex exactly one,
// the others one or more (they list it once), each target names exactly
// the selected agents that read it, and an agent that reads several
// written roots is reported as a duplicate.
func TestVerifiedSubsetsSeeOnce(t *testing.T) {
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		for _, wd := range []string{"/work/p", "/work/p/a/b"} {
			for mask := 1; mask < 1<<len(verifiedFive); mask++ {
				var sel []Adapter
				var ids []string
				for i, id := range verifiedFive {
					if mask&(1<<i) != 0 {
						a, _ := Default().Lookup(id)
						sel = append(sel, a)
						ids = append(ids, id)
					}
				}
				env := testEnv(nil)
				env.WorkDir = wd
				plan := PlanRoots(sel, format.KindSkill, scope, env)
				name := fmt.Sprintf("%s %s from %s", strings.Join(ids, ","), scope, wd)
				checkAgainstObserved(t, name, plan, ids, scope, wd)
			}
		}
	}
}

func checkAgainstObserved(t *testing.T, name string, plan Plan, ids []string, scope Scope, wd string) {
	t.Helper()
	if len(plan.Skips) != 0 {
		t.Errorf("%s: skips %v, want none", name, plan.Skips)
	}
	for _, id := range ids {
		reads := observedReads(id, scope, wd)
		var via []string
		for _, tg := range plan.Targets {
			if slices.Contains(reads, tg.Root) {
				via = append(via, tg.Root)
			}
		}
		switch {
		case len(via) == 0:
			t.Errorf("%s: %s reads none of the written roots %v", name, id, plan.Targets)
		case len(via) > 1 && id == "codex":
			t.Errorf("%s: Codex would list the skill %d times (%q)", name, len(via), via)
		case len(via) > 1 && !slices.ContainsFunc(plan.Duplicates, func(d Duplicate) bool { return d.Agent == id && d.ByName }):
			t.Errorf("%s: %s sees %q but the plan reports no by-name duplicate: %v", name, id, via, plan.Duplicates)
		}
	}
	for _, tg := range plan.Targets {
		var readers []string
		for _, id := range ids {
			if slices.Contains(observedReads(id, scope, wd), tg.Root) {
				readers = append(readers, id)
			}
		}
		if !slices.Equal(tg.Readers, readers) {
			t.Errorf("%s: target %s readers = %v, the real agents that read it = %v", name, tg.Root, tg.Readers, readers)
		}
	}
}

// TestVerifiedCommandRoots: Claude Code reads its commands from
// ~/.claude/commands and .claude/commands walking up; Copilot lists the
// project ones too, walking up, but not the global ones; Codex, Gemini CLI
// and OpenCode listed no command.
func TestVerifiedCommandRoots(t *testing.T) {
	up := []string{"/work/p/a/b/.claude/commands", "/work/p/a/.claude/commands", "/work/p/.claude/commands"}
	want := map[string]map[Scope][]string{
		"claude-code":    {ScopeGlobal: {"/home/u/.claude/commands"}, ScopeProject: up},
		"github-copilot": {ScopeProject: up},
	}
	for _, id := range verifiedFive {
		a, _ := Default().Lookup(id)
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			env := testEnv(nil)
			env.WorkDir = "/work/p/a/b"
			got := a.ReadRoots(format.KindCommand, scope, env)
			if w := want[id][scope]; !slices.Equal(sortedCopy(got), sortedCopy(w)) {
				t.Errorf("%s.ReadRoots(command, %s) = %q, want %q", id, scope, got, w)
			}
		}
	}
	// Copilot gets a command only through Claude Code's folder: alone it
	// is skipped, with the reason.
	cp, _ := Default().Lookup("github-copilot")
	plan := PlanRoots([]Adapter{cp}, format.KindCommand, ScopeProject, testEnv(nil))
	if len(plan.Targets) != 0 || len(plan.Skips) != 1 || !strings.Contains(plan.Skips[0].Reason, ".claude/commands") {
		t.Errorf("PlanRoots(github-copilot; command, project) = %+v, want one skip naming .claude/commands", plan)
	}
}
