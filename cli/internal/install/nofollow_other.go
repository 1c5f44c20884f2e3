//go:build !unix

package install

import "io/fs"

// oNoFollow is 0 where open has no O_NOFOLLOW; readMetaFile checks with
// Lstat first.
const oNoFollow = 0

// sameDevice cannot tell file systems apart off Unix and reports true.
func sameDevice(a, b fs.FileInfo) bool { return true }
