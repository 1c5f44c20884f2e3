//go:build !(darwin || dragonfly || freebsd || netbsd || openbsd || aix || linux || solaris)

package ui

// isTerminalFd reports whether fd is a terminal: a character device is
// taken for one where no terminal ioctl is at hand.
func isTerminalFd(uintptr) bool { return true }
