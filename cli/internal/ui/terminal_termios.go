//go:build aix || linux || solaris

package ui

import "golang.org/x/sys/unix"

// isTerminalFd reports whether fd reads a terminal's attributes.
func isTerminalFd(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
