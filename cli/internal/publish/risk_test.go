package publish

import (
	"context"
	"errors"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/scan"
)

// TestPrepareRefusesContentRisk: a package whose content would block every
// install is not publishable, unless --allow-risk accepts the rule; the
// findings travel with the error and the plan.
func TestPrepareRefusesContentRisk(t *testing.T) {
	dir := writePkg(t, t.TempDir(), pkgSpec{name: "hidden", version: "1.0.0", body: "Review\u200b the code."})
	ctx := context.Background()

	_, err := Prepare(ctx, dir, nil, Options{})
	var re *RiskError
	if !errors.As(err, &re) || askerr.CodeOf(err) != CodeContentRisk {
		t.Fatalf("Prepare(zero-width space) = %v (code %s), want a *RiskError with %s", err, askerr.CodeOf(err), CodeContentRisk)
	}
	if len(re.Blocked) != 1 || re.Blocked[0].Rule != scan.RuleHiddenZeroWidth || re.Blocked[0].File != "SKILL.md" || len(re.Findings) != 1 {
		t.Errorf("RiskError findings = %+v, blocked %+v; want the one hidden-zero-width in SKILL.md", re.Findings, re.Blocked)
	}

	plan, err := Prepare(ctx, dir, nil, Options{AllowRisk: []string{scan.RuleHiddenZeroWidth}})
	if err != nil {
		t.Fatalf("Prepare(--allow-risk hidden-zero-width) = %v, want a plan", err)
	}
	if len(plan.Findings) != 1 || len(plan.Accepted) != 1 || plan.Accepted[0].By != "--allow-risk" {
		t.Errorf("plan findings %+v, accepted %+v; want the finding, accepted by --allow-risk", plan.Findings, plan.Accepted)
	}

	// Accepting another rule does not accept this one.
	if _, err := Prepare(ctx, dir, nil, Options{AllowRisk: []string{scan.RuleHiddenBidi}}); askerr.CodeOf(err) != CodeContentRisk {
		t.Errorf("Prepare(--allow-risk hidden-bidi) = %v, want %s", err, CodeContentRisk)
	}
	if _, err := Prepare(ctx, dir, nil, Options{AllowRisk: []string{"no-such-rule"}}); askerr.CodeOf(err) != askerr.CodeUsage {
		t.Errorf("Prepare(--allow-risk no-such-rule) = %v, want %s", err, askerr.CodeUsage)
	}

	clean := writePkg(t, t.TempDir(), pkgSpec{name: "clean", version: "1.0.0", body: "Nothing hidden."})
	if plan, err := Prepare(ctx, clean, nil, Options{}); err != nil || len(plan.Findings) != 0 {
		t.Errorf("Prepare(clean) = %+v, %v; want a plan without findings", plan, err)
	}
}
