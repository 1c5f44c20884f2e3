//go:build !linux

package atomicfile

// exchange reports that only Linux swaps two folders in one rename.
func exchange(a, b string) error { return errExchangeUnsupported }

// renameNoReplace renames from to to, failing when to exists.
func renameNoReplace(from, to string) error { return renameIfAbsent(from, to) }
