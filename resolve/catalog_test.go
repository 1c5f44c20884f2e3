package resolve

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestResolveLeavesNoGoroutines checks that the prefetching workers are
// gone when Resolve returns, whether it succeeds, fails or is cancelled.
func TestResolveLeavesNoGoroutines(t *testing.T) {
	g := newGenSource(200, 5, 3, false)
	src := slowSource{g, 100 * time.Microsecond}
	before := runtime.NumGoroutine()
	if _, err := Resolve(context.Background(), src, []Reference{{Name: g.names[0]}}, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(context.Background(), src, []Reference{{Name: "pkg-99999"}}, Options{}); err == nil {
		t.Fatal("Resolve(pkg-99999) succeeded, want ASK_SKILL_NOT_FOUND")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Resolve(ctx, src, []Reference{{Name: g.names[0]}}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Resolve(cancelled) = %v, want context.Canceled", err)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("runtime.NumGoroutine() = %d after Resolve, want at most %d", after, before)
	}
}
