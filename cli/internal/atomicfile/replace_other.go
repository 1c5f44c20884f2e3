//go:build !linux

package atomicfile

// Exchange reports that only Linux swaps two folders in one rename.
func Exchange(a, b string) error { return ErrExchangeUnsupported }

// RenameNoReplace renames from to to, failing when to exists.
func RenameNoReplace(from, to string) error { return renameIfAbsent(from, to) }
