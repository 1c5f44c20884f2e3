// Package gctune is the garbage collector policy of a command run: collect
// rarely (GOGC=400; a command lives for milliseconds and allocates little
// that survives, and collecting less often is nearly half of the time of a
// large resolution), but within a soft memory limit, so that a command
// whose live heap is small — an install of a few hundred skills — does
// not grow its heap to five times what it holds. When the live heap
// reaches half the limit, the limit would make the collector run back to
// back, so it is lifted and GOGC alone applies from then on.
package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Percent is the GOGC of a command run.
const Percent = 400

// Limit is the soft memory limit while the live heap stays under Limit/2.
const Limit = 48 << 20

// Start applies the policy; a GOGC or GOMEMLIMIT in the environment
// (given by the caller) wins.
func Start(gogc, gomemlimit string) {
	if gogc == "" {
		debug.SetGCPercent(Percent)
	}
	if gomemlimit != "" {
		return
	}
	debug.SetMemoryLimit(Limit)
	watch(Limit / 2)
}

// watch lifts the memory limit after the first collection that finds
// more than threshold bytes live.
func watch(threshold uint64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > threshold {
				debug.SetMemoryLimit(math.MaxInt64)
				return
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// Lifted reports whether the memory limit is off.
func Lifted() bool { return debug.SetMemoryLimit(-1) == math.MaxInt64 }
