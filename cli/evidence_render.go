package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/evidence"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// renderEvidence prints a query result as text on standard output: the
// rows, then the period, the denominator and the missing coverage, which
// belong to the result as much as its rows do.
func (e *env) renderEvidence(v any) {
	w := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
	var cov *evidence.Coverage
	truncated := false
	switch r := v.(type) {
	case evidence.Status:
		e.renderStatus(r)
		return
	case evidence.Rankings:
		cov, truncated = &r.Coverage, r.Truncated
		if len(r.Skills) == 0 {
			fmt.Fprintln(w, "no read observed in the period")
			break
		}
		fmt.Fprintln(w, "SKILL\tREADS\tSESSIONS\tHOSTS\tFIRST\tLAST")
		for _, s := range r.Skills {
			fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%s\t%s\n", ui.Field(s.Skill), s.Reads, s.Sessions, ui.Fields(s.HostNames, ","), day(s.First), day(s.Last))
		}
	case evidence.Outcomes:
		cov, truncated = &r.Coverage, r.Truncated
		if len(r.Skills) == 0 {
			fmt.Fprintln(w, "no lifecycle event reported in the period")
			break
		}
		fmt.Fprintln(w, "SKILL\tATTEMPTS\tSUCCEEDED\tFAILED\tABANDONED\tBLOCKED\tUNFINISHED")
		for _, s := range r.Skills {
			fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\n", ui.Field(s.Skill), s.Attempts, s.Succeeded, s.Failed, s.Abandoned, s.Blocked, s.Unfinished)
		}
	case evidence.Overlap:
		cov, truncated = &r.Coverage, r.Truncated
		if len(r.Pairs) == 0 {
			fmt.Fprintln(w, "no two skills were read in the same session in the period")
			break
		}
		fmt.Fprintln(w, "SKILL A\tSKILL B\tSESSIONS BOTH\tA\tB\tJACCARD")
		for _, p := range r.Pairs {
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%.2f\n", ui.Field(p.A), ui.Field(p.B), p.Sessions, p.SessionsA, p.SessionsB, p.Jaccard)
		}
	case evidence.Inactivity:
		cov, truncated = &r.Coverage, r.Truncated
		if len(r.Skills) == 0 {
			fmt.Fprintln(w, "every known skill had a read observed in the period")
		} else {
			fmt.Fprintln(w, "SKILL\tSCOPE\tKNOWN FROM\tLAST READ")
			for _, s := range r.Skills {
				last := "never observed"
				if s.LastRead != nil {
					last = day(*s.LastRead)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", ui.Field(s.Skill), orDash(s.Scope), ui.Fields(s.Sources, ", "), last)
			}
		}
		defer fmt.Fprintf(e.Out, "note: %s\n", r.Note)
	case evidence.History:
		cov, truncated = &r.Coverage, r.Truncated
		if r.Skill != "" {
			fmt.Fprintf(w, "skill: %s\n", ui.Field(r.Skill))
		}
		fmt.Fprintln(w, "DAY\tREADS\tSUCCEEDED\tFAILED\tABANDONED\tBLOCKED")
		for _, d := range r.Days {
			fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\n", d.Day, d.Reads, d.Succeeded, d.Failed, d.Abandoned, d.Blocked)
		}
	case evidence.Memory:
		cov, truncated = &r.Coverage, r.Truncated
		_ = w.Flush()
		e.renderMemory(r)
	default:
		_ = e.JSON(v)
		return
	}
	_ = w.Flush()
	if truncated {
		fmt.Fprintln(e.Out, "(more rows than --limit: the list is cut)")
	}
	if cov != nil {
		renderCoverage(e.Out, *cov)
	}
}

// renderCoverage prints what a result is out of and what it cannot see.
func renderCoverage(w io.Writer, c evidence.Coverage) {
	fmt.Fprintf(w, "\nperiod: %s to %s (%d days, UTC)\n", day(c.Period.From), day(c.Period.To.Add(-time.Millisecond)), c.Days)
	fmt.Fprintf(w, "out of: %s\n", c.Denominator)
	hosts := make([]string, 0, len(c.HostsSeen))
	for h, n := range c.HostsSeen {
		hosts = append(hosts, fmt.Sprintf("%s %d", ui.Field(h), n))
	}
	slices.Sort(hosts)
	if len(hosts) > 0 {
		fmt.Fprintf(w, "days with hook activity: %s (of %d)\n", strings.Join(hosts, ", "), c.Days)
	}
	for _, m := range c.Missing {
		fmt.Fprintf(w, "missing coverage: %s\n", ui.OneLine(m))
	}
}

// renderStatus prints where the store is and what it holds.
func (e *env) renderStatus(s evidence.Status) {
	w := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "store:\t%s\n", ui.Field(s.Path))
	fmt.Fprintf(w, "schema version:\t%d\n", s.SchemaVersion)
	fmt.Fprintf(w, "read observations:\t%d\n", s.Reads)
	fmt.Fprintf(w, "lifecycle events:\t%d\n", s.LifecycleEvents)
	fmt.Fprintf(w, "catalog observations:\t%d\n", s.CatalogObservations)
	fmt.Fprintf(w, "host days seen:\t%d\n", s.HostDays)
	if s.FirstObservation != nil && s.LastObservation != nil {
		fmt.Fprintf(w, "records from:\t%s to %s\n", s.FirstObservation.UTC().Format(time.RFC3339), s.LastObservation.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(w, "hosts seen:\t%s\n", orDash(ui.Fields(s.HostsSeen, ", ")))
	_ = w.Flush()
}

// renderMemory prints each skill's evidence as a block.
func (e *env) renderMemory(m evidence.Memory) {
	if len(m.Skills) == 0 {
		fmt.Fprintln(e.Out, "no record of a skill in the period")
	}
	for i, s := range m.Skills {
		if i > 0 {
			fmt.Fprintln(e.Out)
		}
		fmt.Fprintf(e.Out, "%s\n", ui.Field(s.Skill))
		span := ""
		if s.First != nil && s.Last != nil {
			span = fmt.Sprintf(", %s to %s", day(*s.First), day(*s.Last))
		}
		fmt.Fprintf(e.Out, "  reads: %d in %d sessions%s\n", s.Reads, s.Sessions, span)
		for _, id := range s.Identities {
			fmt.Fprintf(e.Out, "  read as %s version %s: %d reads, %s to %s\n", ui.Field(id.Digest), orDash(ui.Field(id.Version)), id.Reads, day(id.First), day(id.Last))
		}
		l := s.Lifecycle
		fmt.Fprintf(e.Out, "  reported attempts: %d (succeeded %d, failed %d, abandoned %d, blocked %d, unfinished %d)\n",
			l.Attempts, l.Succeeded, l.Failed, l.Abandoned, l.Blocked, l.Unfinished)
		for _, c := range s.Catalogs {
			fmt.Fprintf(e.Out, "  listed by %s (inventory of %s) at version %s\n", ui.Field(c.Collection), day(c.At), orDash(ui.Field(c.Version)))
		}
		if s.Before != nil && s.After != nil && m.Cutoff != nil {
			fmt.Fprintf(e.Out, "  before %s: %d reads, %d lifecycle events; from it on: %d reads, %d lifecycle events\n",
				day(*m.Cutoff), s.Before.Reads, s.Before.LifecycleEvents, s.After.Reads, s.After.LifecycleEvents)
		}
	}
}

// day prints a time as its UTC date.
func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.DateOnly)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
