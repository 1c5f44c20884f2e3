//go:build unix

package workspace

import (
	"io/fs"
	"syscall"
)

// linkCount returns the number of hard links of a file, or 0 when unknown.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
