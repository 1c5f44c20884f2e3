package install

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// TestReleaseDropsPackages: with Options.Release, Install lets go of each
// decoded package once it is planned, and installs the same files.
// Without it the items are left as given.
func TestReleaseDropsPackages(t *testing.T) {
	for _, release := range []bool{false, true} {
		w := newWorld(t)
		items := []Item{
			writePkg(t, w.base, pkgSpec{name: "rel-a", version: "1.0.0", extra: map[string]string{"a.md": "alpha\n"}}),
			writePkg(t, w.base, pkgSpec{name: "rel-b", version: "1.0.0"}),
		}
		opts := w.opts(t, agents.ScopeProject)
		opts.Release = release
		if _, err := Install(t.Context(), items, opts); err != nil {
			t.Fatalf("Install(Release: %v) = %v", release, err)
		}
		for _, it := range items {
			if (it.Pkg == nil) != release {
				t.Errorf("Install(Release: %v) left Pkg %v, want nil only with Release", release, it.Pkg)
			}
		}
		if got := readFile(t, filepath.Join(w.project, ".claude", "skills", "rel-a", "references", "a.md")); got != "alpha\n" {
			t.Errorf("Install(Release: %v) installed a.md = %q", release, got)
		}
	}
}

// TestStagedTransactionsDropFiles: once staged, a transaction no longer
// holds its files (and through them the package's bytes), on one
// goroutine or several.
func TestStagedTransactionsDropFiles(t *testing.T) {
	for _, n := range []int{1, 6} {
		root := t.TempDir()
		var txns []*txn
		for i := range n {
			name := fmt.Sprintf("drop-%d", i)
			txns = append(txns, &txn{kind: txnWrite, root: root, name: name, dest: filepath.Join(root, name), shape: agents.ShapeDirectory,
				files: []stagedFile{{rel: "SKILL.md", content: []byte("x\n"), perm: 0o644}}})
		}
		var s syncer
		if err := stageAll(txns, &s); err != nil {
			t.Fatalf("stageAll(%d) = %v", n, err)
		}
		for _, tx := range txns {
			if tx.files != nil {
				t.Errorf("stageAll(%d): %s still holds %d files", n, tx.name, len(tx.files))
			}
			if got := readFile(t, filepath.Join(tx.stage, "SKILL.md")); got != "x\n" {
				t.Errorf("stageAll(%d): staged SKILL.md = %q", n, got)
			}
		}
	}
}
