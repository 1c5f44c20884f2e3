// Command bench-peers runs agent-skills and vercel's skills CLI side by side,
// as whole processes, on the same generated skills, and prints per-operation
// medians and the medians of per-round ratios. bench-peers.sh installs the
// pinned peer and builds agent-skills, then runs this program; see README.md.
//
// It is a benchmark, not a test: no module's test suite builds it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	var c config
	var sizes string
	flag.StringVar(&c.ours, "ours", "", "the agent-skills binary")
	flag.StringVar(&c.node, "node", "", "a node (>= 22.20) to run vercel skills with")
	flag.StringVar(&c.rev, "rev", "", "the commit ours was built from, for the report")
	flag.StringVar(&c.theirs, "theirs", "", "vercel skills' bin/cli.mjs")
	flag.StringVar(&c.work, "work", "", "the series folder (made if missing; every run's folder stays until the end)")
	flag.StringVar(&sizes, "sizes", "50,500", "numbers of skills, comma-separated")
	flag.IntVar(&c.rounds, "rounds", 7, "rounds per operation (each round runs ours, theirs, floor)")
	flag.StringVar(&c.timeBin, "time", "/usr/bin/time", "GNU time, for our install's peak RSS (-v)")
	flag.DurationVar(&c.timeout, "timeout", 10*time.Minute, "a run still going after this long is killed and reported as failed")
	opList := flag.String("ops", strings.Join(ops, ","), "operations to measure, comma-separated, from "+strings.Join(ops, ", ")+" (list, restore and remove need install)")
	flag.Parse()
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fatalf("-sizes: %q is not a positive number", s)
		}
		c.sizes = append(c.sizes, n)
	}
	for _, op := range strings.Split(*opList, ",") {
		if !slices.Contains(ops, op) {
			fatalf("-ops: %q is not one of %s", op, strings.Join(ops, ", "))
		}
	}
	for _, op := range ops { // always in the documented order
		if slices.Contains(strings.Split(*opList, ","), op) {
			c.ops = append(c.ops, op)
		}
	}
	if c.ours == "" || c.node == "" || c.theirs == "" || c.work == "" {
		fatalf("-ours, -node, -theirs and -work are required")
	}
	if c.rounds < 1 {
		fatalf("-rounds must be at least 1")
	}
	for _, p := range []*string{&c.ours, &c.node, &c.theirs, &c.work} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			fatalf("%v", err)
		}
		*p = abs
	}
	failed, err := run(c, os.Stdout)
	if err != nil {
		fatalf("%v", err)
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "bench-peers: %d run(s) failed; see \"Failures\" above\n", failed)
		os.Exit(1)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench-peers: "+format+"\n", args...)
	os.Exit(2)
}

// config is what the command line gives.
type config struct {
	ours, rev, node, theirs, work, timeBin string
	sizes                                  []int
	rounds                                 int
	timeout                                time.Duration
	ops                                    []string
}

// run measures every size in turn and prints one report per size.
func run(c config, out *os.File) (failed int, err error) {
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return 0, err
	}
	env := describeEnv(c)
	fmt.Fprint(out, env)
	for _, n := range c.sizes {
		s, err := newSeries(c, n)
		if err != nil {
			return failed, err
		}
		fmt.Fprintf(os.Stderr, "bench-peers: %d skills, %d rounds in %s\n", n, c.rounds, s.dir)
		s.measure()
		s.report(out)
		failed += s.failures()
	}
	fmt.Fprintf(out, "\nload average at the end: %s\n", loadavg())
	return failed, nil
}

func describeEnv(c config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# bench-peers, %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- ours: %s, built from %s\n", firstLine(output(c.ours, "--version")), c.rev)
	fmt.Fprintf(&b, "- theirs: vercel skills %s on node %s (`node %s`, no npx)\n",
		firstLine(output(c.node, c.theirs, "--version")), firstLine(output(c.node, "--version")), c.theirs)
	fmt.Fprintf(&b, "- machine: %s, %d rounds, alternating ours → theirs → floor; load average at the start: %s\n",
		firstLine(output("uname", "-sr")), c.rounds, loadavg())
	fmt.Fprintf(&b, "- scratch: `%s` (no run's folder is deleted before the whole benchmark ends)\n", c.work)
	return b.String()
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// execOutput runs a short command (a version query) and returns its output.
func execOutput(argv ...string) (string, error) {
	b, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	return string(b), err
}
