//go:build !linux

package testscripts

import "github.com/rogpeppe/go-internal/testscript"

// ttyrun needs Linux's /dev/ptmx; elsewhere a script using it fails.
func ttyrun(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("ttyrun: pseudo terminals are only opened on Linux")
}

// ptyrun needs Linux's /dev/ptmx too.
func ptyrun(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("ptyrun: pseudo terminals are only opened on Linux")
}

// ptyAvailable reports false: ttyrun opens pseudo terminals on Linux only.
func ptyAvailable() bool { return false }
