//go:build unix

package install

import (
	"io/fs"
	"syscall"
)

// oNoFollow makes an open fail, rather than follow a symbolic link, when
// the last element of the path is one.
const oNoFollow = syscall.O_NOFOLLOW

// sameDevice reports whether two files are on one file system.
func sameDevice(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return !ok1 || !ok2 || sa.Dev == sb.Dev
}
