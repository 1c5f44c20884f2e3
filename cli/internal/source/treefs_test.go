package source

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// linkedSource makes, under a temporary folder, a source "src" whose
// folders reach out of it, and back into it, through symbolic links, and
// an "outside" folder holding the skill victim with a secret file. It
// returns the source folder.
func linkedSource(t *testing.T) string {
	t.Helper()
	w := t.TempDir()
	writeFiles(t, w, map[string]string{
		"outside/victim/SKILL.md":               skillMD("victim", "Outside the source. Never install."),
		"outside/victim/secret.md":              "OUTSIDE-SECRET\n",
		"outside/plugins/p/skills/pv/SKILL.md":  skillMD("pv", "Outside the source. Never install."),
		"outside/registry/skills.yaml":          "schemaVersion: 1\nname: x\nskills: []\n",
		"src/skills/own/SKILL.md":               skillMD("own", "Inside the source. Install."),
		"src/real/inner/SKILL.md":               skillMD("inner", "Inside the source. Install."),
		"src/.claude/placeholder":               "x",
		"src/.claude-plugin/marketplace.json":   `{"plugins":[{"name":"p","source":"./plugins/p"},{"name":"q","source":"./","skills":["./linked/victim"]}]}`,
		"src/.agents/skills/README.md":          "x",
		"src/.codex/placeholder":                "x",
		"src/docs/placeholder":                  "x",
		"src/skills/alias-target/SKILL.md":      skillMD("alias-target", "Inside the source. Install."),
		"src/skills/holder/SKILL.md":            skillMD("holder", "Inside the source. Install."),
		"src/skills/holder/references/guide.md": "guide\n",
	})
	links := map[string]string{
		"src/.claude/skills":             "../../outside",       // an agent folder, out of the source
		"src/.codex/skills":              "../skills",           // an agent folder, back into the source
		"src/linked":                     "../outside",          // a plain folder, out of the source
		"src/plugins":                    "../outside/plugins",  // a marketplace plugin root, out of the source
		"src/registry":                   "../outside/registry", // a registry index, out of the source
		"src/skills/alias":               "alias-target",        // a skill folder, inside the source
		"src/skills/holder/references/x": "../../../../outside", // a folder inside a skill
	}
	for from, to := range links {
		if err := os.Symlink(to, filepath.Join(w, filepath.FromSlash(from))); err != nil {
			t.Skipf("symbolic links are not available: %v", err)
		}
	}
	return filepath.Join(w, "src")
}

