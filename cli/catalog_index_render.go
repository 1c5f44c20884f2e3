package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/catindex"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// renderIndexAdd prints what catalog index add did.
func (e *env) renderIndexAdd(r catindex.AddResult) {
	o := r.Observation
	if r.Unchanged {
		e.Done("%s is unchanged since %s (catalog %s, %d %s): nothing recorded",
			ui.Field(o.Source), o.At, o.Digest, o.Skills, ui.Plural(o.Skills, "skill", "skills"))
		return
	}
	var added, removed, changed int
	for _, c := range o.Changes {
		switch c.Change {
		case catindex.ChangeAdded:
			added++
		case catindex.ChangeRemoved:
			removed++
		default:
			changed++
		}
	}
	e.Done("indexed %s: %d %s, catalog %s (%d added, %d removed, %d changed)",
		ui.Field(o.Source), o.Skills, ui.Plural(o.Skills, "skill", "skills"), o.Digest, added, removed, changed)
	for _, c := range o.Changes {
		e.Verbose("  %s", changeLine(c))
	}
}

// renderIndexList prints the projection's sources, or its skills.
func (e *env) renderIndexList(p catindex.Projection, skills bool) {
	w := tabwriter.NewWriter(e.Out, 0, 0, 2, ' ', 0)
	defer w.Flush()
	if skills {
		if len(p.Skills) == 0 {
			fmt.Fprintln(w, "no skill is indexed")
			return
		}
		fmt.Fprintln(w, "SKILL\tVERSION\tSOURCE\tDIGEST")
		for _, s := range p.Skills {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", ui.Field(s.Name), orDash(ui.Field(s.Version)), ui.Field(s.Source), ui.Field(s.Digest))
		}
		return
	}
	if len(p.Sources) == 0 {
		fmt.Fprintln(w, "no source is indexed")
		return
	}
	fmt.Fprintln(w, "SOURCE\tSKILLS\tOBSERVED\tDIGEST")
	for _, s := range p.Sources {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", ui.Field(s.ID), s.Skills, s.ObservedAt, ui.Field(s.Digest))
	}
}

// renderIndexDiff prints each observation with its changes.
func (e *env) renderIndexDiff(source string, obs []catindex.Observation) {
	if len(obs) == 0 {
		fmt.Fprintf(e.Out, "no observation of %s in the period\n", ui.Field(source))
		return
	}
	for _, o := range obs {
		if o.Event == catindex.EventRemoved {
			fmt.Fprintf(e.Out, "%s %s: removed from the index\n", o.At, ui.Field(o.Source))
			continue
		}
		fmt.Fprintf(e.Out, "%s %s: catalog %s, %d %s\n", o.At, ui.Field(o.Source), ui.Field(o.Digest),
			o.Skills, ui.Plural(o.Skills, "skill", "skills"))
		if len(o.Changes) == 0 {
			fmt.Fprintln(e.Out, "  no skill changed")
		}
		for _, c := range o.Changes {
			fmt.Fprintf(e.Out, "  %s\n", changeLine(c))
		}
	}
}

// changeLine renders one change, e.g.
// "changed alpha (skills/alpha): version 1.0.0 → 1.1.0, digest sha256-… → sha256-…".
func changeLine(c catindex.Change) string {
	head := fmt.Sprintf("%s %s (%s)", c.Change, ui.Field(c.Name), ui.Field(c.Path))
	switch {
	case c.Change == catindex.ChangeAdded && c.After != nil:
		return head + " " + orDash(ui.Field(c.After.Version))
	case c.Change == catindex.ChangeRemoved && c.Before != nil:
		return head + " " + orDash(ui.Field(c.Before.Version))
	case c.Before == nil || c.After == nil:
		return head
	}
	parts := make([]string, 0, len(c.Fields))
	for _, f := range c.Fields {
		switch f {
		case "version":
			parts = append(parts, fmt.Sprintf("version %s → %s", orDash(ui.Field(c.Before.Version)), orDash(ui.Field(c.After.Version))))
		case "digest":
			parts = append(parts, fmt.Sprintf("digest %s → %s", ui.Field(c.Before.Digest), ui.Field(c.After.Digest)))
		case "kind":
			parts = append(parts, fmt.Sprintf("kind %s → %s", ui.Field(c.Before.Kind), ui.Field(c.After.Kind)))
		default:
			parts = append(parts, f)
		}
	}
	return head + ": " + strings.Join(parts, ", ")
}
