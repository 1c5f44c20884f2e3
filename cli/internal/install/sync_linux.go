//go:build linux

package install

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncsPaths is false: flush syncs whole file systems, so the syncer
// need not record every path written.
const syncsPaths = false

// flush makes every write under the recorded roots durable with one
// syncfs(2) per file system, which is far cheaper than an fsync per file
// and folder when a hundred packages are installed at once.
func (s *syncer) flush() error {
	seen := map[uint64]bool{}
	for _, root := range s.roots {
		var st unix.Stat_t
		if err := unix.Stat(root, &st); err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return ioError("sync", root, err)
		}
		if seen[st.Dev] {
			continue
		}
		seen[st.Dev] = true
		f, err := os.Open(root)
		if err != nil {
			return ioError("sync", root, err)
		}
		err = unix.Syncfs(int(f.Fd()))
		f.Close()
		if err != nil {
			return ioError("sync", root, err)
		}
	}
	s.paths = s.paths[:0]
	return nil
}
