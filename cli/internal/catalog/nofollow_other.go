//go:build !unix

package catalog

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// openNoFollow opens a regular file for reading, refusing a symbolic link:
// os.Lstat checks the path and the file opened must be the same file.
func openNoFollow(p string) (*os.File, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New(filepath.Base(p) + " is not a regular file")
	}
	return openSame(p, fi)
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
