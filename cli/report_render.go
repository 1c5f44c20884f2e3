package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/bump"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// renderBumpReport prints a bump report as text: the two sides, the
// recommendation, each change, then what is missing and how the review
// was used. Every value read from a package or a review is escaped.
func (e *env) renderBumpReport(out io.Writer, r *bump.Report) {
	side := func(s bump.SideInfo) string {
		v := s.Version
		if v == "" {
			v = "(no version)"
		}
		return fmt.Sprintf("%s %s (%s)", ui.Field(s.Name), ui.Field(v), ui.Field(s.Label))
	}
	fmt.Fprintf(out, "bump report: %s -> %s\n", side(r.Before), side(r.After))
	rec := r.Recommendation
	if r.Recommendation == bump.Undetermined {
		rec += fmt.Sprintf(" (the decided changes need at least %s)", r.AtLeast)
	}
	fmt.Fprintf(out, "recommendation: %s\n", rec)
	if s := r.VersionStep; s != nil {
		verdict := "enough as far as is known"
		switch {
		case s.Sufficient == nil:
		case *s.Sufficient:
			verdict = "enough"
		default:
			verdict = "too small"
		}
		fmt.Fprintf(out, "version step %s -> %s: %s, %s\n", ui.Field(r.Before.Version), ui.Field(r.After.Version), s.Category, verdict)
	}
	if len(r.Changes) == 0 {
		fmt.Fprintln(out, "no change: the two packages have the same files")
	} else {
		fmt.Fprintln(out)
		var table bytes.Buffer
		w := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "CHANGE\tCATEGORY\tRULE\tDETAIL")
		for _, c := range r.Changes {
			detail := c.Detail
			if c.Before != "" || c.After != "" {
				detail = strings.TrimPrefix(strings.Join(nonEmpty(quoteOrDash(c.Before)+" -> "+quoteOrDash(c.After), c.Detail), "; "), "; ")
			}
			if c.Verdict != nil {
				detail = strings.Join(nonEmpty(detail, "verdict "+string(c.Verdict.Verdict)+note(c.Verdict.Note)), "; ")
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", ui.Field(c.ID), c.Category, c.Rule, ui.OneLine(detail))
		}
		w.Flush()
		for _, line := range strings.SplitAfter(table.String(), "\n") {
			// A change without detail leaves the padding of its rule.
			fmt.Fprint(out, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
		}
	}
	if len(r.Missing) > 0 {
		fmt.Fprintln(out, "\nmissing:")
		for _, m := range r.Missing {
			fmt.Fprintf(out, "  %s\n", ui.OneLine(m))
		}
	}
	if rv := r.Review; rv != nil {
		fmt.Fprintf(out, "\nreview %s: %d verdict(s) used\n", rv.Digest, len(rv.Used))
		for _, l := range []struct {
			what string
			ids  []string
		}{{"unused (no such change)", rv.Unused}, {"stale (given for other bytes)", rv.Stale}, {"conflicting", rv.Conflicts}} {
			if len(l.ids) > 0 {
				fmt.Fprintf(out, "  %s: %s\n", l.what, ui.Fields(l.ids, ", "))
			}
		}
	}
}

func quoteOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func note(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// renderBumpRules prints the rules table.
func (e *env) renderBumpRules() {
	w := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "RULE\tCATEGORY\tEXAMPLE\tMATCHES")
	for _, r := range bump.Rules {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.ID, r.Category, r.Example, r.Matches)
	}
	w.Flush()
}

// renderBumpCollection prints a collection report: the summary, the
// packages only one side has, then the report of each paired package
// that changed.
func (e *env) renderBumpCollection(out io.Writer, c *bump.CollectionReport) {
	fmt.Fprintf(out, "bump report: collection %s -> %s\n", ui.Field(c.Before), ui.Field(c.After))
	var counts []string
	for _, k := range []string{bump.Undetermined, string(bump.Major), string(bump.Minor), string(bump.Patch), string(bump.None)} {
		if n := c.Summary[k]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, k))
		}
	}
	fmt.Fprintf(out, "packages: %d paired (%s), %d added, %d removed\n", len(c.Packages), strings.Join(counts, ", "), len(c.Added), len(c.Removed))
	for _, l := range []struct {
		what  string
		sides []bump.SideInfo
	}{{"added", c.Added}, {"removed", c.Removed}} {
		for _, s := range l.sides {
			fmt.Fprintf(out, "%s: %s %s (%s)\n", l.what, ui.Field(s.Name), ui.Field(s.Version), ui.Field(s.Label))
		}
	}
	for _, r := range c.Packages {
		if len(r.Changes) == 0 {
			continue
		}
		fmt.Fprintln(out)
		e.renderBumpReport(out, r)
	}
	if rv := c.Review; rv != nil && len(rv.Unused) > 0 {
		fmt.Fprintf(out, "\nreview %s: unused (no such package or change, or no package named): %s\n", rv.Digest, ui.Fields(rv.Unused, ", "))
	}
}
