package registry

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// spentSet returns a set over r whose budget is spent, so that the next
// package resolution verifies is verified sealed at once.
func spentSet(t *testing.T, r Registry) *Set {
	t.Helper()
	old := keptBudget
	keptBudget = 1 << 10
	t.Cleanup(func() { keptBudget = old })
	set := NewSet(nil, r)
	set.sealedBytes = keptBudget
	if !set.sealsNext() {
		t.Fatal("sealsNext() = false with the budget spent")
	}
	return set
}

// TestSealedAtOnceIsTheSeal: verified sealed at once, a package is the
// seal Seal makes of its snapshot — the same files, sizes and digests, the
// manifest and entrypoint bytes kept, nothing else — and decodes to the
// same package.
func TestSealedAtOnceIsTheSeal(t *testing.T) {
	r, _ := localSample(t)
	snap, integrity, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	want := Seal(snap, "demo-skill", "1.0.0").FS.(*sealedFS)
	pkg, gotIntegrity, err := r.(*registry).sealedSnapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := pkg.FS.(*sealedFS)
	if !ok || gotIntegrity != integrity {
		t.Fatalf("sealedSnapshot FS %T, integrity %s; want a seal, %s", pkg.FS, gotIntegrity, integrity)
	}
	if len(got.files) != len(want.files) {
		t.Fatalf("sealed files %d, want %d", len(got.files), len(want.files))
	}
	for i := range want.files {
		g, w := got.files[i], want.files[i]
		if g.path != w.path || g.size != w.size || g.sum != w.sum || !bytes.Equal(g.data, w.data) || (g.data == nil) != (w.data == nil) {
			t.Errorf("file %d: %s %d bytes, kept %q; want %s %d bytes, kept %q (digests equal: %v)", i, g.path, g.size, g.data, w.path, w.size, w.data, g.sum == w.sum)
		}
	}
	if pkg.Name() != "demo-skill" || pkg.Version() != "1.0.0" || pkg.Manifest == nil || !slicesEqual(pkg.Files, snap.Files) {
		t.Errorf("decoded %s@%s files %v; want demo-skill@1.0.0 files %v", pkg.Name(), pkg.Version(), pkg.Files, snap.Files)
	}
	for p, f := range samplePackage() {
		if data, err := fs.ReadFile(pkg.FS, p); err != nil || !bytes.Equal(data, f.Data) {
			t.Errorf("sealed %s = %q, %v; want the verified bytes", p, data, err)
		}
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSetSealsAtOnceVerifiedOnce: past its budget, Set verifies a package
// sealed at once, once: Snapshot hands the seal over without verifying
// again, its manifest and entrypoint the verified bytes whatever the
// registry's files become, its other files read again and refused once
// they differ from what was digested.
func TestSetSealsAtOnceVerifiedOnce(t *testing.T) {
	c := countDigests(t)
	r, pkgDir := localSample(t)
	set := spentSet(t, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if len(set.kept) != 1 || set.keptSealed != 1 || set.kept[keptKey{"team", "demo-skill", "1.0.0"}].sealed == nil {
		t.Fatalf("kept %d (%d sealed), want demo-skill sealed", len(set.kept), set.keptSealed)
	}
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Changed.\n---\n"), 0o644)
	pkg, _, err := set.Snapshot(t.Context(), "team", "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.get("demo-skill@1.0.0"); got != 1 {
		t.Errorf("digests = %d, want 1", got)
	}
	if !Sealed(pkg) || pkg.Entrypoint.Text("description") != "Demo." {
		t.Errorf("handed over sealed %v, description %q; want the verified package, sealed", Sealed(pkg), pkg.Entrypoint.Text("description"))
	}
	if data, err := fs.ReadFile(pkg.FS, "references/a.md"); err != nil || string(data) != "# A\n" {
		t.Errorf("references/a.md = %q, %v; want the verified bytes", data, err)
	}
	os.WriteFile(filepath.Join(pkgDir, "references", "a.md"), []byte("# B\n"), 0o644)
	if _, err := fs.ReadFile(pkg.FS, "references/a.md"); codeOf(err) != CodeIntegrityMismatch {
		t.Errorf("references/a.md changed after verification = %v, want %s", err, CodeIntegrityMismatch)
	}
}

// TestSealedAtOnceRefusesOtherBytes: a file streamed through the digest
// that is not what the index records fails the verification, as a
// snapshot's would.
func TestSealedAtOnceRefusesOtherBytes(t *testing.T) {
	r, pkgDir := localSample(t)
	os.WriteFile(filepath.Join(pkgDir, "references", "deep", "b.md"), []byte("# not B\n"), 0o644)
	set := spentSet(t, r)
	if _, err := set.Requirements(t.Context(), "team", "demo-skill", "1.0.0"); codeOf(err) != CodeIntegrityMismatch {
		t.Errorf("Requirements over changed bytes = %v, want %s", err, CodeIntegrityMismatch)
	}
	if len(set.kept) != 0 {
		t.Errorf("kept %d packages that failed verification", len(set.kept))
	}
}

// TestSealedAtOnceOutsideTheFileSet: a package whose entrypoint is not in
// its files list is verified as a snapshot over exactly its file set, then
// sealed, as Snapshot and Seal do.
func TestSealedAtOnceOutsideTheFileSet(t *testing.T) {
	files := fstest.MapFS{
		"skill.yaml":      {Data: []byte("name: demo-skill\nversion: 1.0.0\ndescription: Demo.\nfiles:\n  - references/\n")},
		"SKILL.md":        {Data: []byte("---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n")},
		"references/a.md": {Data: []byte("# A\n")},
	}
	loaded, _ := format.Load(files, format.LoadOptions{})
	if loaded == nil {
		t.Fatal("the sample does not load")
	}
	integrity, err := format.Digest(files, loaded.Files)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshotOf(files, "demo-skill", "1.0.0", integrity)
	if err != nil {
		t.Fatalf("snapshotOf = %v", err)
	}
	want := Seal(snap, "demo-skill", "1.0.0").FS.(*sealedFS)
	pkg, err := sealedSnapshotOf(files, "demo-skill", "1.0.0", integrity)
	if err != nil {
		t.Fatalf("sealedSnapshotOf = %v", err)
	}
	got, ok := pkg.FS.(*sealedFS)
	if !ok || len(got.files) != len(want.files) {
		t.Fatalf("sealedSnapshotOf FS %T, want a seal of %d files", pkg.FS, len(want.files))
	}
	for i := range want.files {
		if g, w := got.files[i], want.files[i]; g.path != w.path || g.sum != w.sum || !bytes.Equal(g.data, w.data) {
			t.Errorf("file %d: %s kept %q, want %s kept %q", i, g.path, g.data, w.path, w.data)
		}
	}
}
