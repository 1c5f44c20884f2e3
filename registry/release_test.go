package registry

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// within reports whether s is a slice of the bytes of text.
func within(s, text string) bool {
	if len(s) == 0 || len(text) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= lo && p < lo+uintptr(len(text))
}

// TestReleaseIndexLoadsAgain: once released, the index is read again on
// the next use (here it changed on disk in between), and the set releases
// every registry's.
func TestReleaseIndexLoadsAgain(t *testing.T) {
	r, _ := localSample(t)
	set := NewSet(nil, r)
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Index(t.Context()); again != idx {
		t.Fatalf("Index before ReleaseIndexes = a new value, want the kept one")
	}
	set.ReleaseIndexes()
	if r.(*registry).idx != nil {
		t.Fatalf("after ReleaseIndexes the registry still holds its index")
	}
	root := r.Spec().URL
	data, err := os.ReadFile(filepath.Join(root, indexPath))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "description: Demo.", "description: Demo, changed.", 1))
	if err := os.WriteFile(filepath.Join(root, indexPath), data, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if fresh == idx {
		t.Fatalf("Index after ReleaseIndexes = the released value, want it loaded again")
	}
	if s, ok := fresh.Skill("demo-skill"); !ok || s.Description != "Demo, changed." {
		t.Errorf("Index after ReleaseIndexes: demo-skill = %+v, want the description read again", s)
	}
}

// TestReleaseIndexKeepsAFailure: a registry that could not be read is not
// asked again after a release (once per command).
func TestReleaseIndexKeepsAFailure(t *testing.T) {
	root := t.TempDir()
	r, err := Open(Spec{Name: "team", URL: root}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, first := r.Index(t.Context())
	if first == nil {
		t.Fatalf("Index of a folder without an index = nil error")
	}
	r.ReleaseIndex()
	if _, again := r.Index(t.Context()); again != first {
		t.Errorf("Index after ReleaseIndex = %v, want the kept failure %v", again, first)
	}
}

// TestKeptStringsAreNotIndexSlices: what the set and Snapshot hand out or
// keep past the index (the integrity, the kept package's name and
// version) does not point into the index's text, so releasing the index
// frees it.
func TestKeptStringsAreNotIndexSlices(t *testing.T) {
	r, _ := localSample(t)
	set := NewSet(nil, r)
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := idx.Skill("demo-skill")
	v := s.Versions[0]
	if !within(v.Integrity, v.Integrity) {
		t.Fatalf("within(x, x) = false")
	}
	// The resolver passes the index's own strings.
	if _, err := set.Requirements(t.Context(), "team", s.Name, v.Version); err != nil {
		t.Fatal(err)
	}
	for k := range set.kept {
		if within(k.version, v.Version) || within(k.name, s.Name) {
			t.Errorf("kept key %+v shares the index's strings", k)
		}
	}
	for k, ks := range set.kept {
		if within(ks.integrity, v.Integrity) {
			t.Errorf("kept integrity of %+v shares the index's string", k)
		}
	}
	_, integrity, err := r.Snapshot(t.Context(), s.Name, v.Version)
	if err != nil {
		t.Fatal(err)
	}
	if integrity != v.Integrity || within(integrity, v.Integrity) {
		t.Errorf("Snapshot integrity %q (shared: %v), want a copy of %q", integrity, within(integrity, v.Integrity), v.Integrity)
	}
}

// TestSealedPathsAreShared: the paths a sealed snapshot keeps are the
// set's one copy of each (two packages share them), not slices of what
// the loader decoded, which would keep each package's skill.yaml whole.
func TestSealedPathsAreShared(t *testing.T) {
	old := keptBudget
	keptBudget = 10 // bytes: every snapshot is sealed
	t.Cleanup(func() { keptBudget = old })
	r, _ := localSample(t)
	set := NewSet(nil, r)
	// The same package kept twice, under two versions' keys, as two
	// packages with the same file names would be.
	pkg, integrity, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	set.keep(keptKey{"team", "demo-skill", "1.0.0"}, pkg, integrity, "")
	set.keep(keptKey{"team", "demo-skill", "2.0.0"}, other, integrity, "")
	a, b := set.kept[keptKey{"team", "demo-skill", "1.0.0"}].sealed, set.kept[keptKey{"team", "demo-skill", "2.0.0"}].sealed
	if a == nil || b == nil || len(a.files) != len(b.files) || len(a.files) == 0 {
		t.Fatalf("sealed = %v, %v; want two seals of the same files", a, b)
	}
	loaded := map[*byte]bool{}
	for _, p := range append(slices.Clone(pkg.Files), other.Files...) {
		loaded[unsafe.StringData(p)] = true
	}
	for i := range a.files {
		pa, pb := a.files[i].path, b.files[i].path
		if unsafe.StringData(pa) != unsafe.StringData(pb) {
			t.Errorf("sealed path %q: two copies, want one shared by both seals", pa)
		}
		if loaded[unsafe.StringData(pa)] {
			t.Errorf("sealed path %q is the loaded package's string, want the set's copy", pa)
		}
	}
}

// TestSealsCountAgainstTheBudget: the seals a resolution keeps count
// against keptBudget with the whole payloads, so a package kept whole is
// sealed, oldest first, once the seals after it need the room; what is
// handed over is still the verified package.
func TestSealsCountAgainstTheBudget(t *testing.T) {
	r, pkgDir := localSample(t)
	pkg, integrity, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	size := HeldBytes(pkg)
	old := keptBudget
	keptBudget = size + 16 // one whole package, and not a seal besides
	t.Cleanup(func() { keptBudget = old })
	c := countDigests(t)
	set := NewSet(nil, r)
	first, second := keptKey{"team", "demo-skill", "1.0.0"}, keptKey{"team", "demo-skill", "2.0.0"}
	set.keep(first, pkg, integrity, "")
	if ks := set.kept[first]; ks.pkg == nil || set.keptBytes != size {
		t.Fatalf("first package within the budget: whole %v, %d bytes counted; want it whole, %d", ks.pkg != nil, set.keptBytes, size)
	}
	other, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	set.keep(second, other, integrity, "")
	for _, k := range []keptKey{first, second} {
		if ks := set.kept[k]; ks.pkg != nil || ks.sealed == nil {
			t.Errorf("%s@%s after a seal past the budget: whole %v, sealed %v; want sealed", k.name, k.version, ks.pkg != nil, ks.sealed != nil)
		}
	}
	if set.keptBytes != 0 || set.keptSealed != 2 || set.sealedBytes <= 0 {
		t.Errorf("counted %d payload bytes, %d seals of %d bytes; want 0, 2 seals", set.keptBytes, set.keptSealed, set.sealedBytes)
	}
	// The registry's copy changes: the first package, sealed after it was
	// kept whole, still hands over the verified bytes, and is not
	// verified again.
	digests := c.get("demo-skill@1.0.0")
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Changed.\n---\n"), 0o644)
	got, gotIntegrity, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatalf("Snapshot = %v", err)
	}
	if !Sealed(got) || gotIntegrity != integrity || got.Entrypoint.Text("description") != "Demo." {
		t.Errorf("handed over sealed %v, integrity %s, description %q; want the verified, sealed package", Sealed(got), gotIntegrity, got.Entrypoint.Text("description"))
	}
	if n := c.get("demo-skill@1.0.0"); n != digests {
		t.Errorf("digests = %d after Snapshot, want %d (not verified again)", n, digests)
	}
	set.Snapshot(t.Context(), "team", "demo-skill", "2.0.0")
	if set.kept != nil || set.held != nil || set.keptSealed != 0 || set.sealedBytes != 0 {
		t.Errorf("after both were taken: kept %v, held %v, %d seals of %d bytes; want nothing", set.kept, set.held, set.keptSealed, set.sealedBytes)
	}
}

