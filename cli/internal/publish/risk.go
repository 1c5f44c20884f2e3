package publish

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// riskGate is the install gate publish applies: scan.DefaultGate, with
// each --allow-risk rule accepted for the package. Every value is a rule
// id or a glob that matches one, as install's --allow-risk takes.
func riskGate(allow []string) (scan.Gate, error) {
	if err := scan.CheckAccept(allow); err != nil {
		return scan.Gate{}, &Error{Code: askerr.CodeUsage, Message: "--allow-risk " + err.Error(),
			Detail: []string{"rules: " + strings.Join(scan.RuleIDs(), ", ")},
			Try:    []string{"--allow-risk <rule>[,<rule>…]   with ids from the findings shown, or a glob such as hidden-* (docs/security.md lists every rule)"}}
	}
	g := scan.DefaultGate()
	for _, id := range allow {
		g.Accept = append(g.Accept, scan.Acceptance{Rule: id, By: "--allow-risk"})
	}
	return g, nil
}

// checkContent scans the package, records its findings in plan, and
// refuses it when a finding would block its install.
func checkContent(pkg *format.Package, pkgDir string, gate scan.Gate, plan *Plan) error {
	rep, err := scan.Package(pkg, scan.Options{})
	if err != nil {
		return askerr.IO("cannot scan "+pkgDir, err)
	}
	v := gate.Judge(plan.Name, rep)
	plan.Findings, plan.Accepted = rep.Findings, v.Accepted
	if v.OK() {
		return nil
	}
	var rules []string
	for _, f := range v.Blocked {
		if !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	n := len(v.Blocked)
	return &RiskError{
		Err: &Error{Code: CodeContentRisk,
			Message: fmt.Sprintf("%s %s is not publishable: %d %s would block every install of it (%s)", plan.Name, plan.Version,
				n, plural(n, "finding", "findings"), strings.Join(rules, ", ")),
			Detail: []string{"Nothing was published or written. The findings are listed above."},
			Try: []string{"fix each finding as its fix line says, then publish again",
				"--allow-risk " + strings.Join(rules, ",") + "   to publish anyway: users' installs still refuse it unless they accept the same rules"}},
		Findings: rep.Findings,
		Blocked:  v.Blocked,
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
