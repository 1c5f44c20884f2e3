package registry

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// digestCounter counts digests per name@version through SetDigestHook.
// Tests that use it do not run in parallel: the hook is process-wide.
type digestCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func countDigests(t *testing.T) *digestCounter {
	c := &digestCounter{n: map[string]int{}}
	t.Cleanup(SetDigestHook(func(name, version string) {
		c.mu.Lock()
		c.n[name+"@"+version]++
		c.mu.Unlock()
	}))
	return c
}

func (c *digestCounter) get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[key]
}

// localSample writes samplePackage() as demo-skill 1.0.0 of a local
// registry and opens it.
func localSample(t *testing.T) (Registry, string) {
	t.Helper()
	root := t.TempDir()
	pkgDir := filepath.Join(root, "skills", "demo-skill")
	for p, f := range samplePackage() {
		dst := filepath.Join(pkgDir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, _ := format.Load(samplePackage(), format.LoadOptions{})
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		t.Fatal(err)
	}
	idx := &Index{SchemaVersion: 1, Name: "team", Skills: []*Skill{{Name: "demo-skill", Description: "Demo.",
		Versions: []*Version{{Version: "1.0.0", Path: "skills/demo-skill", Integrity: sum}}}}}
	os.MkdirAll(filepath.Join(root, "registry"), 0o755)
	if err := os.WriteFile(filepath.Join(root, indexPath), idx.EncodeYAML(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(Spec{Name: "team", URL: root}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return r, pkgDir
}

// memBytes returns the files of an in-memory package.
func memBytes(t *testing.T, pkg *format.Package) map[string]string {
	t.Helper()
	mem, ok := pkg.FS.(*snapshotFS)
	if !ok {
		t.Fatalf("package FS is %T, want an in-memory snapshot", pkg.FS)
	}
	out := map[string]string{}
	for p, f := range mem.MapFS {
		out[p] = string(f.Data)
	}
	return out
}

// TestSetVerifiesOnce: resolution reads a package's dependencies from a
// verified snapshot, and fetching it afterwards hands over that very
// snapshot: one digest per package and run, and the bytes installed are
// the bytes verified even when the registry's files change in between.
func TestSetVerifiesOnce(t *testing.T) {
	c := countDigests(t)
	r, pkgDir := localSample(t)
	set := NewSet(nil, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatalf("Requirements = %v", err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Fatalf("digests after Requirements = %d, want 1", got)
	}
	// The registry's copy changes after resolution: what Snapshot hands
	// over is still what was verified.
	if err := os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Demo.\n---\n# Changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, integrity, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatalf("Snapshot = %v", err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Errorf("digests after Requirements and Snapshot = %d, want exactly 1", got)
	}
	want := map[string]string{}
	for p, f := range samplePackage() {
		want[p] = string(f.Data)
	}
	if got := memBytes(t, pkg); !mapsEqual(got, want) {
		t.Errorf("Snapshot bytes = %v, want the verified %v", got, want)
	}
	if sum, _ := format.Digest(pkg.FS, pkg.Files); sum != integrity {
		t.Errorf("Snapshot integrity %s, digest of its bytes %s", integrity, sum)
	}
	// Handed over once: asked again, the package is read and verified
	// again, and now the changed bytes are refused.
	if _, _, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0"); codeOf(err) != CodeIntegrityMismatch {
		t.Errorf("second Snapshot = %v, want %s (verified afresh)", err, CodeIntegrityMismatch)
	}
	if got := c.get("demo-skill@1.0.0"); got != 2 {
		t.Errorf("digests after a second Snapshot = %d, want 2", got)
	}
}

// TestSetKeepsWithinBudget: past the payload budget a snapshot is kept
// sealed, so fetching does not verify it again (each package is verified
// once however many a run installs) while its payload is not held: the
// files read again are checked against the verified digests. Past
// keptSealedMax it is not kept at all, and verified again when fetched.
func TestSetKeepsWithinBudget(t *testing.T) {
	old, oldMax := keptBudget, keptSealedMax
	keptBudget = 10 // bytes: smaller than demo-skill
	t.Cleanup(func() { keptBudget, keptSealedMax = old, oldMax })
	c := countDigests(t)
	r, pkgDir := localSample(t)
	set := NewSet(nil, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if len(set.kept) != 1 || set.keptBytes != 0 || set.keptSealed != 1 {
		t.Errorf("kept %d snapshots (%d bytes, %d sealed) over a 10-byte budget, want one sealed", len(set.kept), set.keptBytes, set.keptSealed)
	}
	pkg, _, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Errorf("digests = %d, want 1 (kept sealed, not verified again)", got)
	}
	if !Sealed(pkg) || HeldBytes(pkg) != 0 || set.keptSealed != 0 {
		t.Errorf("handed over Sealed = %v holding %d bytes (%d still counted), want a sealed package, uncounted", Sealed(pkg), HeldBytes(pkg), set.keptSealed)
	}
	if data, err := fs.ReadFile(pkg.FS, "references/a.md"); err != nil || string(data) != "# A\n" {
		t.Errorf("sealed references/a.md = %q, %v; want the verified bytes", data, err)
	}
	os.WriteFile(filepath.Join(pkgDir, "references", "a.md"), []byte("# A, changed\n"), 0o644)
	if _, err := fs.ReadFile(pkg.FS, "references/a.md"); codeOf(err) != CodeIntegrityMismatch {
		t.Errorf("sealed references/a.md changed after verification = %v, want %s", err, CodeIntegrityMismatch)
	}

	keptSealedMax = 0
	os.WriteFile(filepath.Join(pkgDir, "references", "a.md"), []byte("# A\n"), 0o644)
	set = NewSet(nil, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if len(set.kept) != 0 {
		t.Errorf("kept %d snapshots past keptSealedMax 0, want none", len(set.kept))
	}
	if _, _, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 3 {
		t.Errorf("digests = %d, want 3 (past keptSealedMax, verified again when fetched)", got)
	}
}

// TestHTTPSetVerifiesOnce: for a tarball registry the download, the
// payload cache's check and resolution's read are one verification.
func TestHTTPSetVerifiesOnce(t *testing.T) {
	c := countDigests(t)
	m := newMiniServer(t)
	cache := t.TempDir()
	set := NewSet(nil, m.open(t, cache, nil, false))
	if _, err := set.Requirements(t.Context(), "mini", "demo-skill", "1.0.0"); err != nil {
		t.Fatalf("Requirements = %v", err)
	}
	pkg, _, err := set.Snapshot(t.Context(), "mini", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatalf("Snapshot = %v", err)
	}
	memBytes(t, pkg)
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Errorf("digests of a fresh download = %d, want exactly 1", got)
	}
	if got := len(payloadDirs(t, cache)); got != 1 {
		t.Errorf("payload cache holds %d entries, want the verified one", got)
	}
	// A later run, from the payload cache: once again.
	set = NewSet(nil, m.open(t, cache, nil, false))
	set.Requirements(t.Context(), "mini", "demo-skill", "1.0.0")
	if _, _, err := set.Snapshot(t.Context(), "mini", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 2 {
		t.Errorf("digests after a cached run = %d, want 2 (one per run)", got)
	}
	if got := m.count("/archives/demo-skill-1.0.0.tar.gz"); got != 1 {
		t.Errorf("tarball downloaded %d times, want 1", got)
	}
}

// openCounter counts how often each file of an FS is opened.
type openCounter struct {
	fstest.MapFS
	mu     sync.Mutex
	opened map[string]int
}

func (o *openCounter) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.opened[name]++
	o.mu.Unlock()
	return o.MapFS.Open(name)
}

func (o *openCounter) ReadDir(name string) ([]fs.DirEntry, error) { return o.MapFS.ReadDir(name) }

// TestSnapshotReadsEachFileOnce: the snapshot reads every file of the
// payload from its source once, the manifest and entrypoint included.
func TestSnapshotReadsEachFileOnce(t *testing.T) {
	src := &openCounter{MapFS: samplePackage(), opened: map[string]int{}}
	pkg, _ := format.Load(samplePackage(), format.LoadOptions{})
	sum, _ := format.Digest(pkg.FS, pkg.Files)
	got, err := snapshotOf(src, "demo-skill", "1.0.0", sum)
	if err != nil {
		t.Fatalf("snapshotOf = %v", err)
	}
	for _, p := range got.Files {
		if n := src.opened[p]; n != 1 {
			t.Errorf("%s opened %d times, want 1", p, n)
		}
	}
	if !slices.Equal(got.Files, pkg.Files) || got.Name() != "demo-skill" || got.Entrypoint == nil {
		t.Errorf("snapshotOf = files %v name %q entrypoint %v, want %v demo-skill and the entrypoint", got.Files, got.Name(), got.Entrypoint, pkg.Files)
	}
}

// TestSnapshotOfEntrypointOutsideFiles: an entrypoint the `files` list
// leaves out is not part of the snapshot, exactly as when the copy is
// loaded on its own.
func TestSnapshotOfEntrypointOutsideFiles(t *testing.T) {
	fsys := samplePackage()
	fsys["skill.yaml"] = &fstest.MapFile{Data: []byte("name: demo-skill\nversion: 1.0.0\ndescription: Demo.\nfiles: [references/]\n")}
	pkg, _ := format.Load(fsys, format.LoadOptions{})
	sum, _ := format.Digest(pkg.FS, pkg.Files)
	got, err := snapshotOf(fsys, "demo-skill", "1.0.0", sum)
	if err != nil {
		t.Fatalf("snapshotOf = %v", err)
	}
	if slices.Contains(got.Files, "SKILL.md") || got.Entrypoint != nil {
		t.Errorf("snapshotOf = files %v entrypoint %v, want neither SKILL.md nor its entrypoint", got.Files, got.Entrypoint)
	}
	if _, err := fs.Stat(got.FS, "SKILL.md"); err == nil {
		t.Errorf("SKILL.md is in the snapshot's FS, want only the file set")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal([]byte(v), []byte(w)) {
			return false
		}
	}
	return true
}

// TestSetKeepsSealedUndecoded: past the budget, Set keeps only the sealed
// payload of a snapshot, not its decoded manifest and entrypoint (most of
// what a small package costs, thousands of times over in a large
// resolution); Snapshot decodes them again from the verified bytes it
// held, with the positions validation reports, not from the registry's
// files, which may have changed, and without digesting again.
func TestSetKeepsSealedUndecoded(t *testing.T) {
	old := keptBudget
	keptBudget = 10 // bytes: smaller than demo-skill
	t.Cleanup(func() { keptBudget = old })
	c := countDigests(t)
	r, pkgDir := localSample(t)
	set := NewSet(nil, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	ks := set.kept[keptKey{"team", "demo-skill", "1.0.0"}]
	if ks.pkg != nil || ks.sealed == nil {
		t.Fatalf("kept past the budget: decoded package %v, sealed payload %v; want only the sealed payload", ks.pkg != nil, ks.sealed != nil)
	}
	os.WriteFile(filepath.Join(pkgDir, "skill.yaml"), []byte("name: demo-skill\nversion: 1.0.0\ndescription: Changed.\nfiles: [SKILL.md]\n"), 0o644)
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Changed.\n---\n"), 0o644)
	pkg, _, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatalf("Snapshot = %v", err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Errorf("digests = %d, want 1", got)
	}
	want, _ := format.Load(samplePackage(), format.LoadOptions{})
	if !Sealed(pkg) || pkg.Manifest == nil || pkg.Entrypoint == nil {
		t.Fatalf("handed over Sealed = %v, manifest %v, entrypoint %v; want a sealed, decoded package", Sealed(pkg), pkg.Manifest != nil, pkg.Entrypoint != nil)
	}
	if pkg.Manifest.Description != "Demo." || pkg.Entrypoint.Text("description") != "Demo." || !slices.Equal(pkg.Files, want.Files) {
		t.Errorf("handed over %q / %q, files %v; want the verified %q, files %v", pkg.Manifest.Description, pkg.Entrypoint.Text("description"), pkg.Files, "Demo.", want.Files)
	}
	if got, w := pkg.Manifest.Pos("description"), want.Manifest.Pos("description"); got != w || got.Line == 0 {
		t.Errorf("manifest position of description = %v, want %v (validation reports it)", got, w)
	}
	if got, w := pkg.Entrypoint.Pos("description"), want.Entrypoint.Pos("description"); got != w || got.Line == 0 {
		t.Errorf("entrypoint position of description = %v, want %v", got, w)
	}
}
