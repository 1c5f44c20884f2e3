//go:build !linux

package source

import "os"

// openNoLinks is the Linux fast path of treeFS.Open; elsewhere Open always
// takes the checked walk.
func (t *treeFS) openNoLinks(string) (*os.File, bool) { return nil, false }

// openDir is not needed without openNoLinks.
func openDir(*os.Root) *os.File { return nil }
