//go:build windows

package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExecutableTriesPATHEXT(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "npm.cmd"), []byte("@echo off\\r\\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	if got, ok := executable(filepath.Join(dir, "npm"), getenv); !ok || got != filepath.Join(dir, "npm.cmd") {
		t.Errorf("executable(npm) = %q, %v; want npm.cmd", got, ok)
	}
	if _, ok := executable(filepath.Join(dir, "node"), getenv); ok {
		t.Errorf("executable(node) found a file that does not exist")
	}
}
