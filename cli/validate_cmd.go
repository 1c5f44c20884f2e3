package cli

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/audit"
	"github.com/agent-skills/agent-skills/cli/internal/publish"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/validate"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

type validateCmd struct {
	Path   string `arg:"" optional:"" default:"." type:"path" help:"A package folder, or a folder of packages (a collection or a registry root)."`
	Strict bool   `help:"Treat warnings that matter for publishing as errors: unknown manifest keys, broken links, a missing skill.yaml; fail (exit 5) on content findings that would block an install."`
	JSON   bool   `name:"json" help:"Print a machine-readable report (schema in docs/cli.md)."`
}

func (c *validateCmd) Help() string {
	return `Every problem is reported at once, one per line, as
  path:line:col: severity CODE message
followed by the fix. The exit code is 3 when any package has an error.

Each package is also scanned by the content scanner install runs; its findings follow
the package's diagnostics in the form audit prints. With --strict a finding that would
block an install (critical) fails with exit 5 (ASK_CONTENT_RISK), as publish refuses it.

Examples:
  agent-skills validate                       # the package in the current folder
  agent-skills validate skills/ --strict      # every package of a collection
  agent-skills validate my-skill --json       # machine-readable report`
}

// validateReport is the --json schema (documented in docs/cli.md).
type validateReport struct {
	SchemaVersion int               `json:"schemaVersion"`
	Strict        bool              `json:"strict"`
	Packages      []validatePackage `json:"packages"`
	Summary       validateSummary   `json:"summary"`
}

type validatePackage struct {
	Path        string              `json:"path"`
	Name        string              `json:"name"`
	Kind        string              `json:"kind"`
	Version     string              `json:"version,omitempty"`
	Valid       bool                `json:"valid"`
	Diagnostics []format.Diagnostic `json:"diagnostics"`
	// Nested are the folders inside the package holding a SKILL.md or
	// skill.yaml of their own, relative to path: part of this package.
	Nested []string `json:"nested,omitempty"`
	// Findings are the content scanner's, as install and audit report
	// them: file relative to the working folder, with the fingerprint.
	Findings []audit.DocFinding `json:"findings"`
	// blocking counts the findings the install gate blocks.
	blocking int
}

