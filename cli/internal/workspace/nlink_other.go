//go:build !unix

package workspace

import "io/fs"

// linkCount returns 0: this platform does not expose link counts through
// fs.FileInfo.
func linkCount(fs.FileInfo) uint64 { return 0 }
