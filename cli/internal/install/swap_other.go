//go:build !linux

package install

import "os"

// exchange reports that atomic exchange is not available: only Linux has
// renameat2. Callers fall back to renaming aside with a journal.
func exchange(a, b string) error { return errExchangeUnsupported }

// renameNoReplace renames from to to, failing when to exists.
func renameNoReplace(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrExist}
	}
	return os.Rename(from, to)
}
