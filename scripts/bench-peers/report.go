package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// report prints the series' table: per operation the median wall time of
// each tool over its successful rounds, and the median of the per-round
// ratios over the rounds where both sides succeeded.
func (s *series) report(w io.Writer) {
	fmt.Fprintf(w, "\n## %d skills × Claude Code + Codex, project scope, copies\n\n", s.n)
	fmt.Fprintln(w, "| operation | ours | theirs | copy floor | durable floor | theirs/ours | ours/durable | ours/copy | ok: ours, theirs, floor |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	for _, op := range s.c.ops {
		ours, theirs := s.res[op+"/ours"], s.res[op+"/theirs"]
		cp, dur := s.res[op+"/copy"], s.res[op+"/durable"]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s, %s, %s |\n", opLabel(op),
			medWall(ours), medWall(theirs), medWall(cp), medWall(dur),
			medRatio(theirs, ours), medRatio(ours, dur), medRatio(ours, cp),
			okCount(ours), okCount(theirs), okCount(dur))
	}
	fmt.Fprintln(w)
	if len(s.rss) > 0 {
		mn, md, mx := spread(s.rss)
		fmt.Fprintf(w, "- ours install peak RSS (`/usr/bin/time -v`, %d runs): median %.1f MiB (%.1f–%.1f)\n",
			len(s.rss), mib(md), mib(mn), mib(mx))
	}
	for _, tool := range []string{"ours", "theirs"} {
		var v []int64
		for _, smp := range s.res["install/"+tool] {
			if smp.ok {
				v = append(v, smp.rss)
			}
		}
		if len(v) > 0 {
			_, md, _ := spread(v)
			fmt.Fprintf(w, "- %s install peak RSS (rusage of the timed runs): median %.1f MiB\n", tool, mib(md))
		}
	}
	for _, n := range s.notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
	fmt.Fprintf(w, "\nEvery round's wall in ms, in the order run (– a failed run):\n\n")
	for _, op := range s.c.ops {
		for _, key := range []string{"ours", "theirs", "copy", "durable"} {
			v := s.res[op+"/"+key]
			if v == nil {
				continue
			}
			cells := make([]string, len(v))
			for r, smp := range v {
				cells[r] = "–"
				if smp.ok {
					cells[r] = fmt.Sprintf("%.1f", float64(smp.wall)/float64(time.Millisecond))
				}
			}
			fmt.Fprintf(w, "    %-8s %-8s %s\n", op, key, strings.Join(cells, " "))
		}
	}
	if len(s.fails) > 0 {
		fmt.Fprintf(w, "\n### Failures (%d)\n\n", len(s.fails))
		for _, f := range s.fails {
			fmt.Fprintf(w, "- %s\n", f)
		}
	}
}

func opLabel(op string) string {
	switch op {
	case "start":
		return "start (`--version`)"
	case "install":
		return "install"
	case "list":
		return "list"
	case "restore":
		return "restore from the lock, fresh project and HOME"
	case "remove":
		return "remove all"
	}
	return op
}

func okCount(v []sample) string {
	if v == nil {
		return "–"
	}
	n := 0
	for _, smp := range v {
		if smp.ok {
			n++
		}
	}
	return fmt.Sprintf("%d/%d", n, len(v))
}

func medWall(v []sample) string {
	var d []float64
	for _, smp := range v {
		if smp.ok {
			d = append(d, float64(smp.wall)/float64(time.Millisecond))
		}
	}
	if len(d) == 0 {
		return "–"
	}
	return ms(median(d))
}

// medRatio is the median over rounds of a[r]/b[r], for the rounds where both
// succeeded.
func medRatio(a, b []sample) string {
	var q []float64
	for r := range a {
		if r < len(b) && a[r].ok && b[r].ok && b[r].wall > 0 {
			q = append(q, float64(a[r].wall)/float64(b[r].wall))
		}
	}
	if len(q) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", median(q))
}

func ms(x float64) string {
	switch {
	case x < 10:
		return fmt.Sprintf("%.2f ms", x)
	case x < 100:
		return fmt.Sprintf("%.1f ms", x)
	}
	return fmt.Sprintf("%.0f ms", x)
}

func median(x []float64) float64 {
	y := append([]float64{}, x...)
	sort.Float64s(y)
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

func spread(v []int64) (mn, md, mx int64) {
	y := append([]int64{}, v...)
	sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
	n := len(y)
	md = y[n/2]
	if n%2 == 0 {
		md = (y[n/2-1] + y[n/2]) / 2
	}
	return y[0], md, y[n-1]
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

// output runs a short command and returns what it printed, or the error.
func output(argv ...string) string {
	b, err := execOutput(argv...)
	if err != nil {
		return "error: " + strings.TrimSpace(err.Error())
	}
	return b
}
