package ui

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether w (beneath a backstop) is a terminal. A
// character device is not enough: /dev/null is one, and output sent there
// is neither coloured nor a place to ask a question.
func IsTerminal(w io.Writer) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && IsTerminalFile(f)
}

// IsTerminalFile reports whether f is a terminal: a character device that
// answers the terminal's ioctl (or, on Windows, is a console), as
// isatty(3) decides — golang.org/x/term's test.
func IsTerminalFile(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	// Control, not Fd: Fd would put the file into blocking mode.
	if err := rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }); err != nil {
		return false
	}
	return tty
}