// Discovery in a source never follows a symbolic link, neither out of the
// source (an agent folder, a plain folder, a plugin, a registry index) nor
// back into it.
func TestDiscoverNeverFollowsLinks(t *testing.T) {
	src := linkedSource(t)
	fsys, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	d, err := discover(fsys, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.found {
		got = append(got, f.Name+"@"+f.Path)
	}
	want := []string{"alias-target@skills/alias-target", "holder@skills/holder", "inner@real/inner", "own@skills/own"}
	if d.registry || !slices.Equal(got, want) {
		t.Errorf("discover(linked source) = %v registry %v, want %v and no registry", got, d.registry, want)
	}
	for _, root := range []string{"linked", "linked/victim", ".claude/skills", ".claude/skills/victim", "skills/alias"} {
		if _, err := discover(fsys, root, 0); codeOf(err) != "ASK_PACKAGE_UNSAFE_FILE" {
			t.Errorf("discover(linked source, %q) = %v, want ASK_PACKAGE_UNSAFE_FILE", root, err)
		}
	}
}

// Fetch of a local folder cannot install, list or copy anything it reaches
// through a link; a link inside a skill folder refuses the skill.
func TestFetchLocalNeverFollowsLinks(t *testing.T) {
	src := linkedSource(t)
	r, ok, err := Parse(src, "/", nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Skills: []string{"victim"}}
	if _, err := Fetch(context.Background(), r, opts); codeOf(err) != "ASK_SOURCE_NOT_FOUND" {
		t.Errorf("Fetch(linked source, --skill victim) = %v, want ASK_SOURCE_NOT_FOUND", err)
	}
	opts.Skills = []string{"own", "alias-target"}
	res, err := Fetch(context.Background(), r, opts)
	if err != nil || len(res.Packages) != 2 {
		t.Fatalf("Fetch(linked source, own + alias-target) = %+v, %v, want both", res, err)
	}
	opts.Dir = filepath.Join(t.TempDir(), "out")
	opts.Skills = []string{"holder"}
	if _, err := Fetch(context.Background(), r, opts); codeOf(err) != "ASK_PACKAGE_UNSAFE_FILE" {
		t.Errorf("Fetch(skill holding a link to a folder) = %v, want ASK_PACKAGE_UNSAFE_FILE", err)
	}
	if ents, _ := os.ReadDir(opts.Dir); len(ents) != 0 {
		t.Errorf("Fetch(skill holding a link) left %v in %s", ents, opts.Dir)
	}
	// A lock entry whose sub-path became a link is refused, not followed.
	pin := Pin{Name: "victim", Version: "1.0.0", Source: src, Subpath: ".claude/skills/victim", Integrity: "sha256-x"}
	if _, err := Restore(context.Background(), pin, Options{CacheDir: t.TempDir(), Dir: t.TempDir()}); codeOf(err) != "ASK_PACKAGE_UNSAFE_FILE" {
		t.Errorf("Restore(sub-path through a link) = %v, want ASK_PACKAGE_UNSAFE_FILE", err)
	}
}

func TestTreeFS(t *testing.T) {
	src := linkedSource(t)
	fsys, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	refused := []string{"linked", "linked/victim/SKILL.md", ".claude/skills/victim/secret.md", "skills/alias/SKILL.md", "skills/alias"}
	for _, name := range refused {
		if _, err := fsys.Open(name); !isLink(err) {
			t.Errorf("treeFS.Open(%q) = %v, want the link refused", name, err)
		}
		if _, err := fs.Stat(fsys, name); !isLink(err) {
			t.Errorf("fs.Stat(treeFS, %q) = %v, want the link refused", name, err)
		}
		if _, err := fs.ReadFile(fsys, name); !isLink(err) {
			t.Errorf("fs.ReadFile(treeFS, %q) = %v, want the link refused", name, err)
		}
	}
	if info, err := fs.Lstat(fsys, "linked"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("fs.Lstat(treeFS, linked) = %v, %v, want a link", info, err)
	}
	if _, err := fs.Lstat(fsys, "linked/victim"); !isLink(err) {
		t.Errorf("fs.Lstat(treeFS, linked/victim) = %v, want the link on the way refused", err)
	}
	if to, err := fs.ReadLink(fsys, "linked"); err != nil || to != "../outside" {
		t.Errorf("fs.ReadLink(treeFS, linked) = %q, %v, want ../outside", to, err)
	}
	ents, err := fs.ReadDir(fsys, "skills")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if e.Name() == "alias" && e.Type()&fs.ModeSymlink == 0 {
			t.Errorf("fs.ReadDir(treeFS, skills): alias has type %v, want a link", e.Type())
		}
	}
	if !slices.IsSorted(names) || len(names) != 4 {
		t.Errorf("fs.ReadDir(treeFS, skills) = %v, want 4 sorted entries", names)
	}
	if data, err := fs.ReadFile(fsys, "skills/own/SKILL.md"); err != nil || len(data) == 0 {
		t.Errorf("fs.ReadFile(treeFS, skills/own/SKILL.md) = %q, %v", data, err)
	}
	for _, bad := range []string{"../outside", "/etc/passwd", "skills/../../outside"} {
		if _, err := fsys.Open(bad); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("treeFS.Open(%q) = %v, want fs.ErrInvalid", bad, err)
		}
	}
}
