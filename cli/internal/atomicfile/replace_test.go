package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree returns the files below dir, path → content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestReplaceTreeCreatesAndReplaces(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "pkg")
	if err := ReplaceTree(dir, []File{{Path: "SKILL.md", Data: []byte("one")}, {Path: "refs/a.md", Data: []byte("a")}}, nil); err != nil {
		t.Fatalf("ReplaceTree(new) = %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var staged map[string]string
	check := func(stage string) error { staged = tree(t, stage); return nil }
	if err := ReplaceTree(dir, []File{{Path: "SKILL.md", Data: []byte("two")}}, check); err != nil {
		t.Fatalf("ReplaceTree(existing) = %v", err)
	}
	want := map[string]string{"SKILL.md": "two"}
	if got := tree(t, dir); len(got) != 1 || got["SKILL.md"] != "two" {
		t.Errorf("after replace: %v, want %v", got, want)
	}
	if len(staged) != 1 || staged["SKILL.md"] != "two" {
		t.Errorf("check saw %v, want %v", staged, want)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "SKILL.md")); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"pkg"}) {
		t.Errorf("parent holds %v, want only pkg (no staging or old folder left)", got)
	}
}

func TestReplaceTreeCheckFailureChangesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "pkg")
	if err := ReplaceTree(dir, []File{{Path: "SKILL.md", Data: []byte("old")}}, nil); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	err := ReplaceTree(dir, []File{{Path: "SKILL.md", Data: []byte("new")}}, func(string) error { return refused })
	if !errors.Is(err, refused) {
		t.Fatalf("ReplaceTree = %v, want the check's error", err)
	}
	if got := tree(t, dir); got["SKILL.md"] != "old" {
		t.Errorf("after a refused check: %v, want the old file", got)
	}
	// a tree that cannot be written (a file and a folder of one name)
	err = ReplaceTree(dir, []File{{Path: "a", Data: []byte("x")}, {Path: "a/b", Data: []byte("y")}}, nil)
	if err == nil {
		t.Fatal("ReplaceTree wrote a file and a folder of the same name")
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"pkg"}) {
		t.Errorf("parent holds %v, want only pkg", got)
	}
}

func TestReplaceTreeRefusesLinkAndFile(t *testing.T) {
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(parent, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	file := filepath.Join(parent, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{link, file} {
		if err := ReplaceTree(dir, []File{{Path: "x", Data: []byte("x")}}, nil); !errors.Is(err, ErrNotDir) {
			t.Errorf("ReplaceTree(%s) = %v, want ErrNotDir", filepath.Base(dir), err)
		}
	}
	if got := entries(t, real); len(got) != 0 {
		t.Errorf("the link's target holds %v, want nothing", got)
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"file", "link", "real"}) {
		t.Errorf("parent holds %v", got)
	}
}

func TestReplaceTreeRefusesUncleanPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	if err := ReplaceTree(dir, []File{{Path: "../escape", Data: []byte("x")}}, nil); err == nil {
		t.Fatal("ReplaceTree wrote ../escape")
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("pkg exists after a refused write: %v", err)
	}
}
