//go:build !unix

package catalog

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// openNoFollow opens the regular file p for reading, refusing a symbolic
// link and anything that is not a regular file. Without O_NOFOLLOW the
// check is an Lstat, and the file opened must be the one checked
// (os.SameFile), so that a link swapped in between is refused too.
func openNoFollow(p string) (*os.File, error) {
	before, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if before.Mode()&os.ModeSymlink != 0 {
		return nil, errors.New(filepath.Base(p) + " is a symbolic link")
	}
	if !before.Mode().IsRegular() {
		return nil, errors.New(filepath.Base(p) + " is not a regular file")
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	after, err := f.Stat()
	if err != nil || !os.SameFile(before, after) {
		f.Close()
		return nil, errors.New(filepath.Base(p) + " changed while it was opened")
	}
	return f, nil
}

// readSmall reads up to len(buf) bytes of the regular file p into buf,
// without following a symbolic link. full reports that the file may hold
// more than was read.
func readSmall(p string, buf []byte) (n int, full bool, id fileID, err error) {
	f, err := openNoFollow(p)
	if err != nil {
		return 0, false, id, err
	}
	defer f.Close()
	n, err = io.ReadFull(f, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return n, false, id, nil
	}
	return n, err == nil, id, err
}
