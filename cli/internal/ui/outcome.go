package ui

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/scan"
)

// Outcome prints what an install, update or uninstall did: the files a
// source update changes, what the content scan found in each package
// (before the results: a blocked package has none), the results, the skills skipped with their
// reasons and the summary on Out; the validation warnings of the packages
// installed, the resolver's warnings, the notices and the agents that see
// a package twice on Err. The problems of a package that validation
// refused come first.
func (p *Printer) Outcome(o *skillset.Outcome) {
	for _, pr := range o.Problems {
		p.Diagnostics(pr.Package, pr.Diagnostics)
	}
	p.validationWarnings(o)
	p.notices(o)
	// What goes to Out is written in blocks of 32 KiB, not a write(2)
	// per line (1,001 of them for 500 skills in two agents); Err has
	// nothing in between, so the two streams keep their order.
	w := bufio.NewWriterSize(p.Out, 32<<10)
	p.outcomeOut(w, o)
	_ = w.Flush()
	for _, d := range o.Duplicates {
		p.duplicate(d)
	}
	if n := len(o.Inexact); n > 0 {
		p.Warn("the folders of %s were chosen by a search that stopped early (too many agents share folders): every agent gets %s, perhaps in more folders than needed",
			Plural(n, Field(o.Inexact[0]), fmt.Sprintf("%d packages", n)), Plural(n, "it", "them"))
	}
	if !o.DryRun {
		p.bystanders(o.Results, o.InstalledHere)
	}
}

// duplicate says that an agent sees a package through several roots: a
// warning when it lists each copy, a note when it keeps one per name.
func (p *Printer) duplicate(d install.Duplicate) {
	why := "no choice of folders avoids it for this set of agents"
	if len(d.Kept) > 0 {
		why = fmt.Sprintf("%s already held it from an earlier install and %s rewritten with the others, so every copy is the same",
			Fields(d.Kept, ", "), Plural(len(d.Kept), "was", "were"))
	}
	if d.ByName {
		p.Note("%s sees %s through %d roots (%s) and lists it once: %s", Field(d.Agent), Field(d.Name), len(d.Roots), Fields(d.Roots, ", "), why)
		return
	}
	p.Warn("%s sees %s through %d roots (%s): %s", Field(d.Agent), Field(d.Name), len(d.Roots), Fields(d.Roots, ", "), why)
}

// bystanders notes, once per root written to, the agents found on this
// machine (here) that were not selected but read that root, so that none
// lists a skill by surprise. --json has every agent of the table that
// reads it, found or not (alsoReadBy).
func (p *Printer) bystanders(results []install.Result, here []string) {
	type seen struct {
		root   string
		agents []string
		names  []string
	}
	var roots []*seen
	at := map[string]*seen{}
	for _, r := range results {
		if len(r.AlsoReadBy) == 0 || !written(r.Outcome) {
			continue
		}
		s := at[r.Root]
		if s == nil {
			found := slices.DeleteFunc(slices.Clone(r.AlsoReadBy), func(id string) bool { return !slices.Contains(here, id) })
			if len(found) == 0 {
				continue
			}
			s = &seen{root: r.Root, agents: found}
			at[r.Root] = s
			roots = append(roots, s)
		}
		if n := len(s.names); n == 0 || s.names[n-1] != r.Name {
			s.names = append(s.names, r.Name)
		}
	}
	for _, s := range roots {
		what := Field(s.names[0])
		if len(s.names) > 1 {
			what = fmt.Sprintf("the %d packages written there", len(s.names))
		}
		p.Note("%s is also read by %s (found here, not selected): %s will list %s too",
			Field(p.Rel(s.root)), Fields(s.agents, ", "), Plural(len(s.agents), "it", "they"), what)
	}
}

// written reports an outcome that wrote a package into its root.
func written(o install.Outcome) bool {
	switch o {
	case install.OutcomeInstalled, install.OutcomeUpgraded, install.OutcomeDowngraded, install.OutcomeReinstalled:
		return true
	}
	return false
}

