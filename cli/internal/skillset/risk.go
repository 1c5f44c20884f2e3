package skillset

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/scan"
)

// This file scans what is inside every package an install, update or
// restore takes (package scan), before anything of it is written, and
// refuses the run when a package holds a finding the gate blocks and
// nothing accepted (docs/security.md).

// CodeContentRisk is the error of a run that takes a package holding a
// finding that blocks installing it, not accepted by --allow-risk (or the
// policy): exit 5, nothing written.
const CodeContentRisk = "ASK_CONTENT_RISK"

// scanGate returns the gate this session's packages pass: scan's default
// (critical findings block) tightened by the effective policy, with its
// acceptances and then every rule --allow-risk names accepted for every
// skill (policy.Effective.Gate). An --allow-risk value that names no rule
// is ASK_USAGE; a policy that refuses the flag, ASK_POLICY_VIOLATION.
func (s *Session) scanGate() (scan.Gate, error) {
	if err := CheckAllowRisk(s.opts.AllowRisk); err != nil {
		return scan.Gate{}, err
	}
	return s.Policy.Gate(s.opts.AllowRisk)
}

// CheckAllowRisk checks the values of --allow-risk: each is a rule id of
// scan.Rules, or a path.Match glob (such as "secret-*") that matches at
// least one. Anything else is ASK_USAGE, naming the rules there are, so
// that a typo never silently accepts nothing — or, as a glob, everything.
func CheckAllowRisk(ids []string) error {
	if err := scan.CheckAccept(ids); err != nil {
		e := askerr.Usage("--allow-risk %s", err.Error())
		e.Detail = []string{"rules: " + strings.Join(scan.RuleIDs(), ", ")}
		e.Try = []string{"--allow-risk <rule>[,<rule>…]   (a rule id, or a glob such as hidden-*)", "docs/security.md lists every rule"}
		return e
	}
	return nil
}

// scanned is what the content scan found in one package: every finding,
// and the gate's verdict on them. A package with no finding has none
// (fetched.scan is nil).
type scanned struct {
	report  scan.Report
	verdict scan.Verdict
}

// scanPackage scans pkg, the package name that the use case is about to
// take, and judges it at the use case's gate (p.risk): nil when nothing
// was found. The files are read through pkg.FS — a registry package's
// verified snapshot in memory, a source's folder — before anything of
// the package is written.
func (p *op) scanPackage(name string, pkg *format.Package) (*scanned, error) {
	rep, err := scan.Package(pkg, scan.Options{})
	if err != nil {
		var re *registry.Error
		if errors.As(err, &re) {
			return nil, coded(re)
		}
		return nil, askerr.IO("cannot read "+name+" to scan its content", err)
	}
	if len(rep.Findings) == 0 {
		return nil, nil
	}
	return &scanned{report: rep, verdict: p.risk.Judge(name, rep)}, nil
}

// recorded returns the findings as the receipts record them, accepted
// ones with who accepted them.
func (sc *scanned) recorded() []install.Finding {
	if sc == nil {
		return nil
	}
	by := map[string]string{}
	for _, a := range sc.verdict.Accepted {
		by[a.Fingerprint()] = a.By
	}
	out := make([]install.Finding, len(sc.report.Findings))
	for i, f := range sc.report.Findings {
		fp := f.Fingerprint()
		out[i] = install.Finding{Rule: f.Rule, Severity: f.Severity.String(), File: f.File, Line: f.Line, Fingerprint: fp, AcceptedBy: by[fp]}
	}
	return out
}

