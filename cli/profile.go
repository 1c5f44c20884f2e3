package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"sync"
)

// startProfiles starts the opt-in profiles named by AGENT_SKILLS_CPUPROFILE
// (a CPU profile, for go tool pprof), AGENT_SKILLS_MEMPROFILE (a heap
// profile taken when the live heap peaked, for go tool pprof) and
// AGENT_SKILLS_TRACE (an execution trace, for go tool trace), each written
// to the file the variable names. It returns the function that stops them
// and closes the files. A file that cannot be made is reported on stderr and
// skipped: profiling never changes what the command does or how it exits.
func startProfiles(getenv func(string) string, stderr io.Writer) (stop func()) {
	var stops []func()
	if p := getenv("AGENT_SKILLS_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if p := getenv("AGENT_SKILLS_MEMPROFILE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_MEMPROFILE: %v\n", err)
		} else {
			peak := watchPeakHeap()
			stops = append(stops, func() {
				if _, err := f.Write(peak()); err != nil {
					fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_MEMPROFILE: %v\n", err)
				}
				f.Close()
			})
		}
	}
	if p := getenv("AGENT_SKILLS_TRACE"); p != "" {
		if f, err := os.Create(p); err != nil {
			fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_TRACE: %v\n", err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(stderr, "agent-skills: AGENT_SKILLS_TRACE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// watchPeakHeap samples every allocation into the heap profile and, after
// each garbage collection that finds more live heap than any before it,
// keeps a copy of the heap profile as it stands then. The returned function
// stops watching and gives the copy of the peak (or the profile as it is
// now, if no collection ran). The profile is the pprof one, whose in-use figures lag a cycle or two behind
// the live heap: it names the holders, the number says how much they held.
func watchPeakHeap() (peak func() []byte) {
	runtime.MemProfileRate = 64 << 10
	var (
		mu      sync.Mutex
		done    bool
		max     uint64
		best    []byte
		sample  = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		snapMem = func() []byte {
			var b bytes.Buffer
			_ = pprof.Lookup("heap").WriteTo(&b, 0)
			return b.Bytes()
		}
	)
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.AddCleanup(sentinel, func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if done {
				return
			}
			metrics.Read(sample)
			if v := sample[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > max {
				max, best = v.Uint64(), snapMem()
			}
			arm()
		}, struct{}{})
	}
	arm()
	return func() []byte {
		mu.Lock()
		defer mu.Unlock()
		done = true
		if best == nil {
			best = snapMem()
		}
		return best
	}
}
