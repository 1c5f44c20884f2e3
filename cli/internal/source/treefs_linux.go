//go:build linux

package source

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openNoLinks opens name below the tree in one openat2(2) call that
// refuses every symbolic link on the way and at the end
// (RESOLVE_NO_SYMLINKS) and any way out of the tree (RESOLVE_BENEATH): what
// walkTo checks element by element, and Open's os.SameFile check after it,
// done by the kernel atomically. ok is false when it did not open the file
// — any error, or a kernel or sandbox without openat2 — and the caller
// then takes the checked walk, which also gives the exact error.
func (t *treeFS) openNoLinks(name string) (f *os.File, ok bool) {
	if t.noOpenat2.Load() || t.dir == nil {
		return nil, false
	}
	fd, err := unix.Openat2(t.dirfd, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch err {
	case nil:
		// The name a file opened through the os.Root would have: a
		// directory's entries are Lstat'ed below it.
		return os.NewFile(uintptr(fd), filepath.Join(t.root.Name(), filepath.FromSlash(name))), true
	case unix.ENOSYS, unix.EPERM, unix.EINVAL, unix.E2BIG:
		t.noOpenat2.Store(true)
	}
	return nil, false
}

// statNoLinks is openNoLinks for Stat (the last element may not be a link)
// and Lstat (it may: an O_PATH|O_NOFOLLOW open then refers to the link
// itself), without opening the file for reading. ok is false as for
// openNoLinks, and for the root, whose info the checked walk names ".".
func (t *treeFS) statNoLinks(name string, lstat bool) (info fs.FileInfo, ok bool) {
	if name == "." || t.noOpenat2.Load() || t.dir == nil {
		return nil, false
	}
	flags := uint64(unix.O_PATH | unix.O_CLOEXEC)
	if lstat {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat2(t.dirfd, name, &unix.OpenHow{
		Flags:   flags,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch err {
	case nil:
	case unix.ENOSYS, unix.EPERM, unix.EINVAL, unix.E2BIG:
		t.noOpenat2.Store(true)
		return nil, false
	default:
		return nil, false
	}
	f := os.NewFile(uintptr(fd), filepath.Join(t.root.Name(), filepath.FromSlash(name)))
	defer f.Close()
	info, err = f.Stat()
	return info, err == nil
}

// openDir opens the tree's folder for openNoLinks; nil when it cannot.
func openDir(r *os.Root) *os.File {
	f, err := r.Open(".")
	if err != nil {
		return nil
	}
	return f
}
