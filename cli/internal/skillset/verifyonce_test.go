package skillset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"

	"github.com/agent-skills/agent-skills/registry"
)

// TestInstallDigestsEachPackageOnce: an install that resolves
// dependencies (read from each package's verified snapshot) and then
// fetches every package digests each payload exactly once. Not parallel:
// the digest hook is process-wide, and the names are this test's own.
func TestInstallDigestsEachPackageOnce(t *testing.T) {
	w := newWorld(t)
	var specs []pkgSpec
	const n = 12
	for i := range n {
		s := pkgSpec{name: fmt.Sprintf("once-%02d", i), version: "1.0.0"}
		if i+1 < n {
			s.deps = map[string]string{fmt.Sprintf("once-%02d", i+1): "^1.0.0"}
		}
		specs = append(specs, s)
	}
	specs = append(specs, pkgSpec{name: "once-00", version: "0.9.0"})
	w.publish(specs...)
	var mu sync.Mutex
	digests := map[string]int{}
	defer registry.SetDigestHook(func(name, version string) {
		mu.Lock()
		digests[name+"@"+version]++
		mu.Unlock()
	})()
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"once-00", "once-05"}})
	if err != nil {
		t.Fatalf("Install = %v", err)
	}
	if got := len(out.Plan); got != n {
		t.Fatalf("Install planned %d packages, want %d", got, n)
	}
	want := map[string]int{}
	for i := range n {
		want[fmt.Sprintf("once-%02d@1.0.0", i)] = 1
	}
	if !maps.Equal(digests, want) {
		keys := slices.Sorted(maps.Keys(digests))
		t.Errorf("digests per package = %v (%v), want each of the %d packages exactly once", digests, keys, n)
	}
}

// TestFetchFailsInOrder: packages are fetched by several workers, but the
// run fails as one by one would: on the first failing package in the
// plan's order, whichever worker finished first.
func TestFetchFailsInOrder(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var names []string
	for i := range 10 {
		names = append(names, fmt.Sprintf("order-%02d", i))
		w.publish(pkgSpec{name: names[i], version: "1.0.0"})
	}
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: names}); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{8, 3, 5} {
		w.publish(pkgSpec{name: names[i], version: "1.0.0", body: "# republished\n"})
	}
	for range 5 {
		out, err := w.open(false, nil).Restore(t.Context(), RestoreRequest{Force: true})
		if codeOf(err) != registry.CodeIntegrityMismatch || err.Error() != "order-03@1.0.0 does not match skills.lock" {
			t.Fatalf("Restore with order-03, -05 and -08 republished = %v, want %s for order-03, the first", err, registry.CodeIntegrityMismatch)
		}
		if out == nil || len(out.Results) != 0 {
			t.Errorf("refused restore: results %v, want none", results(out))
		}
	}
}

// TestInstallPastTheHeldBudget: past the budget fetched packages are
// sealed: the installer reads their files again, and installs the
// verified bytes; a file that changed after verification is refused with
// the integrity code, not as an I/O failure.
func TestInstallPastTheHeldBudget(t *testing.T) {
	old := fetchHeldBudget
	fetchHeldBudget = 1
	t.Cleanup(func() { fetchHeldBudget = old })
	w := newWorld(t)
	w.publish(pkgSpec{name: "held-a", version: "1.0.0", files: map[string]string{"references/a.md": "alpha\n"}},
		pkgSpec{name: "held-b", version: "1.0.0", files: map[string]string{"references/b.md": "beta\n"}})
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"held-a", "held-b"}}); err != nil {
		t.Fatalf("Install = %v", err)
	}
	for _, id := range bothAgents {
		for name, want := range map[string]string{"held-a/references/a.md": "alpha\n", "held-b/references/b.md": "beta\n"} {
			if got, err := os.ReadFile(filepath.Join(w.root(false, id), filepath.FromSlash(name))); err != nil || string(got) != want {
				t.Errorf("%s in the %s root = %q, %v; want %q", name, id, got, err, want)
			}
		}
	}

	s := w.open(false, nil)
	pkg, _, err := s.Registries.Snapshot(t.Context(), "team", "held-a", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	var held atomic.Int64
	// Past the budget the item keeps only the seal; the package is
	// decoded again from it when install plans it.
	it := keepWithin(install.Item{Pkg: pkg}, want{name: "held-a", version: "1.0.0"}, &held)
	if it.Pkg != nil || it.Load == nil {
		t.Fatalf("keepWithin over budget kept the decoded package (%v) / no Load (%v), want only the seal", it.Pkg != nil, it.Load == nil)
	}
	sealed, err := it.Load()
	if err != nil || sealed.Name() != "held-a" {
		t.Fatalf("Load of the sealed item = %v, %v; want held-a", sealed, err)
	}
	if registry.HeldBytes(sealed) != 0 || held.Load() != 0 {
		t.Fatalf("keepWithin over budget held %d bytes (%d counted), want a sealed package", registry.HeldBytes(sealed), held.Load())
	}
	writeFile(t, filepath.Join(w.pkgDir("held-a", "1.0.0"), "references", "a.md"), "alpha, changed\n")
	if _, err := fs.ReadFile(sealed.FS, "references/a.md"); codeOf(err) != registry.CodeIntegrityMismatch {
		t.Errorf("reading a changed file of a sealed package = %v (%s), want %s", err, codeOf(err), registry.CodeIntegrityMismatch)
	}
	// A package the registry set handed over sealed (past its own
	// budget) is kept as it is, with coded errors too.
	handedItem := keepWithin(install.Item{Pkg: registry.Seal(pkg, "held-a", "1.0.0")}, want{name: "held-a", version: "1.0.0"}, &held)
	if handedItem.Pkg != nil || handedItem.Load == nil {
		t.Fatalf("keepWithin of a package handed over sealed kept the decoded package, want only the seal")
	}
	handed, err := handedItem.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(handed.FS, "references/a.md"); codeOf(err) != registry.CodeIntegrityMismatch || held.Load() != 0 {
		t.Errorf("reading a changed file of a package handed over sealed = %v (%s, %d bytes counted), want %s", err, codeOf(err), held.Load(), registry.CodeIntegrityMismatch)
	}
	var ae *askerr.Error
	if _, err := fs.ReadFile(handed.FS, "references/a.md"); !errors.As(err, &ae) {
		t.Errorf("reading a changed file of a package handed over sealed = %T, want an *askerr.Error", err)
	}
	// The installer copies with io.Copy, which takes the file's WriteTo.
	f, err := sealed.FS.Open("references/a.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(io.Discard, f); codeOf(err) != registry.CodeIntegrityMismatch {
		t.Errorf("copying a changed file of a sealed package = %v (%s), want %s", err, codeOf(err), registry.CodeIntegrityMismatch)
	}
}
