//go:build unix

package evidence

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// safeParent refuses to create a store inside a folder reached through a
// symbolic link another user (not root) owns: that user could redirect
// the store's writes.
func safeParent(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Lstat(dir)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && st.Uid != 0 && int(st.Uid) != os.Getuid() {
		return &askerr.Error{Code: CodeStore,
			Message: fmt.Sprintf("evidence store %s: its folder %s is a symbolic link owned by another user", path, dir),
			Try:     []string{"pass a store path in a folder you own with --db <path>"}}
	}
	return nil
}
