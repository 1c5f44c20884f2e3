//go:build linux

package install

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// pkgFd is a package folder (or a file-shaped package's root) opened as
// a descriptor, through which tracked files are compared without an
// os.File each: fstatat to refuse what is not a regular file without
// opening it, then openat2 confined beneath the folder (RESOLVE_BENEATH,
// as os.Root confines), the reads and the close — where an os.Root
// walked every parent folder and registered each file with the poller.
type pkgFd struct{ fd int }

// openat2OK reports whether the kernel has openat2 (Linux 5.6) and lets
// this process use it; without it, pkgRoot's os.Root is used.
var openat2OK = sync.OnceValue(func() bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, ".", &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
})

// openPkgFd opens dest's folder as pkgRoot does, or returns nil (and no
// error) where openat2 is missing or there is nothing to open.
func openPkgFd(dest string, shape agents.Shape) (*pkgFd, error) {
	if !openat2OK() {
		return nil, nil
	}
	dir := dest
	if shape == agents.ShapeFile {
		dir = filepath.Dir(dest)
	} else if info, err := os.Lstat(dest); err != nil || !info.IsDir() {
		return nil, err
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT {
		return nil, nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &pkgFd{fd: fd}, nil
}

func (p *pkgFd) Close() error { return unix.Close(p.fd) }

// fileMatches is fileMatches through the descriptor.
func (p *pkgFd) fileMatches(rel, want string, dg *format.Digester) (bool, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(p.fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return false, &fs.PathError{Op: "lstat", Path: rel, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false, nil
	}
	fd, err := unix.Openat2(p.fd, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ELOOP) {
		return false, nil // a link now: not the file written
	}
	if err != nil {
		return false, &fs.PathError{Op: "open", Path: rel, Err: err}
	}
	defer unix.Close(fd)
	got, err := dg.FileDigest(fdReader(fd))
	if err != nil {
		return false, err
	}
	return got == want, nil
}

// fdReader reads a descriptor.
type fdReader int

func (r fdReader) Read(b []byte) (int, error) {
	for {
		n, err := unix.Read(int(r), b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(b) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}
