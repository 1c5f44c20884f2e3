//go:build linux

package install

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
	"sync"
)

// umask returns the process's file mode creation mask, read once from
// /proc/self/status (the umask(2) call would change it for every thread
// while it is read); when that cannot be read, every bit, so that each
// created file's mode is set explicitly.
var umask = sync.OnceValue(func() fs.FileMode {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o777
	}
	for line := range bytes.Lines(data) {
		v, ok := bytes.CutPrefix(line, []byte("Umask:"))
		if !ok {
			continue
		}
		m, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 32)
		if err != nil {
			return 0o777
		}
		return fs.FileMode(m) & 0o777
	}
	return 0o777
})
