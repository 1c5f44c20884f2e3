//go:build windows

package workspace

import (
	"os"
	"path/filepath"
	"strings"
)

// executable returns the file Windows would run for p: p itself when it
// already has an extension PATHEXT names, else p with the first of
// PATHEXT's extensions (.COM, .EXE, .BAT, .CMD by default) that exists.
// Windows has no execute bit: npm, for one, is npm.cmd.
func executable(p string, getenv func(string) string) (string, bool) {
	exts := strings.Split(strings.ToLower(getenv("PATHEXT")), ";")
	if getenv("PATHEXT") == "" {
		exts = []string{".com", ".exe", ".bat", ".cmd"}
	}
	isFile := func(f string) bool {
		fi, err := os.Stat(f)
		return err == nil && !fi.IsDir()
	}
	if ext := strings.ToLower(filepath.Ext(p)); ext != "" {
		for _, e := range exts {
			if e == ext && isFile(p) {
				return p, true
			}
		}
	}
	for _, e := range exts {
		if e != "" && isFile(p+e) {
			return p + e, true
		}
	}
	return "", false
}
