package maintain

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/audit"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
	"github.com/agent-skills/agent-skills/validate"
)

// The sources of a finding.
const (
	SourceValidate = "validate"
	SourceCatalog  = "catalog"
	SourceSecurity = "security"
)

// The severities of a finding, most serious first.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// The codes of catalog findings.
const (
	// CatalogMissing: the collection has no skills-catalog.json
	// (automatic: catalog sync).
	CatalogMissing = "catalog-missing"
	// CatalogStale: skills-catalog.json differs from a fresh build
	// (automatic: catalog sync).
	CatalogStale = "catalog-stale"
	// CatalogMalformed: skills-catalog.json is not a catalog this
	// agent-skills reads; a person decides what it should hold.
	CatalogMalformed = "catalog-malformed"
	// CatalogUnbuildable: the catalog cannot be derived because packages
	// fail validation; fixing them comes first.
	CatalogUnbuildable = "catalog-unbuildable"
)

// The states of a collection's catalog in an audit.
const (
	StateFresh       = "fresh"
	StateStale       = "stale"
	StateMissing     = "missing"
	StateMalformed   = "malformed"
	StateUnbuildable = "unbuildable"
)

// DefaultMaxFindings is how many findings an audit keeps by default;
// MaxFindingsLimit the most it may be asked to keep.
const (
	DefaultMaxFindings = 1000
	MaxFindingsLimit   = 100000
)

// AuditSchema names the audit document's format; AuditVersion is its version.
const (
	AuditSchema  = "agent-skills/collection-audit"
	AuditVersion = 1
)

// Audit is the audit document: what `collection audit` found in one
// collection, and the baseline of the state it inspected.
type Audit struct {
	// Schema is AuditSchema and SchemaVersion AuditVersion.
	Schema        string `json:"schema"`
	SchemaVersion int    `json:"schemaVersion"`
	// Collection is the collection's logical id: its folder name unless
	// the caller chose another. Never a path.
	Collection string `json:"collection"`
	// Strict says validation ran at the strict gate.
	Strict bool `json:"strict"`
	// Baseline is the inspected state.
	Baseline Baseline `json:"baseline"`
	// Catalog is the catalog's freshness.
	Catalog CatalogStatus `json:"catalog"`
	// Summary counts every finding, kept or left out.
	Summary Summary `json:"summary"`
	// Findings are sorted most serious first, then by package, file and
	// position; at most the audit's cap, catalog findings always kept.
	Findings []Finding `json:"findings"`
}

// CatalogStatus is the freshness of skills-catalog.json.
type CatalogStatus struct {
	// State is StateFresh, StateStale, StateMissing, StateMalformed or
	// StateUnbuildable.
	State string `json:"state"`
	// Skills is how many packages a fresh build lists; 0 when unbuildable.
	Skills int `json:"skills"`
	// Changes are catalog build --check's differences, one line each, at
	// most the audit's cap; ChangesOmitted counts the rest.
	Changes        []string `json:"changes"`
	ChangesOmitted int      `json:"changesOmitted"`
}

