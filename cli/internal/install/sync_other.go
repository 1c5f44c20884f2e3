//go:build !linux

package install

import (
	"errors"
	"os"
)

// syncsPaths is true: flush syncs each recorded file and folder.
const syncsPaths = true

// flush makes every recorded file and folder durable with one fsync each.
func (s *syncer) flush() error {
	for _, p := range s.paths {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return ioError("sync", p, err)
		}
		err = f.Sync()
		f.Close()
		if err != nil && !errors.Is(err, os.ErrInvalid) {
			return ioError("sync", p, err)
		}
	}
	s.paths = s.paths[:0]
	return nil
}
