//go:build linux

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Exchange swaps the folders a and b in one rename (renameat2's
// RENAME_EXCHANGE): at every instant each path holds one complete folder.
// Where the file system cannot, it returns ErrExchangeUnsupported.
func Exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return ErrExchangeUnsupported
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}

// RenameNoReplace renames from to to, failing when to exists, even as an
// empty folder (which a plain rename would replace).
func RenameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return renameIfAbsent(from, to)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
