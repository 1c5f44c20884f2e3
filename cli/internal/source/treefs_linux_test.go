//go:build linux

package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// On Linux a file of the tree is opened with one openat2 call that refuses
// every link; a link anywhere still falls back to the checked walk and its
// refusal, and the entries of a folder opened so still have their info.
func TestTreeFSOpenNoLinks(t *testing.T) {
	src := linkedSource(t)
	fsys, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	probe, err := unix.Openat2(unix.AT_FDCWD, src, &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS})
	if err != nil {
		t.Skipf("openat2 is not available here: %v", err)
	}
	unix.Close(probe)
	f, ok := fsys.openNoLinks("skills/own/SKILL.md")
	if !ok {
		t.Fatalf("openNoLinks(skills/own/SKILL.md) did not open it")
	}
	f.Close()
	for _, name := range []string{"linked", "linked/victim/SKILL.md", "skills/alias/SKILL.md", "skills/alias"} {
		if f, ok := fsys.openNoLinks(name); ok {
			f.Close()
			t.Errorf("openNoLinks(%q) opened it through a link", name)
		}
		if _, err := fsys.Open(name); !isLink(err) {
			t.Errorf("treeFS.Open(%q) = %v, want the link refused", name, err)
		}
	}
	if fsys.noOpenat2.Load() {
		t.Errorf("a refused link switched the fast path off")
	}
	d, err := fsys.Open("skills")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ents, err := d.(fs.ReadDirFile).ReadDir(-1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Errorf("entry %s: Info() = %v", e.Name(), err)
			continue
		}
		want, err := os.Lstat(filepath.Join(src, "skills", e.Name()))
		if err != nil || !os.SameFile(info, want) {
			t.Errorf("entry %s: Info() is not the entry's (%v)", e.Name(), errors.Join(err))
		}
	}
}

// Stat and Lstat take the same one-call path: Lstat reports a link at the
// end as a link, Stat refuses it, and both refuse one on the way.
func TestTreeFSStatNoLinks(t *testing.T) {
	src := linkedSource(t)
	fsys, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	info, ok := fsys.statNoLinks("skills/own/SKILL.md", false)
	if !ok {
		t.Skip("openat2 is not available here")
	}
	want, _ := os.Lstat(filepath.Join(src, "skills/own/SKILL.md"))
	if !os.SameFile(info, want) || info.Name() != "SKILL.md" || !info.Mode().IsRegular() {
		t.Errorf("statNoLinks(skills/own/SKILL.md) = %v %v, want the file", info.Name(), info.Mode())
	}
	if info, ok := fsys.statNoLinks("linked", true); !ok || info.Mode()&fs.ModeSymlink == 0 || info.Name() != "linked" {
		t.Errorf("statNoLinks(linked, lstat) = %v, %v; want the link itself", info, ok)
	}
	for _, name := range []string{"linked", "linked/victim", "skills/alias"} {
		if _, ok := fsys.statNoLinks(name, false); ok {
			t.Errorf("statNoLinks(%q) went through a link", name)
		}
	}
	if _, ok := fsys.statNoLinks("linked/victim", true); ok {
		t.Errorf("statNoLinks(linked/victim, lstat) went through a link")
	}
	if _, err := fsys.Stat("linked"); !isLink(err) {
		t.Errorf("treeFS.Stat(linked) = %v, want the link refused", err)
	}
	if info, err := fsys.Lstat("linked"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("treeFS.Lstat(linked) = %v, %v; want the link", info, err)
	}
}
