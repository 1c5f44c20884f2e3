package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// TestIsTerminalIsATerminalNotACharDevice: /dev/null is a character device
// and no terminal; output sent there was coloured, and an install asked
// there which skills to take when stdin was /dev/null too.
func TestIsTerminalIsATerminalNotACharDevice(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	tty := openPty(t)
	getenv := func(string) string { return "" }
	for _, c := range []struct {
		name string
		f    *os.File
		want bool
	}{{"/dev/null", null, false}, {"a file", file, false}, {"a terminal", tty, true}} {
		if got := IsTerminalFile(c.f); got != c.want {
			t.Errorf("IsTerminalFile(%s) = %v, want %v", c.name, got, c.want)
		}
		if got := IsTerminal(guard(c.f, Style{})); got != c.want {
			t.Errorf("IsTerminal(backstop over %s) = %v, want %v", c.name, got, c.want)
		}
		if got := WantColor(c.f, getenv, nil); got != c.want {
			t.Errorf("WantColor(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// openPty opens the terminal side of a new pseudo-terminal.
func openPty(t *testing.T) *os.File {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("cannot name the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
