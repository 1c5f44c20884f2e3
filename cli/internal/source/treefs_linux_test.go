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
