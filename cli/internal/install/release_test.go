package install

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
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
		if err := stageAll(t.Context(), txns, &s); err != nil {
			t.Fatalf("stageAll(%d) = %v", n, err)
		}
		for _, tx := range txns {
			if tx.files != nil {
				t.Errorf("stageAll(%d): %s still holds %d files", n, tx.name, len(tx.files))
			}
			if got := readFile(t, filepath.Join(tx.stagePath(), "SKILL.md")); got != "x\n" {
				t.Errorf("stageAll(%d): staged SKILL.md = %q", n, got)
			}
		}
	}
}

// TestInstallLoadsItemsWhenPlanned: an item with only Load is decoded when
// Install plans it — one at a time, each dropped with Release — and
// installs as the decoded item would; a Load that fails, or that gives a
// package with an unsafe name, stops the install before anything is
// written.
func TestInstallLoadsItemsWhenPlanned(t *testing.T) {
	w := newWorld(t)
	var lazy []Item
	var loads atomic.Int32 // the items are planned, and so loaded, concurrently
	for _, spec := range []pkgSpec{{name: "lazy-a", version: "1.0.0", extra: map[string]string{"a.md": "alpha\n"}}, {name: "lazy-b", version: "1.0.0"}} {
		it := writePkg(t, w.base, spec)
		pkg := it.Pkg
		it.Pkg, it.Load = nil, func() (*format.Package, error) { loads.Add(1); return pkg, nil }
		lazy = append(lazy, it)
	}
	opts := w.opts(t, agents.ScopeProject)
	opts.Release = true
	rep, err := Install(t.Context(), lazy, opts)
	if err != nil {
		t.Fatalf("Install(lazy items) = %v", err)
	}
	if n := loads.Load(); n != 2 || len(rep.Results) == 0 {
		t.Errorf("Install loaded %d packages (%d results), want each of the 2 once", n, len(rep.Results))
	}
	for _, it := range lazy {
		if it.Load != nil || it.Pkg != nil {
			t.Errorf("Install with Release kept the item's Load or package")
		}
	}
	if got := readFile(t, filepath.Join(w.project, ".claude", "skills", "lazy-a", "references", "a.md")); got != "alpha\n" {
		t.Errorf("lazy-a's a.md = %q, want %q", got, "alpha\n")
	}

	for _, tt := range []struct {
		name string
		load func() (*format.Package, error)
		want string
	}{
		{"failing", func() (*format.Package, error) { return nil, errors.New("the seal broke") }, "the seal broke"},
		{"unsafe name", func() (*format.Package, error) {
			return &format.Package{Manifest: &format.Manifest{Name: "../escape", Version: "1.0.0"}}, nil
		}, "escape"},
	} {
		w := newWorld(t)
		good := writePkg(t, w.base, pkgSpec{name: "lazy-ok", version: "1.0.0"})
		before := snapshot(t, w.project)
		_, err := Install(t.Context(), []Item{good, {Load: tt.load}}, w.opts(t, agents.ScopeProject))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Install with a %s Load = %v, want an error naming %q", tt.name, err, tt.want)
		}
		if after := snapshot(t, w.project); after != before {
			t.Errorf("Install with a %s Load wrote to the project:\n%s\nwant\n%s", tt.name, after, before)
		}
	}
}
