package maintain

import (
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

// PlanSchema names the plan document's format; PlanVersion is its version.
const (
	PlanSchema  = "agent-skills/collection-plan"
	PlanVersion = 1
)

// ActionCatalogSync is the one automatic step: write the catalog a fresh
// build derives over the committed one (or where there is none).
const ActionCatalogSync = "catalog-sync"

// Plan is what `collection plan` derives from an audit: the automatic
// steps and the semantic handoffs, bound to the audit's baseline.
type Plan struct {
	// Schema is PlanSchema and SchemaVersion PlanVersion.
	Schema        string `json:"schema"`
	SchemaVersion int    `json:"schemaVersion"`
	// Collection is the audited collection's logical id.
	Collection string `json:"collection"`
	// Baseline is the audit's: the only state the plan may be applied to.
	Baseline Baseline `json:"baseline"`
	// Steps are the automatic steps; at most one, ActionCatalogSync.
	Steps []Step `json:"steps"`
	// Handoffs are the findings a person must resolve by changing
	// content, most serious first.
	Handoffs []Handoff `json:"handoffs"`
	// Informational counts the info findings, which ask for no change.
	Informational int `json:"informational"`
	// OmittedFindings counts the findings the audit's cap left out: the
	// plan cannot name them.
	OmittedFindings int `json:"omittedFindings"`
}

// Step is one automatic step.
type Step struct {
	// Action is ActionCatalogSync.
	Action string `json:"action"`
	// File is the file the step writes, relative to the collection root.
	File string `json:"file"`
	// Reason is the catalog's state in the audit (stale or missing).
	Reason string `json:"reason"`
	// Findings are the ids of the findings the step resolves.
	Findings []string `json:"findings"`
}

// Handoff is a finding handed to a person.
type Handoff struct {
	// Finding is the audit finding's id.
	Finding  string `json:"finding"`
	Source   string `json:"source"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
	// Package and File say where (as in Finding); Line and Col when known.
	Package string `json:"package"`
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	// Message is the problem, Action what the person should do.
	Message string `json:"message"`
	Action  string `json:"action"`
}

// Location renders where the handoff is, as Finding.Location does.
func (h Handoff) Location() string {
	return Finding{Package: h.Package, File: h.File, Line: h.Line, Col: h.Col}.Location()
}

// NewPlan turns an audit into a plan. The audit is one DecodeAudit accepted (or
// RunAudit returned); NewPlan reads nothing else.
func NewPlan(a *Audit) *Plan {
	p := &Plan{Schema: PlanSchema, SchemaVersion: PlanVersion, Collection: a.Collection, Baseline: a.Baseline,
		Steps: []Step{}, Handoffs: []Handoff{}, OmittedFindings: a.Summary.Omitted}
	for _, f := range a.Findings {
		switch {
		case f.Source == SourceCatalog && (f.Code == CatalogStale || f.Code == CatalogMissing):
			if len(p.Steps) == 0 {
				p.Steps = append(p.Steps, Step{Action: ActionCatalogSync, File: catalog.FileName, Reason: a.Catalog.State, Findings: []string{}})
			}
			p.Steps[0].Findings = append(p.Steps[0].Findings, f.ID)
		case f.Severity == SeverityInfo:
			p.Informational++
		default:
			p.Handoffs = append(p.Handoffs, Handoff{Finding: f.ID, Source: f.Source, Code: f.Code, Severity: f.Severity,
				Package: f.Package, File: f.File, Line: f.Line, Col: f.Col, Message: f.Message, Action: handoffAction(f)})
		}
	}
	// Info findings the cap left out are not counted here: the audit's
	// summary has them, and they ask for nothing.
	return p
}

// handoffAction says what a person does about f: its fix when the check
// knows one, else what its source asks for.
func handoffAction(f Finding) string {
	if f.Fix != "" {
		return f.Fix
	}
	switch f.Source {
	case SourceValidate:
		return "change the package so that agent-skills validate reports no " + f.Code + " here"
	case SourceSecurity:
		return "review the content the scanner flagged and change or remove it; agent-skills audit explains the rule"
	}
	return "resolve it by hand, then audit again"
}