// scanAll scans the package of every fetched source package, concurrently
// (fetchWorkers at a time), and records what was found in each: the same
// work fetchOne does for a registry package. The error is the first
// package's, in the order of fs, that could not be read.
func (p *op) scanAll(fs []fetched) error {
	errs := make([]error, len(fs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(fetchWorkers(), len(fs)) {
		wg.Go(func() {
			for i := range jobs {
				pkg := fs[i].item.Pkg
				if pkg == nil {
					continue
				}
				sc, err := p.scanPackage(fs[i].name, pkg)
				if err != nil {
					errs[i] = err
					continue
				}
				fs[i].scan, fs[i].item.Findings = sc, sc.recorded()
			}
		})
	}
	for i := range fs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Verdicts of a finding in PackageFindings.
const (
	VerdictBlocked  = "blocked"
	VerdictAccepted = "accepted"
	VerdictShown    = "shown"
)

// PackageFindings is what the content scan found in one package a run
// takes, whether or not it blocked the run.
type PackageFindings struct {
	// Package is "name@version"; Name and Version the same apart.
	Package string `json:"package"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// Previous is the version of the package installed before, when its
	// receipt is there: Findings[].New then tells what that version did
	// not have.
	Previous string `json:"previous,omitempty"`
	// Blocked reports that a finding keeps the package out: the run was
	// refused with ASK_CONTENT_RISK.
	Blocked bool `json:"blocked"`
	// Findings are every finding: the blocked ones first, then the
	// accepted ones, then the others, each group by severity, highest
	// first, then by file and line.
	Findings []Flagged `json:"findings"`
	// Omitted counts findings left out because one rule fired too often
	// in one file (scan.Report.Omitted).
	Omitted int `json:"omitted,omitempty"`
}

// Flagged is one finding with the gate's verdict on it.
type Flagged struct {
	scan.Finding
	// Fingerprint is the finding's scan.Finding.Fingerprint, which the
	// receipts record.
	Fingerprint string `json:"fingerprint"`
	// Verdict is "blocked", "accepted" or "shown" (below the gate).
	Verdict string `json:"verdict"`
	// AcceptedBy says who accepted an accepted finding: "--allow-risk",
	// or the policy.
	AcceptedBy string `json:"acceptedBy,omitempty"`
	// New is set, when the package was installed before (Previous), on a
	// finding whose fingerprint that version's receipt does not record.
	New bool `json:"new,omitempty"`
}

// packageFindings is the outcome's form of what was found in f's package;
// previous are the fingerprints the installed version's receipts record
// (nil when none is installed).
func packageFindings(f fetched, prevVersion string, previous map[string]bool) PackageFindings {
	sc := f.scan
	pf := PackageFindings{Package: f.name + "@" + f.version, Name: f.name, Version: f.version, Previous: prevVersion,
		Blocked: !sc.verdict.OK(), Omitted: sc.report.Omitted}
	add := func(fd scan.Finding, verdict, by string) {
		fp := fd.Fingerprint()
		pf.Findings = append(pf.Findings, Flagged{Finding: fd, Fingerprint: fp, Verdict: verdict, AcceptedBy: by,
			New: prevVersion != "" && !previous[fp]})
	}
	for _, fd := range bySeverity(sc.verdict.Blocked) {
		add(fd, VerdictBlocked, "")
	}
	accepted := slices.Clone(sc.verdict.Accepted)
	slices.SortStableFunc(accepted, func(a, b scan.Accepted) int { return cmp.Compare(b.Severity, a.Severity) })
	for _, a := range accepted {
		add(a.Finding, VerdictAccepted, a.By)
	}
	for _, fd := range bySeverity(sc.verdict.Shown) {
		add(fd, VerdictShown, "")
	}
	return pf
}

// bySeverity returns fs sorted by severity, highest first, keeping the
// report's order (file, line, column) within a severity.
func bySeverity(fs []scan.Finding) []scan.Finding {
	out := slices.Clone(fs)
	slices.SortStableFunc(out, func(a, b scan.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	return out
}

// judgeRisks puts what the content scan found in the packages the run
// takes into the outcome, in the order of fs, and refuses the run, before
// anything is written, when any package holds a finding that blocks it:
// every such package is named at once, as other install-gate refusals
// do. The findings of a package that is installed already are labelled
// new or seen by the fingerprints its receipts record.
func (p *op) judgeRisks(fs []fetched) error {
	var with []int
	for i, f := range fs {
		if f.scan != nil {
			with = append(with, i)
		}
	}
	if len(with) == 0 {
		return nil
	}
	prev, err := p.previousFindings()
	if err != nil {
		return err
	}
	var blocked []PackageFindings
	p.scannedResults = map[string]*install.Scanned{}
	for _, i := range with {
		f := fs[i]
		old := prev[f.name]
		pf := packageFindings(f, old.version, old.fingerprints)
		p.out.Findings = append(p.out.Findings, pf)
		if pf.Blocked {
			blocked = append(blocked, pf)
			continue
		}
		p.scannedResults[f.name+"@"+f.version] = &install.Scanned{Findings: f.scan.report.Findings, Accepted: f.scan.verdict.Accepted}
	}
	if len(blocked) == 0 {
		return nil
	}
	p.scannedResults = nil
	return contentRiskError(blocked, func(rules []string) string {
		return p.rerunWith("--allow-risk", strings.Join(append(slices.Clone(p.Session.opts.AllowRisk), rules...), ","))
	})
}

// installedFindings is what the receipts of an installed package record
// of the content scan.
type installedFindings struct {
	version      string
	fingerprints map[string]bool
}

// previousFindings returns, per installed package of the scope (for the
// selected agents), its version and the fingerprints its receipts record.
// Receipts are untrusted input: these only label findings, they accept
// none.
func (p *op) previousFindings() (map[string]installedFindings, error) {
	found, err := p.scan()
	if err != nil {
		return nil, err
	}
	out := map[string]installedFindings{}
	for _, in := range found {
		if in.Version == "" {
			continue // unmanaged: no receipt
		}
		cur, ok := out[in.Name]
		if !ok {
			cur = installedFindings{version: in.Version, fingerprints: map[string]bool{}}
		}
		for _, f := range in.Findings {
			cur.fingerprints[f.Fingerprint] = true
		}
		out[in.Name] = cur
	}
	return out, nil
}

// labelResults gives the results of the packages installed what the
// content scan found in them (install.Result's findings and accepted).
func (p *op) labelResults() {
	if len(p.scannedResults) == 0 {
		return
	}
	for i := range p.out.Results {
		r := &p.out.Results[i]
		if sc, ok := p.scannedResults[r.Name+"@"+r.Version]; ok && r.Outcome != install.OutcomeSkipped && r.Outcome != install.OutcomeRemoved && r.Outcome != install.OutcomePreserved {
			r.Scanned = sc
		}
	}
}

// contentRiskError is ASK_CONTENT_RISK for the blocked packages, each
// with the rules that block it; rerun is the command that would accept
// those rules too.
func contentRiskError(blocked []PackageFindings, rerun func(rules []string) string) error {
	var detail, names []string
	rules := map[string]bool{}
	for _, pf := range blocked {
		names = append(names, pf.Package)
		count := map[string]int{}
		for _, f := range pf.Findings {
			if f.Verdict == VerdictBlocked {
				count[f.Rule]++
				rules[f.Rule] = true
			}
		}
		var parts []string
		for _, r := range slices.Sorted(maps.Keys(count)) {
			parts = append(parts, fmt.Sprintf("%s (%d)", r, count[r]))
		}
		detail = append(detail, fmt.Sprintf("%s: %s", pf.Package, strings.Join(parts, ", ")))
	}
	msg := fmt.Sprintf("%s holds content that blocks installing it; nothing was installed", blocked[0].Package)
	if len(blocked) > 1 {
		msg = fmt.Sprintf("%d packages hold content that blocks installing them (%s); nothing was installed", len(blocked), strings.Join(names, ", "))
	}
	return &askerr.Error{Code: CodeContentRisk, Message: msg,
		Detail: append(detail, "Every finding is listed above; see docs/security.md for what each rule means."),
		Try: []string{"read the findings, and tell the skill's maintainers",
			rerun(slices.Sorted(maps.Keys(rules))) + "   (--allow-risk: only if you trust what the findings show; the receipts record it)",
			"agent-skills audit <the skill's folder>   (review every finding before you decide)"}}
}
