package policy

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// Effective is the policy a command enforces: the user's file and the
// project's, merged so that it only tightens (docs/policy.md#merge).
// Lists are not flattened: every check reads both files, so each refusal
// names the file and line that made it. The zero value, and nil, allow
// everything and change nothing of the scan's default gate.
type Effective struct {
	// User is $AGENT_SKILLS_HOME/policy.json; nil when there is none.
	User *File
	// Project is the project's skills-policy.json; nil when there is
	// none, or outside a project scope.
	Project *File
}

// Merge returns the effective policy of the user's and the project's
// files; either may be nil.
func Merge(user, project *File) *Effective { return &Effective{User: user, Project: project} }

// files returns the files there are, the user's first.
func (e *Effective) files() []*File {
	if e == nil {
		return nil
	}
	var out []*File
	for _, f := range []*File{e.User, e.Project} {
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}

// Empty reports whether no policy file applies.
func (e *Effective) Empty() bool { return len(e.files()) == 0 }

// CheckRegistry refuses a registry, by its name and its URL, that a deny
// list of either file matches or that an allow list of either file does
// not (an absent list allows every registry).
func (e *Effective) CheckRegistry(name, rawURL string) error {
	subject := Subject(rawURL)
	what := fmt.Sprintf("registry %q (%s)", name, shown(rawURL))
	for _, f := range e.files() {
		for _, p := range f.Registries.Deny.Patterns {
			if matchName(p.Glob, name) || matchSubject(p.Glob, subject) {
				return violation("the policy refuses "+what,
					[]string{fmt.Sprintf("registries.deny %q at %s matches it", p.Glob, p.Origin)}, []Origin{p.Origin})
			}
		}
	}
	for _, f := range e.files() {
		l := f.Registries.Allow
		if !l.Set || anyMatch(l, func(g string) bool { return matchName(g, name) || matchSubject(g, subject) }) {
			continue
		}
		return violation("the policy does not allow "+what,
			[]string{fmt.Sprintf("registries.allow at %s allows only %s", l.Origin, globs(l))}, []Origin{l.Origin})
	}
	return nil
}

// CheckSource refuses a direct source (one installed by URL, shorthand,
// folder or archive rather than from a registry): every source when a
// file sets sources.direct to false; otherwise one whose subjects (see
// Subject; a GitHub shorthand is "github.com/owner/repo") a denyHosts
// pattern matches, or that an allowHosts list does not match. input is
// the source as the user or skills.lock wrote it, for the message.
func (e *Effective) CheckSource(input string, subjects []string) error {
	what := "the source " + shown(input)
	for _, f := range e.files() {
		if d := f.Sources.Direct; d.Set && !d.Value {
			return violation("the policy refuses "+what+": it allows skills from registries only",
				[]string{fmt.Sprintf("sources.direct is false at %s", d.Origin)}, []Origin{d.Origin})
		}
	}
	for _, f := range e.files() {
		for _, p := range f.Sources.DenyHosts.Patterns {
			for _, s := range subjects {
				if matchSubject(p.Glob, s) {
					return violation("the policy refuses "+what,
						[]string{fmt.Sprintf("sources.denyHosts %q at %s matches %s", p.Glob, p.Origin, s)}, []Origin{p.Origin})
				}
			}
		}
	}
	for _, f := range e.files() {
		l := f.Sources.AllowHosts
		if !l.Set || anyMatch(l, func(g string) bool {
			for _, s := range subjects {
				if matchSubject(g, s) {
					return true
				}
			}
			return false
		}) {
			continue
		}
		is := "the source is " + strings.Join(subjects, ", ")
		if len(subjects) == 0 {
			is = "the source has no host to match (an mcp: command runs on this machine)"
		}
		return violation("the policy does not allow "+what,
			[]string{fmt.Sprintf("sources.allowHosts at %s allows only %s; %s", l.Origin, globs(l), is)}, []Origin{l.Origin})
	}
	return nil
}

// CheckPackage refuses a package the capabilities rules forbid: one that
// declares no capabilities (a bare skill, or a skill.yaml without the
// key) when a file requires the declaration, and one that declares a
// capability a deny list matches. skill names it in the message.
func (e *Effective) CheckPackage(skill string, pkg *format.Package) error {
	var caps []string
	declared := pkg != nil && pkg.Manifest != nil && pkg.Manifest.Capabilities != nil
	if declared {
		caps = pkg.Manifest.Capabilities
	}
	for _, f := range e.files() {
		if r := f.Capabilities.Required; r.Set && r.Value && !declared {
			err := violation(fmt.Sprintf("%s declares no capabilities, and the policy requires every package to", skill),
				[]string{fmt.Sprintf("capabilities.required is true at %s", r.Origin),
					"a package declares them in skill.yaml: capabilities: [runs-scripts] (or capabilities: [] for none)"}, []Origin{r.Origin})
			return err
		}
	}
	for _, f := range e.files() {
		for _, p := range f.Capabilities.Deny.Patterns {
			for _, c := range caps {
				if matchName(p.Glob, c) {
					return violation(fmt.Sprintf("%s declares the capability %q, which the policy refuses", skill, c),
						[]string{fmt.Sprintf("capabilities.deny %q at %s matches it", p.Glob, p.Origin)}, []Origin{p.Origin})
				}
			}
		}
	}
	return nil
}

// AllowRiskBy is who accepted a finding that --allow-risk let through, as
// receipts and --json record it.
const AllowRiskBy = "--allow-risk"

// Gate returns the scan gate of a command: the default gate (critical
// blocks), lowered to the strictest scan.blockAt of either file, with
// every scan.block of both; the user's acceptances; the project's for the
// rules the user's own policy does not block (its blockAt and block,
// judged by each rule's severity), unless the user's sets
// acceptFromProject to false; then one acceptance for each --allow-risk
// rule id (allowRisk, already checked), refused with ASK_POLICY_VIOLATION
// when either file sets allowRiskFlag to false.
func (e *Effective) Gate(allowRisk []string) (scan.Gate, error) {
	g := scan.DefaultGate()
	if len(allowRisk) > 0 {
		for _, f := range e.files() {
			if a := f.Scan.AllowRiskFlag; a.Set && !a.Value {
				return scan.Gate{}, violation("the policy refuses --allow-risk "+strings.Join(allowRisk, ","),
					[]string{fmt.Sprintf("scan.allowRiskFlag is false at %s: findings are accepted only by the policy's scan.accept", a.Origin)},
					[]Origin{a.Origin})
			}
		}
	}
	for _, f := range e.files() {
		if f.Scan.BlockAtSet && f.Scan.BlockAt < g.BlockAt {
			g.BlockAt = f.Scan.BlockAt
		}
		for _, p := range f.Scan.Block.Patterns {
			g.Block = append(g.Block, p.Glob)
		}
	}
	if e != nil && e.User != nil {
		for _, a := range e.User.Scan.Accept {
			g.Accept = append(g.Accept, acceptances(a.Rule, a, e.User.Path)...)
		}
	}
	if e.projectAccepts() {
		for _, a := range e.Project.Scan.Accept {
			for _, r := range scan.Rules() {
				if matchName(a.Rule, r.ID) && !e.userBlocks(r) {
					for _, acc := range acceptances(r.ID, a, e.Project.Path) {
						acc.Below = e.userBlockAt()
						g.Accept = append(g.Accept, acc)
					}
				}
			}
		}
	}
	for _, id := range allowRisk {
		g.Accept = append(g.Accept, scan.Acceptance{Rule: id, By: AllowRiskBy})
	}
	return g, nil
}

// acceptances are the gate's acceptances of a for rule: one per skill
// glob, or one for every skill.
func acceptances(rule string, a Accept, file string) []scan.Acceptance {
	by := "policy " + file
	if len(a.Skills) == 0 {
		return []scan.Acceptance{{Rule: rule, By: by}}
	}
	out := make([]scan.Acceptance, 0, len(a.Skills))
	for _, s := range a.Skills {
		out = append(out, scan.Acceptance{Rule: rule, Skill: s, By: by})
	}
	return out
}

// projectAccepts reports whether the project's acceptances count at all:
// there are some, and the user's policy does not set acceptFromProject to
// false.
func (e *Effective) projectAccepts() bool {
	if e == nil || e.Project == nil || len(e.Project.Scan.Accept) == 0 {
		return false
	}
	if e.User != nil {
		if a := e.User.Scan.AcceptFromProject; a.Set && !a.Value {
			return false
		}
	}
	return true
}

// userBlocks reports whether the user's own policy blocks the findings of
// r: at its severity by scan.blockAt, or by scan.block. The default gate
// (critical blocks) is not the user's policy.
func (e *Effective) userBlocks(r scan.Rule) bool {
	if e == nil || e.User == nil {
		return false
	}
	s := e.User.Scan
	if s.BlockAtSet && r.Severity >= s.BlockAt {
		return true
	}
	return anyMatch(s.Block, func(g string) bool { return matchName(g, r.ID) })
}

// userBlockAt is the severity the user's own policy blocks at, or Info
// (no bound) when it sets none: a project's acceptance never covers a
// finding at or above it, even of a rule whose default severity is lower.
func (e *Effective) userBlockAt() scan.Severity {
	if e == nil || e.User == nil || !e.User.Scan.BlockAtSet {
		return scan.Info
	}
	return e.User.Scan.BlockAt
}

func anyMatch(l List, match func(string) bool) bool {
	for _, p := range l.Patterns {
		if match(p.Glob) {
			return true
		}
	}
	return false
}

// globs renders a list's patterns, or "nothing" for an empty list.
func globs(l List) string {
	if len(l.Patterns) == 0 {
		return "nothing (the list is empty)"
	}
	q := make([]string, len(l.Patterns))
	for i, p := range l.Patterns {
		q[i] = fmt.Sprintf("%q", p.Glob)
	}
	return strings.Join(q, ", ")
}

// shown is a URL or path as a message shows it: a password masked.
func shown(raw string) string { return redact.URL(raw) }
