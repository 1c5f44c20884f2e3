//go:build !linux

package install

import "io/fs"

// umask is every bit where the mask cannot be read without changing it
// (or, on Windows, where there is none):
// each created file's mode is then set explicitly.
func umask() fs.FileMode { return 0o777 }
