package skillset

import (
	"fmt"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// Outcome is what a use case did, or with DryRun would do: its JSON form
// is the --json output of install, update and uninstall and the result of
// the MCP write tools.
type Outcome struct {
	// Scope is "global" or "project".
	Scope string `json:"scope"`
	// Project is the project root in project scope.
	Project string `json:"project,omitempty"`
	// Agents are the ids of the selected agents.
	Agents []string `json:"agents"`
	// DryRun says nothing was written.
	DryRun bool `json:"dryRun"`
	// Plan is the resolution: every selected skill and version.
	Plan []resolve.Selection `json:"plan,omitempty"`
	// Warnings are the resolver's warnings.
	Warnings []resolve.Warning `json:"warnings,omitempty"`
	// Results are the outcomes per package and agent folder, in the order
	// the user reads them.
	Results []install.Result `json:"results"`
	// Duplicates are the agents that see a package through more than one
	// folder because no choice of folders avoids it.
	Duplicates []install.Duplicate `json:"duplicates,omitempty"`
	// InstalledHere are the agents named in a result's alsoReadBy that are
	// detected on this machine or in the project: those the report names.
	InstalledHere []string `json:"installedHere,omitempty"`
	// Inexact names the packages whose folders were chosen without a
	// finished search (see install.Report).
	Inexact []string `json:"inexact,omitempty"`
	// Changes are, for skills a source update moves, the files it adds,
	// removes and modifies.
	Changes []Change `json:"changes,omitempty"`
	// Problems are the validation errors of the packages that refused the
	// run (ASK_VALIDATION_FAILED).
	Problems []Problem `json:"problems,omitempty"`
	// Findings are, per package the run takes that holds any, what the
	// content scan found, with the gate's verdict on each (risk.go): the
	// plan shows them whether the run installs or, with a blocked one,
	// refuses (ASK_CONTENT_RISK).
	Findings []PackageFindings `json:"findings,omitempty"`
	// ValidationWarnings are, per package installed, what it breaks that
	// did not keep it from being installed (see validate.GateInstall).
	ValidationWarnings []Problem `json:"validationWarnings,omitempty"`
	// Skipped are the skills that --skill '*' chose and the install gate
	// refused, each with every reason: they were not installed.
	Skipped []Skip `json:"skipped,omitempty"`
	// Summary counts the skills installed and skipped when --skill '*'
	// chose them; nil otherwise.
	Summary *Summary `json:"summary,omitempty"`
	// Notices are what the user should read besides the results: an
	// orphaned dependency removed too, an interrupted run finished, files
	// kept from a local edit.
	Notices []Notice `json:"notices,omitempty"`
}

// Level grades a notice.
type Level string

// Notice levels, from the least to the most pressing.
const (
	// LevelInfo is a line of progress or summary.
	LevelInfo Level = "info"
	// LevelNote is a notice about how the work was done.
	LevelNote Level = "note"
	// LevelWarn is something the user should act on.
	LevelWarn Level = "warning"
)

// Notice is one line for the user. Text is plain: it may hold names and
// paths from packages, which the renderer escapes.
type Notice struct {
	Level Level  `json:"level"`
	Text  string `json:"text"`
}

// Change is what a source update changes in one skill.
type Change struct {
	Name string `json:"name"`
	// From and To are the versions; FromCommit and ToCommit the commits.
	From       string   `json:"from"`
	FromCommit string   `json:"fromCommit,omitempty"`
	To         string   `json:"to"`
	ToCommit   string   `json:"toCommit,omitempty"`
	Source     string   `json:"source"`
	Added      []string `json:"added,omitempty"`
	Removed    []string `json:"removed,omitempty"`
	Modified   []string `json:"modified,omitempty"`
}

// Skip is a skill of a source that the install gate refused.
type Skip struct {
	// Name is the skill's name; Source the source it is in, Path its
	// folder there.
	Name   string `json:"name"`
	Source string `json:"source"`
	Path   string `json:"path,omitempty"`
	// Code is the refusal's code: ASK_VALIDATION_FAILED,
	// ASK_PACKAGE_UNSAFE_FILE or ASK_PACKAGE_TOO_LARGE from the install
	// gate, or ASK_SOURCE_DUPLICATE_SKILL for a name two folders offer
	// with different contents.
	Code string `json:"code"`
	// Codes are the codes of the reasons, sorted, once each.
	Codes []string `json:"codes"`
	// Diagnostics are every reason: each error, with its file, position
	// and code.
	Diagnostics format.Diagnostics `json:"diagnostics"`
}

// Summary counts what an install of "*" did: the skills in place for the
// selected agents afterwards, and those it skipped.
type Summary struct {
	Installed int `json:"installed"`
	Skipped   int `json:"skipped"`
}

// Problem is a package refused by validation, with its errors.
type Problem struct {
	// Package is "name@version".
	Package     string             `json:"package"`
	Diagnostics format.Diagnostics `json:"diagnostics"`
}

// newOutcome starts the outcome of a use case on s.
func (s *Session) newOutcome(dryRun bool) *Outcome {
	o := &Outcome{Scope: string(s.Scope.Kind), Project: s.Scope.Root, Agents: s.AgentIDs(), DryRun: dryRun,
		Results: []install.Result{}}
	return o
}

// notify adds a notice.
func (o *Outcome) notify(level Level, format string, args ...any) {
	o.Notices = append(o.Notices, Notice{Level: level, Text: fmt.Sprintf(format, args...)})
}

// skip records a skill of source that "*" covered and the source did not
// materialise: the gate refused it, or two folders offer its name. A skip
// without diagnostics (a duplicate) gets its reason as one.
func (o *Outcome) skip(src string, sk source.Skipped) {
	if len(sk.Diagnostics) == 0 {
		sk.Diagnostics = format.Diagnostics{{Severity: format.SeverityError, Code: sk.Code, Message: sk.Reason}}
	}
	codes := []string{}
	for _, d := range sk.Diagnostics {
		if !slices.Contains(codes, d.Code) {
			codes = append(codes, d.Code)
		}
	}
	slices.Sort(codes)
	o.Skipped = append(o.Skipped, Skip{Name: sk.Name, Source: src, Path: sk.Path, Code: sk.Code, Codes: codes, Diagnostics: sk.Diagnostics})
}

// warned records the warnings of a package that passed the gate.
func (o *Outcome) warned(pkg string, ds format.Diagnostics) {
	if len(ds) > 0 {
		o.ValidationWarnings = append(o.ValidationWarnings, Problem{Package: pkg, Diagnostics: ds})
	}
}

// summarise counts the skills in place and those skipped, for a run in
// which "*" chose skills.
func (o *Outcome) summarise() {
	placed := map[string]bool{}
	for _, r := range o.Results {
		if inPlace(r.Outcome) {
			placed[r.Name] = true
		}
	}
	o.Summary = &Summary{Installed: len(placed), Skipped: len(o.Skipped)}
}

// refusedOnly keeps the refusals of a transaction that refused or failed,
// which changed nothing: the other results say what it would have done,
// and it did not, so no "installed" or "removed" is reported for it.
func refusedOnly(rep *install.Report) {
	if rep == nil {
		return
	}
	kept := []install.Result{}
	for _, r := range rep.Results {
		if r.Outcome == install.OutcomeRefused {
			kept = append(kept, r)
		}
	}
	rep.Results = kept
}

// addReport takes the results and duplicates of an install report.
func (o *Outcome) addReport(rep *install.Report) {
	if rep == nil {
		return
	}
	if len(o.Results) == 0 && len(rep.Results) > 0 {
		// Taken as they are, not copied: 20,000 results are 5 MB, which
		// the copy held twice at the end of the run.
		o.Results = rep.Results
	} else {
		o.Results = append(o.Results, rep.Results...)
	}
	o.Duplicates = append(o.Duplicates, rep.Duplicates...)
	o.Inexact = append(o.Inexact, rep.Inexact...)
}

// addInstalledHere adds the bystanders detected here, once each.
func (o *Outcome) addInstalledHere(ids []string) {
	for _, id := range ids {
		if !slices.Contains(o.InstalledHere, id) {
			o.InstalledHere = append(o.InstalledHere, id)
		}
	}
}

// setPlan takes the selections and warnings of a resolution.
func (o *Outcome) setPlan(plan *resolve.Plan) {
	if plan != nil {
		o.Plan, o.Warnings = plan.Skills, plan.Warnings
	}
}
