package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestLimitLiftedWhenLiveHeapGrows: under the threshold the limit stays;
// once a collection finds more live, it is lifted.
func TestLimitLiftedWhenLiveHeapGrows(t *testing.T) {
	oldLimit := debug.SetMemoryLimit(-1)
	oldPercent := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit); debug.SetGCPercent(oldPercent) })

	debug.SetMemoryLimit(Limit)
	debug.SetGCPercent(Percent)
	watch(8<<20, LargePercent)
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if Lifted() {
		t.Fatalf("limit lifted with a small live heap")
	}
	hold := make([][]byte, 0, 16)
	for range 16 {
		hold = append(hold, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(5 * time.Second)
	for !Lifted() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	runtime.KeepAlive(hold)
	if !Lifted() {
		t.Errorf("limit still %d with 16 MiB live over an 8 MiB threshold", debug.SetMemoryLimit(-1))
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit = %d, want none", got)
	}
	if got := debug.SetGCPercent(-1); got != LargePercent {
		t.Errorf("GOGC after the limit was lifted = %d, want %d", got, LargePercent)
	}
}

// TestEnvironmentWins: GOGC and GOMEMLIMIT from the environment are kept.
func TestEnvironmentWins(t *testing.T) {
	oldLimit := debug.SetMemoryLimit(-1)
	oldPercent := debug.SetGCPercent(123)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit); debug.SetGCPercent(oldPercent) })
	debug.SetMemoryLimit(99 << 20)
	Start("123", "99MiB")
	if got := debug.SetGCPercent(123); got != 123 {
		t.Errorf("GOGC = %d, want the environment's 123", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 99<<20 {
		t.Errorf("memory limit = %d, want the environment's", got)
	}
}