// outcomeOut writes what Outcome prints on Out to w: the files a source
// update changes, the results, the skills skipped and the summary.
func (p *Printer) outcomeOut(w io.Writer, o *skillset.Outcome) {
	// Quiet keeps what the user must see — a refusal, or the plan a dry
	// run exists to print — and leaves out the confirmations.
	quiet := p.opts.Quiet && !o.DryRun
	for _, c := range o.Changes {
		if quiet {
			break
		}
		fmt.Fprintf(w, "%s %s (%s) → %s (%s) from %s:\n", Field(c.Name), Field(c.From), Field(Dash(short(c.FromCommit))),
			Field(c.To), Field(Dash(short(c.ToCommit))), Field(c.Source))
		for _, g := range []struct {
			label string
			files []string
		}{{"added", c.Added}, {"removed", c.Removed}, {"modified", c.Modified}} {
			if len(g.files) > 0 {
				fmt.Fprintf(w, "  %-8s %s\n", g.label, Fields(g.files, ", "))
			}
		}
	}
	p.packageFindings(w, o.Findings)
	p.results(w, o.DryRun, o.Results)
	p.skipped(w, o.Skipped)
	if s := o.Summary; s != nil {
		if o.DryRun {
			fmt.Fprintf(w, "would install %d, skip %d\n", s.Installed, s.Skipped)
		} else {
			fmt.Fprintf(w, "installed %d, skipped %d\n", s.Installed, s.Skipped)
		}
	}
}

// validationWarnings prints, unless quiet, what the installed packages
// break without failing the gate, on Err, each diagnostic under the
// package's name.
func (p *Printer) validationWarnings(o *skillset.Outcome) {
	if p.opts.Quiet {
		return
	}
	for _, w := range o.ValidationWarnings {
		name, _, _ := strings.Cut(w.Package, "@")
		p.diagnostics(p.Err, "", name, w.Diagnostics)
	}
}

// skipped writes to w each skill the gate refused with every reason.
func (p *Printer) skipped(w io.Writer, skips []skillset.Skip) {
	for _, s := range skips {
		n := len(s.Diagnostics)
		word := "problems"
		if n == 1 {
			word = "problem"
		}
		where := s.Path
		if where == "" {
			where = "."
		}
		fmt.Fprintf(w, "%s %s (%s): not installed, %d %s\n", p.Style.Yellow("skipped"), Field(s.Name), Field(where), n, word)
		p.diagnostics(w, "    ", where, s.Diagnostics)
	}
}

// notices prints the resolver's warnings and the outcome's notices on Err.
func (p *Printer) notices(o *skillset.Outcome) {
	for _, w := range o.Warnings {
		p.Warn("%s %s", Field(w.Code), Field(w.Message))
	}
	for _, n := range o.Notices {
		switch n.Level {
		case skillset.LevelWarn:
			p.Warn("%s", Field(n.Text))
		case skillset.LevelNote:
			p.Note("%s", Field(n.Text))
		default:
			p.Info("%s", Field(n.Text))
		}
	}
}

// short abbreviates a commit to twelve hex digits.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// dryVerbs are the words of a dry run's outcomes.
var dryVerbs = map[install.Outcome]string{install.OutcomeInstalled: "would install", install.OutcomeUpgraded: "would upgrade",
	install.OutcomeDowngraded: "would downgrade", install.OutcomeReinstalled: "would reinstall",
	install.OutcomeRemoved: "would remove", install.OutcomePreserved: "would remove",
	install.OutcomeDisabled: "would disable", install.OutcomeEnabled: "would enable"}

// results writes to w one line per package and agent folder; with --quiet,
// only the refusals, unless it is a dry run's plan.
func (p *Printer) results(w io.Writer, dryRun bool, results []install.Result) {
	for _, r := range results {
		if p.opts.Quiet && !dryRun && r.Outcome != install.OutcomeRefused {
			continue
		}
		word := string(r.Outcome)
		if v, ok := dryVerbs[r.Outcome]; ok && dryRun {
			word = v
		}
		switch r.Outcome {
		case install.OutcomeSkipped:
			fmt.Fprintf(w, "%s %s for %s: %s\n", p.Style.Dim("skipped"), Field(r.Name), Field(r.Agent), Field(r.Reason))
		case install.OutcomeRefused:
			fmt.Fprintf(w, "%s %s in %s: %s\n", p.Style.Red("refused"), Field(r.Name), Field(p.Rel(r.Root)), Field(r.Reason))
			for _, m := range r.Modified {
				fmt.Fprintf(w, "    %s\n", Field(m))
			}
		default:
			ver := Field(r.Version)
			if r.Previous != "" && r.Previous != r.Version {
				ver = Field(r.Previous) + " → " + ver
			}
			fmt.Fprintf(w, "%s %s %s → %s (%s)\n", p.Style.Green(word), Field(r.Name), ver, Field(p.Rel(r.Dest)), Fields(r.Readers, ", "))
			if len(r.Preserved) > 0 {
				fmt.Fprintf(w, "    kept your files: %s\n", Fields(r.Preserved, ", "))
			}
		}
	}
}

