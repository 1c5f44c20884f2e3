//go:build unix

package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// readSmall reads up to len(buf) bytes of the regular file p into buf with
// four system calls (open without following a link, fstat, read, close),
// the cost that dominates a scan of thousands of skills. full reports that
// the file may hold more than was read; id is the identity of the file
// read, for the metadata cache.
func readSmall(p string, buf []byte) (n int, full bool, id fileID, err error) {
	var fd int
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		if err == syscall.ELOOP {
			return 0, false, id, errors.New(filepath.Base(p) + " is a symbolic link")
		}
		return 0, false, id, &os.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, false, id, errors.New(filepath.Base(p) + " is not a regular file")
	}
	id = statID(&st)
	for n < len(buf) && int64(n) < st.Size {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, false, fileID{}, &os.PathError{Op: "read", Path: p, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, st.Size > int64(n), id, nil
}
