package scan

import (
	"fmt"
	"path"
)

// Gate decides which findings keep a package from being installed.
type Gate struct {
	// BlockAt is the lowest severity that blocks; DefaultGate uses
	// Critical.
	BlockAt Severity
	// Block lists rule ids (path.Match globs such as "secret-*") that
	// block at any severity.
	Block []string
	// Accept lists findings accepted despite blocking.
	Accept []Acceptance
}

// DefaultGate blocks critical findings and accepts nothing.
func DefaultGate() Gate { return Gate{BlockAt: Critical} }

// Acceptance accepts one rule for some skills.
type Acceptance struct {
	// Rule is a rule id or a path.Match glob of ids.
	Rule string `json:"rule"`
	// Skill is a skill name or glob; "" accepts the rule for every skill.
	Skill string `json:"skill,omitempty"`
	// By says who accepted it: "--allow-risk", or the policy file.
	By string `json:"by"`
	// Below, when above Info, bounds the acceptance to findings of a lower
	// severity: a project's policy accepts a rule only under the severity
	// the user's policy blocks at, whatever severity one finding of the
	// rule has.
	Below Severity `json:"below,omitempty"`
}

func (a Acceptance) covers(skill string, f Finding) bool {
	if a.Below > Info && f.Severity >= a.Below {
		return false
	}
	if ok, _ := path.Match(a.Rule, f.Rule); !ok {
		return false
	}
	if a.Skill == "" {
		return true
	}
	ok, _ := path.Match(a.Skill, skill)
	return ok
}

// Accepted is a blocking finding an Acceptance let through.
type Accepted struct {
	Finding
	By string `json:"by"`
}

// Verdict is a Gate applied to one package's report.
type Verdict struct {
	// Blocked are the findings that keep the package out.
	Blocked []Finding
	// Accepted are the findings that would block but were accepted.
	Accepted []Accepted
	// Shown are the findings below the gate: reported, not blocking.
	Shown []Finding
}

// OK reports whether nothing blocks.
func (v Verdict) OK() bool { return len(v.Blocked) == 0 }

// Judge sorts the report's findings for the skill into blocked, accepted
// and shown. The first acceptance that covers a blocking finding is the one
// recorded.
func (g Gate) Judge(skill string, r Report) Verdict {
	var v Verdict
	for _, f := range r.Findings {
		if !g.blocks(f) {
			v.Shown = append(v.Shown, f)
			continue
		}
		accepted := false
		for _, a := range g.Accept {
			if a.covers(skill, f) {
				v.Accepted = append(v.Accepted, Accepted{Finding: f, By: a.By})
				accepted = true
				break
			}
		}
		if !accepted {
			v.Blocked = append(v.Blocked, f)
		}
	}
	return v
}

func (g Gate) blocks(f Finding) bool {
	if f.Severity >= g.BlockAt {
		return true
	}
	for _, pat := range g.Block {
		if ok, _ := path.Match(pat, f.Rule); ok {
			return true
		}
	}
	return false
}

// CheckAccept checks rule patterns a person gives to accept findings
// (--allow-risk): each must be a rule id or a path.Match glob that matches
// at least one rule, and not "*", which would accept everything. The
// error names the first pattern that fails, so that a typo never silently
// accepts nothing.
func CheckAccept(patterns []string) error {
	for _, p := range patterns {
		if p == "*" {
			return fmt.Errorf("%q would accept every finding; name the rules you accept", p)
		}
		if !matchesRule(p) {
			return fmt.Errorf("%q names no content-scan rule", p)
		}
	}
	return nil
}

func matchesRule(pattern string) bool {
	for _, r := range rules {
		if ok, err := path.Match(pattern, r.ID); err != nil {
			return false
		} else if ok {
			return true
		}
	}
	return false
}

// RuleIDs returns every rule id, in the order of Rules.
func RuleIDs() []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	return ids
}
