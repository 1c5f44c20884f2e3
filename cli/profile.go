package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the opt-in profiles named by AGENT_SKILLS_CPUPROFILE
// (a CPU profile, for go tool pprof) and AGENT_SKILLS_TRACE (an execution
// trace, for go tool trace), each written to the file the variable names.
// It returns the function that stops them and closes the files. A file that
// cannot be made is reported on stderr and skipped: profiling never changes
// what the command does or how it exits.
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
