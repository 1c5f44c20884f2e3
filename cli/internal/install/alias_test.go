//go:build unix

package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/agents"
)

// TestAliasedRootsAreOneRoot installs for Claude Code and Codex into a
// project whose .agents/skills is a link to .claude/skills (B06): the
// package is written once, with one receipt read by both, and it can be
// upgraded and removed again. Without Canonical the two paths are refused
// before anything is written, never half installed.
func TestAliasedRootsAreOneRoot(t *testing.T) {
	for _, tc := range []struct {
		scope  agents.Scope
		at, to string
		// dangling leaves the link's target to be created by the install.
		dangling bool
	}{
		{agents.ScopeProject, ".agents/skills", "../.claude/skills", false},
		{agents.ScopeProject, ".claude/skills", "../.agents/skills", false},
		{agents.ScopeProject, ".agents/skills", "../.claude/skills", true},
		{agents.ScopeGlobal, ".agents/skills", "../.claude/skills", false},
	} {
		t.Run(fmt.Sprintf("%s %s->%s dangling=%v", tc.scope, tc.at, tc.to, tc.dangling), func(t *testing.T) {
			w := newWorld(t)
			top := w.project
			if tc.scope == agents.ScopeGlobal {
				top = w.home
			}
			root := filepath.Join(top, filepath.Dir(tc.at), tc.to)
			plant(t, top, map[string]string{tc.at: "-> " + tc.to})
			opts := w.opts(t, tc.scope, "claude-code", "codex")
			if !tc.dangling {
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, root)
				_, err := Install(t.Context(), []Item{writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})}, opts)
				var ie *askerr.Error
				if !errors.As(err, &ie) || ie.Code != CodeRootUnsafe {
					t.Errorf("Install into aliased roots without Canonical = %v, want ASK_ROOT_UNSAFE", err)
				}
				if after := snapshot(t, root); after != before {
					t.Errorf("a refused Install changed the folder:\n%s\nwant\n%s", after, before)
				}
			}

			opts.Env.Canonical = Canonicalizer(w.project, w.home)
			rep := mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"}))
			if len(rep.Results) != 1 || rep.Results[0].Root != root || !slices.Equal(rep.Results[0].Readers, []string{"claude-code", "codex"}) {
				t.Fatalf("Install into aliased roots = %+v, want one result in %s read by claude-code and codex", rep.Results, root)
			}
			ents, _ := os.ReadDir(receiptsDir(root))
			if len(ents) != 1 || ents[0].Name() != "s.json" {
				t.Errorf("receipts after Install = %v, want [s.json]", ents)
			}
			found, err := Scan(t.Context(), opts)
			if err != nil || len(found) != 1 || found[0].State != StateOK || len(found[0].SeenTwiceBy) != 0 {
				t.Errorf("Scan() = %+v, %v; want one ok entry seen once", found, err)
			}
			rep = mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0"}))
			if len(rep.Results) != 1 || rep.Results[0].Outcome != OutcomeUpgraded {
				t.Errorf("upgrade in aliased roots = %v, want one upgraded", outcomes(w, rep))
			}
			if _, err := Uninstall(t.Context(), []string{"s"}, opts); err != nil {
				t.Fatalf("Uninstall in aliased roots = %v", err)
			}
			if exists(filepath.Join(root, "s")) || exists(receiptPath(root, "s")) {
				t.Errorf("Uninstall in aliased roots left the package or its receipt")
			}
		})
	}
}
