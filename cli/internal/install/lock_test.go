package install

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locks", "x.lock")
	unlock, err := Lock(t.Context(), path)
	if err != nil {
		t.Fatalf("Lock(%q) = %v", path, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Lock(%q) while held = %v, want %v", path, err, context.DeadlineExceeded)
	}
	unlock()
	unlock2, err := Lock(t.Context(), path)
	if err != nil {
		t.Fatalf("Lock(%q) after unlock = %v", path, err)
	}
	unlock2()
}

func TestWithLockSerialises(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := WithLock(t.Context(), path, func() error {
				mu.Lock()
				inside++
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				inside--
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Errorf("WithLock(%q) = %v", path, err)
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("WithLock let %d callers in at once, want 1", most)
	}
}
