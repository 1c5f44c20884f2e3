// Package gctune is the garbage collector policy of a command run: collect
// rarely (GOGC=400; a command lives for milliseconds and allocates little
// that survives, and collecting less often is nearly half of the time of a
// large resolution), but within a soft memory limit, so that a command
// whose live heap is small — an install of a few hundred skills — does
// not grow its heap to five times what it holds. When the live heap
// reaches half the limit, the limit would make the collector run back to
// back, so it is lifted; from then on GOGC is LargePercent, so that a run
// that holds a lot — an install of thousands of skills — stays within
// one and a half times what it holds instead of five times.
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

// LargePercent is the GOGC once the live heap has passed Limit/2.
// Measured on a registry install of 10,000 skills into two agents (about
// 75 MiB live at its peak), in pairs: GOGC 400 peaked at 410–500 MiB
// resident, 100 at 233–244 MiB, 50 at 174–175 MiB with the same wall
// (the install waits on system calls) for 0.7–0.9 s more user CPU, the
// collector's share of the CPU going from 4 % to about 8 %.
const LargePercent = 50

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
	large := LargePercent
	if gogc != "" {
		large = 0
	}
	watch(Limit/2, large)
}

// watch lifts the memory limit after the first collection that finds
// more than threshold bytes live, and then sets GOGC to percent (unless
// percent is 0).
func watch(threshold uint64, percent int) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > threshold {
				debug.SetMemoryLimit(math.MaxInt64)
				if percent > 0 {
					debug.SetGCPercent(percent)
				}
				return
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// Lifted reports whether the memory limit is off.
func Lifted() bool { return debug.SetMemoryLimit(-1) == math.MaxInt64 }
