package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

// restore puts the collector's settings back after a test.
func restore(t *testing.T) {
	oldLimit := debug.SetMemoryLimit(-1)
	oldPercent := debug.SetGCPercent(100)
	debug.SetGCPercent(oldPercent)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit); debug.SetGCPercent(oldPercent) })
}

// collectUntil runs collections until done reports true or five seconds
// pass.
func collectUntil(done func() bool) bool {
	deadline := time.Now().Add(5 * time.Second)
	for !done() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	return done()
}

// TestLimitFor: the limit is Limit for a small live heap, and FollowPercent
// more than the live heap plus Headroom past it.
func TestLimitFor(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, Limit},
		{30 << 20, Limit},                      // 30×1.25+8 = 45.5 MiB < Limit
		{36 << 20, 53 << 20},                   // 36×1.25+8
		{LiftAt, 58 << 20},                     // the largest limit before it is lifted
		{math.MaxUint64, 1<<50*5/4 + Headroom}, // capped, not overflowing
	}
	for _, tt := range tests {
		if got := limitFor(tt.live); got != tt.want {
			t.Errorf("limitFor(%d MiB) = %d MiB, want %d MiB", tt.live>>20, got>>20, tt.want>>20)
		}
	}
}

// TestWatchSeesEachCollection: watch reports the live heap after
// collections until its function returns false.
func TestWatchSeesEachCollection(t *testing.T) {
	var mu sync.Mutex
	var seen []uint64
	watch(func(live uint64) bool {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, live)
		return len(seen) < 3
	})
	hold := make([]byte, 4<<20)
	n := func() int { mu.Lock(); defer mu.Unlock(); return len(seen) }
	if !collectUntil(func() bool { return n() >= 3 }) {
		t.Fatalf("watch saw %d collections, want 3", n())
	}
	runtime.KeepAlive(hold)
	for range 5 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 {
		t.Errorf("watch saw %d collections, want it to stop at 3", len(seen))
	}
	if seen[0] < 4<<20 {
		t.Errorf("watch saw %d bytes live, want at least the 4 MiB held", seen[0])
	}
}

// TestLimitFollowsThenLifts: under Start's policy the limit stays Limit
// with a small live heap, grows with a live heap past 32 MiB, and is lifted
// past LiftAt, GOGC then being LargePercent.
func TestLimitFollowsThenLifts(t *testing.T) {
	restore(t)
	Start("", "")
	if got := debug.SetGCPercent(-1); got != Percent {
		t.Fatalf("GOGC after Start = %d, want %d", got, Percent)
	}
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got := limit(); got != Limit {
		t.Fatalf("limit with a small live heap = %d MiB, want %d MiB", got>>20, Limit>>20)
	}
	var hold [][]byte
	for range 36 {
		hold = append(hold, make([]byte, 1<<20))
	}
	// 36 MiB live: the limit is about 53 MiB.
	if !collectUntil(func() bool { return limit() > Limit }) {
		t.Fatalf("limit with 36 MiB live = %d MiB, want it raised past %d MiB", limit()>>20, Limit>>20)
	}
	if got := limit(); got < 50<<20 || got > 60<<20 || Lifted() {
		t.Errorf("limit with 36 MiB live = %d MiB, want about 1.25×36+8 = 53 MiB", got>>20)
	}
	for range 8 {
		hold = append(hold, make([]byte, 1<<20))
	}
	if !collectUntil(Lifted) {
		t.Fatalf("limit with 44 MiB live = %d MiB, want it lifted past LiftAt", limit()>>20)
	}
	runtime.KeepAlive(hold)
	if got := debug.SetGCPercent(-1); got != LargePercent {
		t.Errorf("GOGC after the limit was lifted = %d, want %d", got, LargePercent)
	}
}

// TestEnvironmentGOGC: with GOGC from the environment, the limit applies
// while the live heap is under Limit/2, is then lifted, and GOGC stays the
// environment's.
func TestEnvironmentGOGC(t *testing.T) {
	restore(t)
	debug.SetGCPercent(150) // as the runtime reads GOGC=150
	Start("150", "")
	if got := debug.SetMemoryLimit(-1); got != Limit {
		t.Fatalf("limit = %d, want %d", got, Limit)
	}
	var hold [][]byte
	for range 28 {
		hold = append(hold, make([]byte, 1<<20))
	}
	if !collectUntil(Lifted) {
		t.Fatalf("limit with 28 MiB live = %d, want lifted past Limit/2", debug.SetMemoryLimit(-1))
	}
	runtime.KeepAlive(hold)
	if got := debug.SetGCPercent(-1); got != 150 {
		t.Errorf("GOGC = %d, want the environment's 150", got)
	}
}

// TestEnvironmentWins: GOGC and GOMEMLIMIT from the environment are kept.
func TestEnvironmentWins(t *testing.T) {
	restore(t)
	debug.SetGCPercent(123)
	debug.SetMemoryLimit(99 << 20)
	Start("123", "99MiB")
	if got := debug.SetGCPercent(123); got != 123 {
		t.Errorf("GOGC = %d, want the environment's 123", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 99<<20 {
		t.Errorf("memory limit = %d, want the environment's", got)
	}
}
