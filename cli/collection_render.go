package cli

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/maintain"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// The text forms of collection audit, plan and evolve: results on
// standard output, summaries on standard error. Every value from the
// collection is escaped (ui.Field).

// renderAudit prints the findings, one per line with its fix, and the
// summary.
func renderAudit(e *env, a *maintain.Audit) {
	for _, f := range a.Findings {
		fmt.Fprintf(e.Out, "%s: %s %s %s %s [%s]\n", ui.Field(f.Location()), f.Severity, f.Source, ui.Field(f.Code), ui.Field(f.Message), f.ID)
		if f.Fix != "" && !e.Quiet() {
			fmt.Fprintf(e.Out, "  fix: %s\n", ui.Field(f.Fix))
		}
	}
	s := a.Summary
	line := fmt.Sprintf("audited %s: %d %s, catalog %s, %d %s (%d %s, %d %s, %d info)",
		ui.Field(a.Collection), s.Packages, ui.Plural(s.Packages, "package", "packages"), a.Catalog.State,
		s.Findings, ui.Plural(s.Findings, "finding", "findings"),
		s.Errors, ui.Plural(s.Errors, "error", "errors"), s.Warnings, ui.Plural(s.Warnings, "warning", "warnings"), s.Info)
	if s.Omitted > 0 {
		line += fmt.Sprintf("; %d left out (--max-findings)", s.Omitted)
	}
	e.Info("%s", line)
	e.Info("baseline %s", a.Baseline.Digest)
}

// renderPlan prints the steps and the handoffs.
func renderPlan(e *env, p *maintain.Plan) {
	renderSteps(e, "automatic", p.Steps)
	renderHandoffs(e, p.Handoffs)
	line := fmt.Sprintf("plan for %s: %d automatic %s, %d %s", ui.Field(p.Collection),
		len(p.Steps), ui.Plural(len(p.Steps), "step", "steps"), len(p.Handoffs), ui.Plural(len(p.Handoffs), "handoff", "handoffs"))
	if p.Informational > 0 {
		line += fmt.Sprintf(", %d info %s (nothing to do)", p.Informational, ui.Plural(p.Informational, "finding", "findings"))
	}
	e.Info("%s", line)
	if p.OmittedFindings > 0 {
		e.Warn("%d %s were left out of the audit and are not in this plan: audit again with a larger --max-findings",
			p.OmittedFindings, ui.Plural(p.OmittedFindings, "finding", "findings"))
	}
	e.Info("bound to baseline %s", p.Baseline.Digest)
}

// renderPreview prints what --apply would do.
func renderPreview(e *env, pv *maintain.Preview) {
	if pv.Current {
		e.Info("%s still has the plan's baseline %s", ui.Field(pv.Collection), pv.Baseline)
	} else {
		e.Warn("%s changed since the audit: --apply would refuse and write nothing", ui.Field(pv.Collection))
		for _, d := range pv.Drift {
			fmt.Fprintf(e.Out, "drift: %s\n", ui.Field(d))
		}
	}
	renderSteps(e, "would apply", pv.Steps)
	renderHandoffs(e, pv.Handoffs)
	e.Info("preview: %d %s to apply, %d %s remain (nothing written; --apply applies)",
		len(pv.Steps), ui.Plural(len(pv.Steps), "step", "steps"), len(pv.Handoffs), ui.Plural(len(pv.Handoffs), "handoff", "handoffs"))
}

// renderReceipt prints what an applied plan did.
func renderReceipt(e *env, rc *maintain.Receipt) {
	for _, s := range rc.Steps {
		if s.Status == "done" {
			fmt.Fprintf(e.Out, "done: %s %s (%s → %s)\n", s.Action, s.File, rc.Catalog.Before, rc.Catalog.After)
		} else {
			fmt.Fprintf(e.Out, "%s: %s %s (wrote %s, now %s)\n", s.Status, s.Action, s.File, orNothing(rc.Catalog.Written), rc.Catalog.After)
		}
	}
	v := rc.Verification
	if v.Ran {
		fmt.Fprintf(e.Out, "verified: catalog fresh %t, %d %s unchanged %t\n", v.CatalogFresh, v.Packages, ui.Plural(v.Packages, "package", "packages"), v.PackagesUnchanged)
		for _, p := range v.Problems {
			fmt.Fprintf(e.Out, "  problem: %s\n", ui.Field(p))
		}
	}
	if rb := rc.Rollback; rb != nil {
		if rb.Restored {
			fmt.Fprintf(e.Out, "rolled back: %s restored to %s\n", "skills-catalog.json", rc.Catalog.Before)
		} else {
			fmt.Fprintf(e.Out, "rollback FAILED: %s\n", ui.Field(rb.Error))
		}
	}
	renderHandoffs(e, rc.Handoffs)
	e.Info("%s: %s; %d %s remain", ui.Field(rc.Collection), strings.ReplaceAll(rc.Outcome, "-", " "),
		len(rc.Handoffs), ui.Plural(len(rc.Handoffs), "handoff", "handoffs"))
}

func renderSteps(e *env, verb string, steps []maintain.Step) {
	for _, s := range steps {
		fmt.Fprintf(e.Out, "%s: %s %s (catalog %s)\n", verb, s.Action, s.File, s.Reason)
	}
}

func renderHandoffs(e *env, hs []maintain.Handoff) {
	for _, h := range hs {
		fmt.Fprintf(e.Out, "handoff %s: %s: %s %s %s\n", h.Finding, ui.Field(h.Location()), h.Severity, ui.Field(h.Code), ui.Field(h.Message))
		if !e.Quiet() {
			fmt.Fprintf(e.Out, "  do: %s\n", ui.Field(h.Action))
		}
	}
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