// TestSealedLoadSharesPaths: a package decoded again from its seal names
// its files with the seal's copies of the paths, not slices of the
// skill.yaml it decoded, which a caller keeping the paths would keep.
func TestSealedLoadSharesPaths(t *testing.T) {
	r, _ := localSample(t)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	sealed := Seal(pkg, "demo-skill", "1.0.0")
	again, err := Reloader(sealed)()
	if err != nil {
		t.Fatal(err)
	}
	seal := sealed.FS.(*sealedFS)
	if !slices.Equal(again.Files, pkg.Files) || again.EntrypointFile != pkg.EntrypointFile {
		t.Fatalf("reloaded files %v (entrypoint %s), want %v (%s)", again.Files, again.EntrypointFile, pkg.Files, pkg.EntrypointFile)
	}
	for _, p := range append(slices.Clone(again.Files), again.EntrypointFile) {
		e, ok := seal.file(p)
		if !ok {
			t.Fatalf("seal has no %s", p)
		}
		if unsafe.StringData(p) != unsafe.StringData(e.path) {
			t.Errorf("reloaded path %q is not the seal's copy", p)
		}
	}
}

// TestKeptFetchNeedsNoIndex: a package resolution verified is fetched,
// with where it came from, as the index said then, without the index (an
// install of thousands releases it before the fetch); one resolution did
// not verify still reads the index.
func TestKeptFetchNeedsNoIndex(t *testing.T) {
	for _, budget := range []int64{1 << 20, 10} { // whole, and sealed
		r, _ := localSample(t)
		old := keptBudget
		keptBudget = budget
		set := NewSet(nil, r)
		want, err := r.Resolved(t.Context(), "demo-skill", "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		if set.Keeps("team", "demo-skill", "1.0.0") {
			t.Fatal("Keeps before resolution asked for the package")
		}
		if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
			t.Fatal(err)
		}
		if !set.Keeps("team", "demo-skill", "1.0.0") || set.Keeps("team", "demo-skill", "2.0.0") {
			t.Fatalf("Keeps after resolution: want demo-skill@1.0.0 only")
		}
		// Released, the index cannot be loaded again: the fetch must not
		// ask for it.
		set.ReleaseIndexes()
		idx := filepath.Join(r.Spec().URL, indexPath)
		if err := os.WriteFile(idx, []byte("not: [an index"), 0o644); err != nil {
			t.Fatal(err)
		}
		pkg, integrity, resolved, err := set.Fetch(t.Context(), "team", "demo-skill", "1.0.0")
		keptBudget = old
		if err != nil {
			t.Fatalf("budget %d: Fetch of a kept package with no index = %v", budget, err)
		}
		if pkg == nil || integrity == "" || resolved != want {
			t.Errorf("budget %d: Fetch = %v, %q, %q; want the package from %q", budget, pkg != nil, integrity, resolved, want)
		}
		if set.Keeps("team", "demo-skill", "1.0.0") {
			t.Errorf("budget %d: still kept after Fetch handed it over", budget)
		}
		if _, _, _, err := set.Fetch(t.Context(), "team", "demo-skill", "1.0.0"); err == nil {
			t.Errorf("budget %d: a second Fetch, no longer kept, did not read the broken index", budget)
		}
	}
}
