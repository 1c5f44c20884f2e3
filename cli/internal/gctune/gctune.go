// Package gctune is the garbage collector policy of a command run: collect
// rarely (GOGC=400; a command lives for milliseconds and allocates little
// that survives, and collecting less often is nearly half of the time of a
// large resolution), but within a soft memory limit, so that a command
// whose live heap is small — an install of a few hundred skills — does
// not grow its heap to five times what it holds. The limit follows the
// live heap: after each collection it is the larger of Limit and
// FollowPercent more than what that collection found live, plus Headroom
// for the runtime's own memory, so that a run holding a few tens of MiB
// never collects back to back while the limit still makes the runtime
// return the memory it no longer uses (its resident memory stays near
// the limit, not near the largest heap it ever reached). Past LiftAt
// live, holding memory that tight costs more than it saves — the pages
// returned are faulted back in, and the collector runs twice as often as
// with GOGC=LargePercent — so the limit is lifted and GOGC is
// LargePercent: a run that holds a lot, an install of thousands of
// skills, stays within one and a half times what it holds instead of
// five times.
package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Percent is the GOGC of a command run.
const Percent = 400

// Limit is the smallest soft memory limit.
const Limit = 48 << 20

// FollowPercent is how much more than the live heap the limit allows once
// the live heap is past (Limit-Headroom)/1.25, 32 MiB. Measured on a
// registry install of 10,000 skills into two agents, whose live heap
// peaks at 30 MiB for about a second of its 9 (resolution; 21–27 MiB the
// rest of the run), in three pairs against 50: 61.5–62.6 MiB resident
// against 63.5–64.7, for 116–120 collections against 106–110 and no more
// user CPU (3.8–5.2 s against 4.4–5.3). Below 32 MiB live (an install of
// a few thousand skills or fewer) it changes nothing.
const FollowPercent = 25

// LargePercent is the GOGC once the live heap is past LiftAt. Measured on a
// registry install of 10,000 skills into two agents (about 75 MiB live at
// its peak), in pairs, with GOGC instead of a limit: GOGC 400 peaked at
// 410–500 MiB resident, 100 at 233–244 MiB, 50 at 174–175 MiB with the
// same wall (the install waits on system calls) for 0.7–0.9 s more user
// CPU, the collector's share of the CPU going from 4 % to about 8 %.
const LargePercent = 50

// LiftAt is the live heap past which the limit is lifted (the limit is
// then 1.25 × LiftAt + Headroom = 58 MiB, and the heap may grow to 1.5 ×
// LiftAt). Measured on installs from a
// 10,000-skill registry, in pairs: 2,500 skills (~30 MiB live) peaked at
// 63 MiB resident with the limit following the heap against 71 MiB with
// it lifted at 24 MiB, for the same CPU; 10,000 skills (~86 MiB live)
// took 108 collections and 2.5 times the collector's CPU with the limit
// following, against 56 with GOGC=50.
const LiftAt = 40 << 20

// Headroom is what the limit allows besides the heap: the runtime's own
// memory (goroutine stacks, the collector's metadata, free pages not yet
// returned), which the limit counts too.
const Headroom = 8 << 20

// Start applies the policy; a GOGC or GOMEMLIMIT in the environment
// (given by the caller) wins. With only GOGC given, the limit applies
// while the live heap stays under Limit/2 and is then lifted, leaving
// that GOGC alone in charge.
func Start(gogc, gomemlimit string) {
	if gogc == "" {
		debug.SetGCPercent(Percent)
	}
	if gomemlimit != "" {
		return
	}
	debug.SetMemoryLimit(Limit)
	if gogc != "" {
		watch(func(live uint64) bool {
			if live <= Limit/2 {
				return true
			}
			debug.SetMemoryLimit(math.MaxInt64)
			return false
		})
		return
	}
	watch(func(live uint64) bool {
		if live > LiftAt {
			debug.SetMemoryLimit(math.MaxInt64)
			debug.SetGCPercent(LargePercent)
			return false
		}
		debug.SetMemoryLimit(limitFor(live))
		return true
	})
}

// limitFor is the memory limit after a collection that found live bytes
// live.
func limitFor(live uint64) int64 {
	return max(Limit, int64(min(live, 1<<50))*(100+FollowPercent)/100+Headroom) // 1 PiB: no overflow
}

// watch calls after with the live heap after each collection, for as long
// as it returns true.
func watch(after func(live uint64) bool) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && !after(sample[0].Value.Uint64()) {
				return
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// Lifted reports whether the memory limit is off.
func Lifted() bool { return debug.SetMemoryLimit(-1) == math.MaxInt64 }