type validateSummary struct {
	Packages int `json:"packages"`
	Invalid  int `json:"invalid"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Findings counts the content-scan findings; Blocking those that
	// would block an install (and fail --strict).
	Findings int `json:"findings"`
	Blocking int `json:"blocking"`
	// Info counts the findings at info, which the text form leaves out
	// (a bare skill's scripts, a shell limited to named commands).
	Info int `json:"info"`
}

func (c *validateCmd) Run(e *env) error {
	root, err := filepath.Abs(c.Path)
	if err != nil {
		return &askerr.Error{Code: askerr.CodeUsage, Message: "cannot resolve " + c.Path, Err: err}
	}
	fi, err := os.Stat(root)
	if err != nil {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("cannot read %s", e.Rel(root)), Err: err,
			Try: []string{"agent-skills validate <folder of a skill package>"}}
	}
	if !fi.IsDir() {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills validate " + e.Rel(filepath.Dir(root))}}
	}
	vopts := e.ws.ValidateOptions(c.Strict)
	vopts.Scan = true
	results, err := workspace.ValidatePath(root, vopts)
	if err != nil {
		return err
	}
	rep := validateReport{SchemaVersion: 1, Strict: c.Strict, Packages: []validatePackage{}}
	for _, r := range results {
		pkgPath := e.Rel(filepath.Join(root, filepath.FromSlash(r.Path)))
		p := validatePackage{Path: filepath.ToSlash(pkgPath), Name: r.Name, Kind: string(r.Kind), Version: r.Version,
			Valid: !r.Diagnostics.HasErrors(), Diagnostics: []format.Diagnostic{}, Nested: r.Nested}
		for _, d := range r.Diagnostics {
			d.File = filepath.ToSlash(filepath.Join(pkgPath, filepath.FromSlash(d.File)))
			p.Diagnostics = append(p.Diagnostics, d)
			if d.Severity == format.SeverityError {
				rep.Summary.Errors++
			} else {
				rep.Summary.Warnings++
			}
		}
		if !p.Valid {
			rep.Summary.Invalid++
		}
		findings, blocking, err := scanFindings(r, p.Path)
		if err != nil {
			return err
		}
		p.Findings, p.blocking = findings, blocking
		rep.Summary.Findings += len(findings)
		rep.Summary.Blocking += blocking
		for _, f := range findings {
			if f.Severity == scan.Info {
				rep.Summary.Info++
			}
		}
		rep.Packages = append(rep.Packages, p)
	}
	rep.Summary.Packages = len(rep.Packages)

	if c.JSON {
		if err := e.JSON(rep); err != nil {
			return err
		}
	} else {
		for _, p := range rep.Packages {
			e.Diagnostics("", p.Diagnostics)
			var fs []scan.Finding
			for _, f := range p.Findings {
				if f.Severity > scan.Info {
					fs = append(fs, f.Finding)
				}
			}
			e.Findings("", fs)
			if len(p.Nested) > 0 {
				e.Note("%s", nestedNote(p.Path, p.Nested))
			}
		}
		if rep.Summary.Packages > 0 {
			e.Info("%s", summaryLine(rep.Summary))
		}
		if rep.Summary.Blocking > 0 && !c.Strict {
			e.Note("%d %s would block installing, and fail validate --strict and publish",
				rep.Summary.Blocking, ui.Plural(rep.Summary.Blocking, "finding", "findings"))
		}
	}
	if rep.Summary.Packages == 0 {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("no skill package found in %s", e.Rel(root)),
			Detail: []string{"A package is a folder with a skill.yaml, or a SKILL.md for a bare skill."},
			Try:    []string{"agent-skills create <name>   to start one"}}
	}
	if c.Strict && rep.Summary.Blocking > 0 {
		n := rep.Summary.Blocking
		err := &askerr.Error{Code: publish.CodeContentRisk,
			Message: fmt.Sprintf("%d content %s would block installing %s", n, ui.Plural(n, "finding", "findings"), blockedPackages(rep.Packages)),
			Detail:  []string{"validate --strict applies the install gate that publish applies: a critical finding blocks."},
			Try:     []string{"fix each finding as its fix line says, then run agent-skills validate --strict again"}}
		if rep.Summary.Invalid > 0 {
			err.Detail = append(err.Detail, fmt.Sprintf("%d of %d %s also failed validation", rep.Summary.Invalid, rep.Summary.Packages,
				ui.Plural(rep.Summary.Packages, "package", "packages")))
		}
		return err
	}
	if rep.Summary.Invalid > 0 {
		return &askerr.Error{Code: askerr.CodeValidationFailed,
			Message: fmt.Sprintf("%d of %d %s failed validation", rep.Summary.Invalid, rep.Summary.Packages, ui.Plural(rep.Summary.Packages, "package", "packages")),
			Try:     []string{"fix the errors listed above, then run agent-skills validate again"}}
	}
	return nil
}

// nestedNote says that the package folders nested inside the package at
// dir are validated as its files.
func nestedNote(dir string, nested []string) string {
	folders := make([]string, len(nested))
	for i, n := range nested {
		folders[i] = ui.Field(n)
	}
	if len(folders) == 1 {
		return fmt.Sprintf("%s contains the package folder %s; it is validated as part of %s, not as a package of its own",
			ui.Field(dir), folders[0], ui.Field(dir))
	}
	return fmt.Sprintf("%s contains the package folders %s; they are validated as part of %s, not as packages of their own",
		ui.Field(dir), joinAnd(folders), ui.Field(dir))
}

func summaryLine(s validateSummary) string {
	line := fmt.Sprintf("%d %s checked: %d %s, %d %s",
		s.Packages, ui.Plural(s.Packages, "package", "packages"),
		s.Errors, ui.Plural(s.Errors, "error", "errors"),
		s.Warnings, ui.Plural(s.Warnings, "warning", "warnings"))
	if n := s.Findings - s.Info; n > 0 {
		line += fmt.Sprintf(", %d content %s (%d blocking)", n, ui.Plural(n, "finding", "findings"), s.Blocking)
	}
	if s.Info > 0 {
		line += fmt.Sprintf(", %d info (agent-skills audit shows them)", s.Info)
	}
	return line
}

// scanFindings returns the content scanner's findings on the package r
// (validate.Options.Scan: loaded once, as validate loads it, so that a
// refused file is a diagnostic, not scanned), with files below show, and
// how many of them the install gate blocks.
func scanFindings(r validate.Result, show string) ([]audit.DocFinding, int, error) {
	out := []audit.DocFinding{}
	if r.ScanErr != nil {
		return nil, 0, askerr.IO("cannot scan "+show, r.ScanErr)
	}
	if r.Scan == nil {
		return out, 0, nil
	}
	for _, f := range r.Scan.Findings {
		df := audit.DocFinding{Finding: f, Fingerprint: f.Fingerprint()}
		df.File = path.Join(show, f.File)
		out = append(out, df)
	}
	v := scan.DefaultGate().Judge(r.Name, *r.Scan)
	return out, len(v.Blocked), nil
}

// blockedPackages names the packages with findings the install gate
// blocks: "skills/a" or "3 packages".
func blockedPackages(pkgs []validatePackage) string {
	var names []string
	for _, p := range pkgs {
		if p.blocking > 0 {
			names = append(names, p.Path)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return fmt.Sprintf("%d packages", len(names))
}
