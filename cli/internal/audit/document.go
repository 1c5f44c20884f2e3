package audit

import (
	"path"

	"github.com/agent-skills/agent-skills/scan"
)

// Document is the `audit --json` report (schema version 1, documented in
// docs/cli.md): every package audited with its findings, and the counts.
type Document struct {
	SchemaVersion int `json:"schemaVersion"`
	// FailOn is the --fail-on severity, or "none".
	FailOn   string        `json:"failOn"`
	Packages []DocPackage  `json:"packages"`
	Summary  DocumentTotal `json:"summary"`
}

// DocPackage is one audited package of a Document.
type DocPackage struct {
	// Path is the package folder relative to the working folder (absolute
	// when outside it), with "/" separators.
	Path string `json:"path"`
	Name string `json:"name"`
	// Scope and Agents are set for an installed skill.
	Scope  string   `json:"scope,omitempty"`
	Agents []string `json:"agents,omitempty"`
	// Files and Bytes count what was scanned.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Findings are sorted by file, line, column and rule.
	Findings []DocFinding `json:"findings"`
	// Omitted counts findings left out past the per-rule, per-file bound.
	Omitted int `json:"omitted,omitempty"`
	// Skipped says why the folder was not read; Error why its scan
	// stopped short.
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
}

// DocFinding is a finding as the document carries it: its file relative to
// the working folder, and its fingerprint.
type DocFinding struct {
	scan.Finding
	// Fingerprint is Finding.Fingerprint() of the package-relative finding:
	// stable across line moves, what receipts and SARIF carry.
	Fingerprint string `json:"fingerprint"`
}

// DocumentTotal counts the findings of every package.
type DocumentTotal struct {
	Packages int `json:"packages"`
	Findings int `json:"findings"`
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Low      int `json:"low"`
	Info     int `json:"info"`
	// Failing is the number of findings at or above failOn: the command
	// exits 5 when it is not zero.
	Failing int `json:"failing"`
	// Skipped and Failed count the packages not read and those whose scan
	// stopped short.
	Skipped int `json:"skipped,omitempty"`
	Failed  int `json:"failed,omitempty"`
}

// NewDocument builds the document of res; failOn is the --fail-on
// severity, nil for none.
func NewDocument(res Result, failOn *scan.Severity) Document {
	doc := Document{SchemaVersion: 1, FailOn: "none", Packages: []DocPackage{}}
	if failOn != nil {
		doc.FailOn = failOn.String()
		doc.Summary.Failing, _ = res.AtLeast(*failOn)
	}
	for _, p := range res.Packages {
		dp := DocPackage{Path: p.Show, Name: p.Name, Scope: p.Scope, Agents: p.Agents,
			Files: p.Report.Files, Bytes: p.Report.Bytes, Omitted: p.Report.Omitted,
			Skipped: p.Skipped, Findings: []DocFinding{}}
		if p.Err != nil {
			dp.Error = p.Err.Error()
			doc.Summary.Failed++
		}
		if p.Skipped != "" {
			doc.Summary.Skipped++
		}
		for _, f := range p.Report.Findings {
			df := DocFinding{Finding: f, Fingerprint: f.Fingerprint()}
			df.File = path.Join(p.Show, f.File)
			dp.Findings = append(dp.Findings, df)
		}
		doc.Packages = append(doc.Packages, dp)
	}
	c := res.Counts()
	doc.Summary.Packages = len(res.Packages)
	doc.Summary.Findings = res.Findings()
	doc.Summary.Critical, doc.Summary.High, doc.Summary.Medium = c[scan.Critical], c[scan.High], c[scan.Medium]
	doc.Summary.Low, doc.Summary.Info = c[scan.Low], c[scan.Info]
	return doc
}
