package install

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// WithLock runs fn while holding an exclusive lock on the file at path,
// so that concurrent runs of the tool on the same roots and lock file take
// turns. The file and its folder are created when missing and never
// removed. It waits for the lock until ctx is done, and releases it when fn
// returns, panics or exits its goroutine. The lock is advisory (flock(2)
// on Unix): only processes that take it are serialised. Two calls in one
// process exclude each other too.
func WithLock(ctx context.Context, path string, fn func() error) error {
	unlock, err := Lock(ctx, path)
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}

// Lock takes the lock WithLock takes and returns the function that
// releases it; for callers whose critical section does not fit in one
// function.
func Lock(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, ioError("create the lock folder", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|oNoFollow, 0o644)
	if err != nil {
		return nil, ioError("open the lock file", path, err)
	}
	wait := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, ioError("lock", path, err)
		}
		if ok {
			return func() { f.Close() }, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, 50*time.Millisecond)
	}
}
