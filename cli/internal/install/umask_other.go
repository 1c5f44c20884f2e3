//go:build unix && !linux

package install

import "io/fs"

// umask is every bit where the mask cannot be read without changing it:
// each created file's mode is then set explicitly.
func umask() fs.FileMode { return 0o777 }
