//go:build !linux

package catalog

import "errors"

// The metadata cache is implemented on Linux only: elsewhere openRoot fails,
// the cache answers nothing and learns nothing, and every scan reads.
func openRoot(p string) (int, fileID, error) {
	return -1, fileID{}, errors.New("the metadata cache is not supported on this system")
}

func closeRoot(fd int) {}

func lstatAt(fd int, rel string) (id fileID, absent bool, err error) {
	return fileID{}, false, errors.New("the metadata cache is not supported on this system")
}
