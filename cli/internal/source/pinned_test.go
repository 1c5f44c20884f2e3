package source

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// fsTree reads every file of fsys below "." as a map, as readTree reads a
// folder.
func fsTree(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatalf("walking the package: %v", err)
	}
	return out
}

// An in-place fetch gives the packages a copy would, with the same
// integrity and files, and writes nothing under Dir; git's checkout stays
// until Result.Close.
func TestFetchInPlace(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/skills", collection())
	ref := mustParse(t, "acme/skills#"+sha)
	copyOpts := fetchOpts(t, fx)
	copyOpts.Skills = []string{"*"}
	copied, err := Fetch(context.Background(), ref, copyOpts)
	if err != nil {
		t.Fatal(err)
	}
	opts := fetchOpts(t, fx)
	opts.Skills, opts.InPlace = []string{"*"}, true
	res, err := Fetch(context.Background(), ref, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Packages) != len(copied.Packages) || len(res.Packages) == 0 {
		t.Fatalf("Fetch(InPlace) gave %d packages, a copy %d", len(res.Packages), len(copied.Packages))
	}
	for i, p := range res.Packages {
		c := copied.Packages[i]
		if p.Name != c.Name || p.Version != c.Version || p.Integrity != c.Integrity || p.Dir != "" || !slices.Equal(p.Pkg.Files, c.Pkg.Files) {
			t.Errorf("Fetch(InPlace) %s = %s %s dir %q files %v; the copy %s %s files %v", p.Name, p.Version, p.Integrity, p.Dir, p.Pkg.Files, c.Version, c.Integrity, c.Pkg.Files)
		}
		got, want := fsTree(t, p.Pkg.FS), readTree(t, c.Dir)
		if len(got) != len(want) {
			t.Errorf("Fetch(InPlace) %s files = %v, the copy's %v", p.Name, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("Fetch(InPlace) %s file %s = %q, the copy's %q", p.Name, k, got[k], v)
			}
		}
		if sum, err := format.Digest(p.Pkg.FS, p.Pkg.Files); err != nil || sum != p.Integrity {
			t.Errorf("Digest(%s read in place) = %s, %v; want %s", p.Name, sum, err, p.Integrity)
		}
	}
	if ents, _ := os.ReadDir(opts.Dir); len(ents) != 0 {
		t.Errorf("Fetch(InPlace) wrote %d entries under Dir, want none", len(ents))
	}
	if ents, _ := os.ReadDir(opts.CacheDir); len(ents) == 0 {
		t.Errorf("Fetch(InPlace) released the checkout before Result.Close")
	}
	res.Close()
	res.Close()
	var left []string
	filepath.WalkDir(opts.CacheDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "SKILL.md") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("after Result.Close the checkout is still there: %v", left)
	}
}

// inPlaceSkill fetches the one skill of a folder in place.
func inPlaceSkill(t *testing.T, files map[string]string) (string, *Result, *Package) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), InPlace: true}
	res, err := Fetch(context.Background(), mustParse(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(res.Close)
	if len(res.Packages) != 1 {
		t.Fatalf("Fetch(%s) = %d packages, want 1", dir, len(res.Packages))
	}
	return dir, res, &res.Packages[0]
}

// Past the budget of bytes kept in memory, a file of the source that
// changes after verification is never handed out: a small one fails when opened, a large one when its copy ends, a
// grown one as soon as it is longer. Files keep mode 0644, as the copy
// gave them, and their digests are known without reading them.
func TestPinnedFSRefusesChangedBytes(t *testing.T) {
	pastBudget(t)
	big := strings.Repeat("0123456789abcdef", pinnedWhole/16+1)
	dir, _, p := inPlaceSkill(t, map[string]string{
		"SKILL.md":            skillMD("solo", "Solo skill. Use for solo work."),
		"references/small.md": "small\n",
		"references/big.txt":  big,
		"scripts/run.sh":      "#!/bin/sh\necho hi\n",
	})
	os.Chmod(filepath.Join(dir, "scripts/run.sh"), 0o755)
	fsys := p.Pkg.FS
	kd, ok := fsys.(interface{ FileDigest(string) (string, bool) })
	if !ok {
		t.Fatalf("the in-place package's FS knows no digests")
	}
	for _, name := range []string{"references/small.md", "references/big.txt", "scripts/run.sh"} {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatalf("ReadFile(%s) = %v", name, err)
		}
		if d, ok := kd.FileDigest(name); !ok || d != mustDigest(t, data) {
			t.Errorf("FileDigest(%s) = %s, %v; want the digest of its bytes", name, d, ok)
		}
		if info, err := fs.Stat(fsys, name); err != nil || info.Mode() != 0o644 || info.Size() != int64(len(data)) {
			t.Errorf("Stat(%s) = %v, %v; want a 0644 file of %d bytes", name, info, err, len(data))
		}
	}

	writeFiles(t, dir, map[string]string{"references/small.md": "SMALL\n"})
	if _, err := fsys.Open("references/small.md"); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Open(small file changed after verification) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
	writeFiles(t, dir, map[string]string{"references/small.md": "small\n"})
	if _, err := fs.ReadFile(fsys, "references/small.md"); err != nil {
		t.Errorf("ReadFile(small file changed back) = %v, want the verified bytes", err)
	}

	changed := []byte(big)
	changed[len(changed)/2] = 'X'
	writeFiles(t, dir, map[string]string{"references/big.txt": string(changed)})
	f, err := fsys.Open("references/big.txt")
	if err != nil {
		t.Fatalf("Open(big file) = %v", err)
	}
	_, err = io.Copy(io.Discard, f)
	f.Close()
	if codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("copying a big file changed after verification = %v, want ASK_INTEGRITY_MISMATCH", err)
	}

	writeFiles(t, dir, map[string]string{"references/big.txt": big + "more"})
	f, err = fsys.Open("references/big.txt")
	if err != nil {
		t.Fatalf("Open(big file) = %v", err)
	}
	var buf bytes.Buffer
	_, err = io.Copy(&buf, f)
	f.Close()
	if codeOf(err) != "ASK_INTEGRITY_MISMATCH" || buf.Len() > len(big)+64<<10 {
		t.Errorf("copying a grown big file = %v after %d bytes, want ASK_INTEGRITY_MISMATCH by the verified size", err, buf.Len())
	}

	if _, err := fsys.Open("references/absent.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(a file not in the package) = %v, want fs.ErrNotExist", err)
	}
	if ents, err := fs.ReadDir(fsys, "references"); err != nil || len(ents) != 2 {
		t.Errorf("ReadDir(references) = %v, %v; want big.txt and small.md", ents, err)
	}
}

