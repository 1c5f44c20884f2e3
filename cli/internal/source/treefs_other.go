//go:build !linux

package source

import (
	"io/fs"
	"os"
)

// openNoLinks is the Linux fast path of treeFS.Open; elsewhere Open always
// takes the checked walk.
func (t *treeFS) openNoLinks(string) (*os.File, bool) { return nil, false }

// statNoLinks is the Linux fast path of treeFS.Stat and Lstat.
func (t *treeFS) statNoLinks(string, bool) (fs.FileInfo, bool) { return nil, false }

// openDir is not needed without openNoLinks.
func openDir(*os.Root) *os.File { return nil }

// listRaw is the Linux fast path of onceFS's listings.
func (t *treeFS) listRaw(string, *[]byte) ([]rawEntry, bool) { return nil, false }

// readRaw is the Linux fast path of onceFS's reads.
func (t *treeFS) readRaw(string, int64) (fs.FileInfo, []byte, bool) { return nil, nil, false }
