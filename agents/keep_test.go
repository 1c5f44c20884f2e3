package agents

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestKeepCopies(t *testing.T) {
	env := testEnv(nil)
	j := filepath.Join
	claude, copilot, codex := mustLookup(t, "claude-code"), mustLookup(t, "github-copilot"), mustLookup(t, "codex")
	github, claudeRoot := j("/work/p", ".github", "skills"), j("/work/p", ".claude", "skills")
	sel := []Adapter{claude, copilot}

	// Copilot's own earlier copy is kept beside the .claude/skills both read.
	plan := PlanRoots(sel, format.KindSkill, ScopeProject, env)
	if len(plan.Targets) != 1 || plan.Targets[0].Root != claudeRoot {
		t.Fatalf("PlanRoots(claude, copilot) = %+v, want .claude/skills alone", plan.Targets)
	}
	var asked []string
	plan.KeepCopies(sel, format.KindSkill, ScopeProject, env, func(root string) bool {
		asked = append(asked, root)
		return root == github
	})
	if slices.Contains(asked, claudeRoot) {
		t.Errorf("KeepCopies asked about %s, which the plan writes anyway", claudeRoot)
	}
	if len(plan.Targets) != 2 || plan.Targets[0].Root != claudeRoot || plan.Targets[1].Root != github {
		t.Fatalf("targets after KeepCopies = %+v, want .claude/skills then .github/skills", plan.Targets)
	}
	if kept := plan.Targets[1]; !kept.Kept || !slices.Equal(kept.Readers, []string{"github-copilot"}) {
		t.Errorf("kept target = %+v, want Kept and read by github-copilot alone", kept)
	}
	if plan.Targets[0].Kept {
		t.Errorf("the planned target is marked kept: %+v", plan.Targets[0])
	}
	if len(plan.Duplicates) != 1 || plan.Duplicates[0].Agent != "github-copilot" ||
		!slices.Equal(plan.Duplicates[0].Roots, []string{claudeRoot, github}) || !slices.Equal(plan.Duplicates[0].Kept, []string{github}) {
		t.Errorf("duplicates after KeepCopies = %+v, want github-copilot through both, .github/skills kept", plan.Duplicates)
	}

	// Nothing held: the plan is unchanged.
	plan = PlanRoots(sel, format.KindSkill, ScopeProject, env)
	want := plan
	plan.KeepCopies(sel, format.KindSkill, ScopeProject, env, func(string) bool { return false })
	if len(plan.Targets) != len(want.Targets) || len(plan.Duplicates) != len(want.Duplicates) {
		t.Errorf("KeepCopies with nothing held changed the plan: %+v, want %+v", plan, want)
	}

	// A root only an unselected agent reads is never asked about: Codex's
	// .codex/skills is nothing to Claude Code.
	plan = PlanRoots([]Adapter{claude}, format.KindSkill, ScopeProject, env)
	plan.KeepCopies([]Adapter{claude}, format.KindSkill, ScopeProject, env, func(root string) bool {
		if slices.Contains(codex.ReadRoots(format.KindSkill, ScopeProject, env), root) {
			t.Errorf("KeepCopies asked about %s, which only Codex reads", root)
		}
		return true
	})
	if len(plan.Targets) != 1 {
		t.Errorf("KeepCopies for Claude Code alone = %+v, want its one root", plan.Targets)
	}
}
