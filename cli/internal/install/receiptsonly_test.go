package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// Scan with ReceiptsOnly reports what the receipts say without reading
// the files: an edited file is not seen, a package that is gone or was
// put in place by hand still is.
func TestScanReceiptsOnly(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"notes.md": "notes\n"}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}))
	root := filepath.Join(w.project, ".claude/skills")
	if err := os.WriteFile(filepath.Join(root, "a/references/notes.md"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "hand"), 0o755); err != nil {
		t.Fatal(err)
	}
	full, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ro := opts
	ro.ReceiptsOnly = true
	light, err := Scan(t.Context(), ro)
	if err != nil {
		t.Fatal(err)
	}
	state := func(list []Installed) map[string]string {
		m := map[string]string{}
		for _, in := range list {
			m[in.Name] = string(in.State) + " " + in.Version
			if len(in.Drift) > 0 || len(in.ModifiedFiles) > 0 {
				m[in.Name] += " drift"
			}
		}
		return m
	}
	if got := state(full); got["a"] != string(StateModified)+" 1.0.0 drift" {
		t.Fatalf("Scan() a = %q, want modified with drift", got["a"])
	}
	got := state(light)
	want := map[string]string{"a": string(StateOK) + " 1.0.0", "b": string(StateModified) + " 1.0.0", "hand": string(StateUnmanaged) + " "}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("Scan(ReceiptsOnly) %s = %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Scan(ReceiptsOnly) = %v, want %v", got, want)
	}
}

// Scan with ReceiptsOnly tells a package's folder from a file or a link
// put in its place, from the root's listing as an lstat would.
func TestScanReceiptsOnlyKinds(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}), writePkg(t, w.base, pkgSpec{name: "c", version: "1.0.0"}))
	root := filepath.Join(w.project, ".claude/skills")
	os.RemoveAll(filepath.Join(root, "a"))
	if err := os.WriteFile(filepath.Join(root, "a"), []byte("a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, "b"))
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	ro := opts
	ro.ReceiptsOnly = true
	list, err := Scan(t.Context(), ro)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]State{}
	for _, in := range list {
		got[in.Name] = in.State
	}
	want := map[string]State{"a": StateModified, "b": StateModified, "c": StateOK}
	if len(got) != len(want) || got["a"] != want["a"] || got["b"] != want["b"] || got["c"] != want["c"] {
		t.Errorf("Scan(ReceiptsOnly) states = %v, want %v", got, want)
	}
}

// rootListing.presence answers from the listing for an entry of the root
// (no lstat: what was listed is what counts) and asks the disk otherwise.
func TestRootListingPresence(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"dir", "gone"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "file.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, l := packageNames(rootInfo{path: root, loc: agents.Location{Shape: agents.ShapeDirectory}}, nil)
	if err := os.Remove(filepath.Join(root, "gone")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dest           string
		shape          agents.Shape
		exists, kindOK bool
	}{
		{filepath.Join(root, "dir"), agents.ShapeDirectory, true, true},
		{filepath.Join(root, "gone"), agents.ShapeDirectory, true, true}, // as listed
		{filepath.Join(root, "file.md"), agents.ShapeDirectory, true, false},
		{filepath.Join(root, "file.md"), agents.ShapeFile, true, true},
		{filepath.Join(root, "none"), agents.ShapeDirectory, false, false},
		{filepath.Join(root, "dir", "below"), agents.ShapeDirectory, false, false}, // not an entry: lstat
	} {
		d, err := l.presence(root, c.dest, c.shape)
		if err != nil || d.exists != c.exists || d.kindOK != c.kindOK {
			t.Errorf("presence(%s, %v) = %+v, %v, want exists %v kindOK %v", c.dest, c.shape, d, err, c.exists, c.kindOK)
		}
	}
}