// A bare skill's synthesised skill.yaml is served from memory, never
// written, with the integrity the copy would have.
func TestPinnedFSSynthesisedManifest(t *testing.T) {
	dir, _, p := inPlaceSkill(t, map[string]string{"SKILL.md": skillMD("solo", "Solo skill. Use for solo work.")})
	if !p.Synthesised {
		t.Fatalf("Fetch(bare skill) Synthesised = false")
	}
	if _, err := os.Stat(filepath.Join(dir, format.ManifestFile)); err == nil {
		t.Errorf("Fetch(InPlace) wrote skill.yaml into the source")
	}
	data, err := fs.ReadFile(p.Pkg.FS, format.ManifestFile)
	if err != nil || !strings.Contains(string(data), "name: solo") {
		t.Errorf("ReadFile(skill.yaml) = %q, %v; want the synthesised manifest", data, err)
	}
}

func mustDigest(t *testing.T, data []byte) string {
	t.Helper()
	d, err := format.FileDigest(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A package restored in place, past the budget of bytes kept in memory,
// holds no descriptor of the folder: it opens the folder again for each file, and still hands out only verified bytes.
func TestRestoreInPlaceReopens(t *testing.T) {
	pastBudget(t)
	dir, _, p := inPlaceSkill(t, map[string]string{
		"SKILL.md":            skillMD("solo", "Solo skill. Use for solo work."),
		"references/notes.md": "notes\n",
	})
	pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Resolved: p.Resolved, Subpath: p.Subpath, Integrity: p.Integrity}
	got, err := Restore(context.Background(), pin, Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	pinned, ok := got.Pkg.FS.(*pinnedFS)
	if !ok || pinned.src != nil || got.Dir != "" {
		t.Fatalf("Restore(InPlace) = FS %T, dir %q; want a detached pinnedFS", got.Pkg.FS, got.Dir)
	}
	if data, err := fs.ReadFile(got.Pkg.FS, "references/notes.md"); err != nil || string(data) != "notes\n" {
		t.Errorf("ReadFile(notes.md) = %q, %v; want the verified bytes", data, err)
	}
	writeFiles(t, dir, map[string]string{"references/notes.md": "changed\n"})
	if _, err := fs.ReadFile(got.Pkg.FS, "references/notes.md"); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("ReadFile(notes.md changed after the restore verified it) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
}

// pastBudget makes the packages fetched during the test keep no bytes in
// memory, so that the install reads (and checks) the source again. Tests
// that call it are not parallel.
func pastBudget(t *testing.T) {
	t.Cleanup(SetPinnedBudget(0))
}

// The budget of verified bytes held in memory is shared by every source
// open at once, and a source gives its share back when it is closed: a
// restore opens one source per locked skill. Not parallel: the budget is
// process-wide.
func TestPinnedBudgetShared(t *testing.T) {
	files := map[string]string{"SKILL.md": skillMD("solo", "Solo skill. Use for solo work."), "references/notes.md": strings.Repeat("n", 4000)}
	holds := func(p *Package) bool {
		pinned := p.Pkg.FS.(*pinnedFS)
		for _, f := range pinned.files {
			if f.data == nil {
				return false
			}
		}
		return true
	}
	defer SetPinnedBudget(held.Load() + 6000)() // room for one skill, whatever other tests hold
	_, resA, a := inPlaceSkill(t, files)
	_, resB, b := inPlaceSkill(t, files)
	if !holds(a) || holds(b) {
		t.Fatalf("with room for one skill, the first holds its bytes: %v, the second: %v; want true, false", holds(a), holds(b))
	}
	if data, err := fs.ReadFile(b.Pkg.FS, "references/notes.md"); err != nil || len(data) != 4000 {
		t.Errorf("ReadFile(notes.md) of the skill past the budget = %d bytes, %v; want the verified 4000", len(data), err)
	}
	resA.Close()
	resB.Close()
	_, _, c := inPlaceSkill(t, files)
	if !holds(c) {
		t.Errorf("once the others are closed, a third source's skill does not hold its bytes")
	}
}