// Summary counts an audit's findings.
type Summary struct {
	Packages int `json:"packages"`
	// Findings counts all of them; Omitted those the cap left out.
	Findings int `json:"findings"`
	Omitted  int `json:"omitted"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Info     int `json:"info"`
	Validate int `json:"validate"`
	Catalog  int `json:"catalog"`
	Security int `json:"security"`
}

// Finding is one problem an audit found.
type Finding struct {
	// ID is stable: the same problem at the same place in the same
	// collection has the same id in every audit ("v-…", "c-…", "s-…" by
	// source, then 12 hex digits; "-2", "-3" for repeats).
	ID string `json:"id"`
	// Source is SourceValidate, SourceCatalog or SourceSecurity.
	Source string `json:"source"`
	// Code is the rule: a validation ASK_* code, a scanner rule id or a
	// catalog code (CatalogStale, …).
	Code string `json:"code"`
	// Severity is SeverityError, SeverityWarning or SeverityInfo; for a
	// security finding, critical and high are errors, medium and low
	// warnings, and ScanSeverity keeps the scanner's own.
	Severity     string `json:"severity"`
	ScanSeverity string `json:"scanSeverity,omitempty"`
	// Package is the package folder relative to the collection root; ""
	// for a finding about the collection (the catalog).
	Package string `json:"package"`
	// File is relative to the package (to the collection root when
	// Package is ""); "" for the package as a whole.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	// Message states the problem; Fix, when known, what to change.
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// Location renders where the finding is, relative to the collection
// root: "alpha/SKILL.md:3:1", "alpha", or "skills-catalog.json".
func (f Finding) Location() string {
	loc := f.File
	switch {
	case f.Package != "" && f.Package != "." && f.File != "":
		loc = f.Package + "/" + f.File
	case f.Package != "" && f.File == "":
		loc = f.Package
	}
	if f.Line > 0 {
		loc += ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(max(f.Col, 1))
	}
	return loc
}

// AuditOptions are the choices of an audit.
type AuditOptions struct {
	// ID is the collection's logical id (default: the folder's name).
	ID string
	// Strict records that Validate is the strict gate.
	Strict bool
	// Validate are the options of the validation findings.
	Validate validate.Options
	// Catalog are the options catalog build uses (the default gate).
	Catalog validate.Options
	// MaxFindings caps the findings kept (0: DefaultMaxFindings).
	MaxFindings int
}

// RunAudit audits the collection at root, an absolute folder, read-only.
// The collection is inspected twice, before and after the checks: when
// the two states differ, the audit is refused (CodeChanged), since its
// findings would describe no single state.
func RunAudit(ctx context.Context, root string, opts AuditOptions) (*Audit, error) {
	if opts.ID == "" {
		opts.ID = filepath.Base(root)
	}
	limit := opts.MaxFindings
	if limit <= 0 {
		limit = DefaultMaxFindings
	}
	lo := opts.Validate.Load
	before, err := inspect(root, lo)
	if err != nil {
		return nil, err
	}
	fsys := os.DirFS(root)
	vopts := opts.Validate
	vopts.DirName = filepath.Base(root)
	vopts.Scan = false
	results, err := validate.Collection(fsys, vopts)
	if err != nil {
		return nil, askerr.IO("cannot list the collection "+root, err)
	}
	var all []Finding
	for _, r := range results {
		for _, d := range r.Diagnostics {
			all = append(all, validationFinding(r.Path, d))
		}
	}
	copts := opts.Catalog
	copts.DirName = filepath.Base(root)
	status, cf := catalogFindings(fsys, copts, before, limit)
	all = append(all, cf...)
	targets, err := audit.Folder(root)
	if err != nil {
		return nil, err
	}
	res, err := audit.Scan(ctx, targets, scan.Options{})
	if err != nil {
		return nil, err
	}
	for _, p := range res.Packages {
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil {
			return nil, askerr.Internal("placing "+p.Dir, err)
		}
		rel = filepath.ToSlash(rel)
		for _, f := range p.Report.Findings {
			all = append(all, securityFinding(rel, f))
		}
		if p.Err != nil {
			all = append(all, Finding{Source: SourceSecurity, Code: "scan-incomplete", Severity: SeverityError, Package: rel,
				Message: "the scanner could not read every file: " + p.Err.Error(),
				Fix:     "make every file of the package readable, then audit again"})
		}
	}
	after, err := inspect(root, lo)
	if err != nil {
		return nil, err
	}
	if d := Drift(before.baseline, after.baseline); len(d) > 0 {
		return nil, &askerr.Error{Code: CodeChanged, Message: "the collection changed while it was audited",
			Detail: d, Try: []string{"audit again when nothing writes to the collection"}}
	}
	a := &Audit{Schema: AuditSchema, SchemaVersion: AuditVersion, Collection: opts.ID, Strict: opts.Strict,
		Baseline: before.baseline, Catalog: status}
	a.Findings, a.Summary = bound(all, limit)
	a.Summary.Packages = len(before.baseline.Packages)
	return a, nil
}

// validationFinding is a validation diagnostic of the package at dir.
func validationFinding(dir string, d format.Diagnostic) Finding {
	sev := SeverityWarning
	if d.Severity == format.SeverityError {
		sev = SeverityError
	}
	return Finding{Source: SourceValidate, Code: d.Code, Severity: sev, Package: dir, File: d.File,
		Line: d.Line, Col: d.Col, Message: d.Message, Fix: d.Fix}
}

// securityFinding is a scanner finding of the package at dir.
func securityFinding(dir string, f scan.Finding) Finding {
	sev := SeverityInfo
	switch {
	case f.Severity >= scan.High:
		sev = SeverityError
	case f.Severity >= scan.Low:
		sev = SeverityWarning
	}
	return Finding{Source: SourceSecurity, Code: f.Rule, Severity: sev, ScanSeverity: f.Severity.String(),
		Package: dir, File: f.File, Line: f.Line, Col: f.Col, Message: f.Message, Fix: f.Fix}
}

// catalogFindings checks the catalog read in st against a fresh build.
func catalogFindings(fsys fs.FS, opts validate.Options, st *state, limit int) (CatalogStatus, []Finding) {
	status := CatalogStatus{Changes: []string{}}
	finding := func(code, sev, msg, fix string) []Finding {
		return []Finding{{Source: SourceCatalog, Code: code, Severity: sev, File: catalog.FileName, Message: msg, Fix: fix}}
	}
	var malformed []Finding
	if st.unreadable {
		status.State = StateMalformed
		malformed = finding(CatalogMalformed, SeverityError,
			fmt.Sprintf("%s is not a regular file, or is larger than %d bytes", catalog.FileName, catalog.MaxCatalogSize),
			"replace it by hand with the catalog the collection should have (agent-skills catalog build writes one), then audit again")
	} else if st.catalog != nil {
		if _, err := catalog.Decode(st.catalog); err != nil {
			status.State = StateMalformed
			malformed = finding(CatalogMalformed, SeverityError, err.Error(),
				"look at what the file holds and why: repair or delete it by hand, then audit again; catalog sync never overwrites a file it cannot read")
		}
	}
	cat, err := catalog.Build(fsys, opts)
	if err != nil {
		if status.State == "" {
			status.State = StateUnbuildable
		}
		return status, append(malformed, finding(CatalogUnbuildable, SeverityWarning,
			"the catalog cannot be derived: "+firstLine(err.Error()),
			"fix the validation errors of this audit, then audit again: the catalog is synchronised then")...)
	}
	status.Skills = len(cat.Skills)
	if malformed != nil {
		return status, malformed
	}
	changes := catalog.Check(st.catalog, cat)
	if len(changes) == 0 {
		status.State = StateFresh
		return status, nil
	}
	for i, ch := range changes {
		if i == limit {
			status.ChangesOmitted = len(changes) - limit
			break
		}
		status.Changes = append(status.Changes, ch.String())
	}
	if st.catalog == nil {
		status.State = StateMissing
		return status, finding(CatalogMissing, SeverityWarning, catalog.FileName+" does not exist",
			"automatic: collection evolve --apply writes it")
	}
	status.State = StateStale
	return status, finding(CatalogStale, SeverityWarning,
		fmt.Sprintf("%s is stale: %d %s", catalog.FileName, len(changes), plural(len(changes), "difference", "differences")),
		"automatic: collection evolve --apply synchronises it")
}

// bound sorts the findings, gives each its id, and keeps at most limit of
// them (catalog findings always), counting every one in the summary.
func bound(all []Finding, limit int) ([]Finding, Summary) {
	for i := range all {
		f := &all[i]
		f.Code, f.Message, f.Fix = clip(f.Code, 256), clip(f.Message, maxFindingText), clip(f.Fix, maxFindingText)
	}
	slices.SortFunc(all, compareFindings)
	var s Summary
	seen := map[string]int{}
	kept := make([]Finding, 0, min(len(all), limit+2))
	others := 0
	for _, f := range all {
		base := findingID(f)
		seen[base]++
		f.ID = base
		if n := seen[base]; n > 1 {
			f.ID = base + "-" + strconv.Itoa(n)
		}
		s.Findings++
		switch f.Severity {
		case SeverityError:
			s.Errors++
		case SeverityWarning:
			s.Warnings++
		default:
			s.Info++
		}
		switch f.Source {
		case SourceValidate:
			s.Validate++
		case SourceCatalog:
			s.Catalog++
		default:
			s.Security++
		}
		if f.Source != SourceCatalog {
			if others == limit {
				s.Omitted++
				continue
			}
			others++
		}
		kept = append(kept, f)
	}
	return kept, s
}

// severityRank orders severities, most serious first.
func severityRank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// compareFindings orders findings: severity, package, file, position,
// source, code, message.
func compareFindings(a, b Finding) int {
	return cmp.Or(cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
		cmp.Compare(a.Package, b.Package), cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Source, b.Source), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.ScanSeverity, b.ScanSeverity), cmp.Compare(a.Fix, b.Fix))
}

// findingID is the stable id of f, without the repeat suffix: its
// source's letter and 12 hex digits of the SHA-256 of what it is and where.
func findingID(f Finding) string {
	h := sha256.New()
	for _, s := range []string{f.Source, f.Code, f.Package, f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Col), f.Message} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return f.Source[:1] + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// AtLeast counts the audit's findings, kept or not, at or above the
// severity sev.
func (a *Audit) AtLeast(sev string) int {
	switch sev {
	case SeverityError:
		return a.Summary.Errors
	case SeverityWarning:
		return a.Summary.Errors + a.Summary.Warnings
	case SeverityInfo:
		return a.Summary.Findings
	}
	return 0
}

// maxFindingText bounds a finding's message and fix: text quoted from a
// package is cut there, so that a document always decodes again.
const maxFindingText = 4096

// clip cuts s to at most n bytes, at a UTF-8 boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
