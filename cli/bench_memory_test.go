package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/benchreg"
)

// BenchmarkInstallRegistryMemory installs 500 and then 5,000 generated
// small skills from a local folder registry into Claude Code and Codex (as
// BenchmarkInstallRegistry does) and reports the peak live heap of each run
// (peak-live-MiB, the most a garbage collection found live) and, on the
// second, what each package past the first 500 added to it (live-KiB/pkg):
// the slope that decides whether an install of 10,000 skills stays within
// issue 15's 64 MiB. It fails when that slope passes maxLiveKiBPerPkg.
// The collector runs at GOGC 25 meanwhile, so that it looks often.
func BenchmarkInstallRegistryMemory(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	small := peakLiveInstall(b, 500)
	b.Run("local-500", func(b *testing.B) {
		b.ReportMetric(float64(small)/(1<<20), "peak-live-MiB")
	})
	b.Run("local-5000", func(b *testing.B) {
		large := peakLiveInstall(b, 5000)
		slope := (float64(large) - float64(small)) / 4500 / 1024
		b.ReportMetric(float64(large)/(1<<20), "peak-live-MiB")
		b.ReportMetric(slope, "live-KiB/pkg")
		if slope > maxLiveKiBPerPkg {
			b.Errorf("each package past 500 adds %.1f KiB to the peak live heap, want at most %d", slope, maxLiveKiBPerPkg)
		}
	})
}

// maxLiveKiBPerPkg bounds what a package adds to the peak live heap of a
// large install (measured: 7.2–8.3 from run to run when it was written,
// 17.0 before issue 15's memory work, whose peak held every decoded
// package and every transaction's files at once).
const maxLiveKiBPerPkg = 12

// peakLiveInstall installs n generated skills once, in process, and
// returns the most live heap a garbage collection found meanwhile.
func peakLiveInstall(b *testing.B, n int) uint64 {
	b.Helper()
	base := b.TempDir()
	names, err := benchreg.Generate(filepath.Join(base, "reg"), n)
	if err != nil {
		b.Fatal(err)
	}
	config := fmt.Sprintf(`{"registries":[{"name":"bench","url":%q,"kind":"local","trusted":true}]}`, filepath.Join(base, "reg", "local"))
	a, env := benchRun(base, 0, config, append([]string{"-q", "install"}, names...))
	runtime.GC()
	stop := watchLive()
	if code := run(context.Background(), a, nil, io.Discard, io.Discard, env); code != 0 {
		b.Fatalf("install of %d exited %d", n, code)
	}
	return stop()
}

// watchLive records the live heap after every garbage collection until the
// returned function is called, which returns the most it saw.
func watchLive() (stop func() uint64) {
	var (
		mu     sync.Mutex
		done   bool
		peak   uint64
		sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	)
	var arm func()
	arm = func() {
		runtime.AddCleanup(new([16]byte), func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if done {
				return
			}
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			arm()
		}, struct{}{})
	}
	arm()
	return func() uint64 {
		runtime.GC()
		mu.Lock()
		defer mu.Unlock()
		done = true
		return peak
	}
}
