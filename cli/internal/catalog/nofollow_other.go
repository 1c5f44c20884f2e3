//go:build !unix

package catalog

import (
	"io"
)

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
