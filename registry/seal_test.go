package registry

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// TestSealReadsVerifiedBytesAgain: a sealed snapshot holds only its
// manifest and entrypoint; its other files are read again from the
// registry and refused, at the end of the read, once they are no longer
// the verified bytes.
func TestSealReadsVerifiedBytesAgain(t *testing.T) {
	r, pkgDir := localSample(t)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	held := HeldBytes(pkg)
	sealed := Seal(pkg, "demo-skill", "1.0.0")
	if held == 0 || HeldBytes(sealed) != 0 || HeldBytes(pkg) != held {
		t.Fatalf("HeldBytes = %d before, %d sealed, %d of the original after; want >0, 0, unchanged", held, HeldBytes(sealed), HeldBytes(pkg))
	}
	for p, f := range samplePackage() {
		data, err := fs.ReadFile(sealed.FS, p)
		if err != nil || string(data) != string(f.Data) {
			t.Errorf("sealed %s = %q, %v; want the verified bytes", p, data, err)
		}
		if info, err := fs.Stat(sealed.FS, p); err != nil || info.Size() != int64(len(f.Data)) || !info.Mode().IsRegular() {
			t.Errorf("Stat(sealed, %s) = %v, %v; want a regular file of %d bytes", p, info, err, len(f.Data))
		}
	}
	if ents, err := fs.ReadDir(sealed.FS, "references"); err != nil || len(ents) != 2 {
		t.Errorf("ReadDir(sealed, references) = %v, %v; want a.md and deep", ents, err)
	}
	// The registry's files change: the kept entrypoint is still the
	// verified one, a re-read file is refused.
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("changed\n"), 0o644)
	if data, err := fs.ReadFile(sealed.FS, "SKILL.md"); err != nil || string(data) != string(samplePackage()["SKILL.md"].Data) {
		t.Errorf("sealed SKILL.md after a change = %q, %v; want the verified bytes from memory", data, err)
	}
	for _, change := range []string{"# A, changed\n", "# X\n", "", "# A\n and more\n"} {
		os.WriteFile(filepath.Join(pkgDir, "references", "a.md"), []byte(change), 0o644)
		f, err := sealed.FS.Open("references/a.md")
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(io.Discard, f)
		f.Close()
		if codeOf(err) != CodeIntegrityMismatch {
			t.Errorf("reading references/a.md changed to %q = %v, want %s", change, err, CodeIntegrityMismatch)
		}
	}
	if Seal(sealed, "demo-skill", "1.0.0") != sealed {
		t.Errorf("Seal of a sealed package made a new one")
	}
}

// TestSealAfterDownload: a sealed snapshot of a freshly downloaded
// tarball reads its files again from the payload cache, where the
// extraction was moved, not from the temporary folder it was verified in.
func TestSealAfterDownload(t *testing.T) {
	m := newMiniServer(t)
	r := m.open(t, t.TempDir(), nil, false)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	sealed := Seal(pkg, "demo-skill", "1.0.0")
	for p, f := range samplePackage() {
		if data, err := fs.ReadFile(sealed.FS, p); err != nil || string(data) != string(f.Data) {
			t.Errorf("sealed %s after a download = %q, %v; want the verified bytes", p, data, err)
		}
	}
}

// TestFileDigestIsTheVerifiedOne: a snapshot and a sealed package give
// the digest of each file the installer records (format.FileDigest of
// its bytes) without reading it, and none for skill.yaml, whose verified
// digest is of its bytes without the integrity line.
func TestFileDigestIsTheVerifiedOne(t *testing.T) {
	r, _ := localSample(t)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	dg := format.NewDigester()
	for _, fsys := range []fs.FS{pkg.FS, Seal(pkg, "demo-skill", "1.0.0").FS} {
		kd, ok := fsys.(interface{ FileDigest(string) (string, bool) })
		if !ok {
			t.Fatalf("%T has no FileDigest", fsys)
		}
		for p, f := range samplePackage() {
			got, ok := kd.FileDigest(p)
			if p == format.ManifestFile {
				if ok {
					t.Errorf("%T.FileDigest(%s) = %q, want none", fsys, p, got)
				}
				continue
			}
			want, _ := dg.FileDigest(bytes.NewReader(f.Data))
			if !ok || got != want {
				t.Errorf("%T.FileDigest(%s) = %q, %v; want %q", fsys, p, got, ok, want)
			}
		}
		if got, ok := kd.FileDigest("missing.md"); ok {
			t.Errorf("%T.FileDigest(missing.md) = %q, want none", fsys, got)
		}
	}
}

// TestReloaderDecodesTheSealedBytes: a sealed package decoded again by
// its Reloader is the package as verified — from the bytes the seal holds,
// whatever the registry's files say now — and is sealed over the same
// seal, so the files it installs are still checked against the verified
// digests.
func TestReloaderDecodesTheSealedBytes(t *testing.T) {
	r, pkgDir := localSample(t)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if Reloader(pkg) != nil {
		t.Errorf("Reloader of a package that is not sealed is not nil")
	}
	sealed := Seal(pkg, "demo-skill", "1.0.0")
	load := Reloader(sealed)
	if load == nil {
		t.Fatal("Reloader(sealed) = nil")
	}
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Changed.\n---\n"), 0o644)
	got, err := load()
	if err != nil {
		t.Fatalf("reload = %v", err)
	}
	if got == sealed || got.Entrypoint == sealed.Entrypoint {
		t.Errorf("reload returned the sealed package itself, want a fresh decode")
	}
	if got.Entrypoint.Text("description") != "Demo." || got.Manifest.Name != "demo-skill" || !slices.Equal(got.Files, sealed.Files) {
		t.Errorf("reload = %q, %q, %v; want the verified package", got.Entrypoint.Text("description"), got.Manifest.Name, got.Files)
	}
	if !Sealed(got) || got.FS != sealed.FS {
		t.Errorf("reload FS = %T, want the same seal", got.FS)
	}
	os.WriteFile(filepath.Join(pkgDir, "references", "a.md"), []byte("# A, changed\n"), 0o644)
	if _, err := fs.ReadFile(got.FS, "references/a.md"); codeOf(err) != CodeIntegrityMismatch {
		t.Errorf("reloaded references/a.md changed after verification = %v, want %s", err, CodeIntegrityMismatch)
	}
}