// Report prints an outcome as text, or with asJSON as JSON on Out and
// the warnings and notices, for a person, on Err; a nil outcome (the use
// case refused before it began) prints nothing.
func (p *Printer) Report(o *skillset.Outcome, asJSON bool) {
	switch {
	case o == nil:
	case asJSON:
		_ = p.JSON(o)
		p.notices(o)
	default:
		p.Outcome(o)
	}
}

// packageFindings writes to w what the content scan found in each package
// the run takes, in the one form of Findings: under a line naming the
// package, the blocked findings first, then the accepted ones with who
// accepted them, then those below the gate, each group by severity; for
// a package installed before (an update), the findings new since that
// version apart from those it had too.
//
// Info findings below the gate (a bare skill that cannot declare its
// scripts) are left to --json, the receipts and `agent-skills audit`: on
// every install from a public collection they would only be noise.
func (p *Printer) packageFindings(w io.Writer, pkgs []skillset.PackageFindings) {
	for _, pf := range pkgs {
		pf.Findings = slices.DeleteFunc(slices.Clone(pf.Findings), func(f skillset.Flagged) bool {
			return f.Severity == scan.Info && f.Verdict != skillset.VerdictBlocked && f.Verdict != skillset.VerdictAccepted
		})
		if len(pf.Findings) == 0 && pf.Omitted == 0 {
			continue
		}
		head := fmt.Sprintf("%s %s: %s", Field(pf.Name), Field(pf.Version), Plural(len(pf.Findings), "1 finding", fmt.Sprintf("%d findings", len(pf.Findings))))
		if pf.Previous != "" {
			n := 0
			for _, f := range pf.Findings {
				if f.New {
					n++
				}
			}
			head += fmt.Sprintf(", %d new since %s", n, Field(pf.Previous))
		}
		if pf.Omitted > 0 {
			head += fmt.Sprintf(" (%d more not shown)", pf.Omitted)
		}
		if pf.Blocked {
			head += ": " + p.Style.Red("blocked") + ", not installed"
		}
		fmt.Fprintln(w, head)
		type group struct {
			verdict, by string
			new         bool
		}
		var order []group
		members := map[group][]scan.Finding{}
		for _, f := range pf.Findings {
			g := group{f.Verdict, f.AcceptedBy, f.New}
			if _, ok := members[g]; !ok {
				order = append(order, g)
			}
			members[g] = append(members[g], f.Finding)
		}
		// New findings before those the installed version had, within
		// each verdict (and acceptor), which keep the order they came in.
		first := map[[2]string]int{}
		for i, g := range order {
			if _, ok := first[[2]string{g.verdict, g.by}]; !ok {
				first[[2]string{g.verdict, g.by}] = i
			}
		}
		slices.SortStableFunc(order, func(a, b group) int {
			if c := first[[2]string{a.verdict, a.by}] - first[[2]string{b.verdict, b.by}]; c != 0 {
				return c
			}
			switch {
			case a.new == b.new:
				return 0
			case a.new:
				return -1
			}
			return 1
		})
		for _, g := range order {
			label := "below the gate"
			switch g.verdict {
			case skillset.VerdictBlocked:
				label = "blocked"
			case skillset.VerdictAccepted:
				label = "accepted by " + Field(g.by)
			}
			if pf.Previous != "" {
				if g.new {
					label += ", new since " + Field(pf.Previous)
				} else {
					label += ", also in " + Field(pf.Previous)
				}
			}
			fmt.Fprintf(w, "  %s:\n", label)
			p.findings(w, "    ", pf.Name, members[g])
		}
	}
}
