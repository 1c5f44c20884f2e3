package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/audit"
	"github.com/agent-skills/agent-skills/scan"
)

func TestParseFailOn(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" for nil
		code string
	}{
		{"high", "high", ""}, {"critical", "critical", ""}, {"info", "info", ""}, {"none", "", ""},
		{"High", "", askerr.CodeUsage}, {"", "", askerr.CodeUsage}, {"severe", "", askerr.CodeUsage},
	} {
		got, err := parseFailOn(c.in)
		if c.code != "" {
			if askerr.CodeOf(err) != c.code {
				t.Errorf("parseFailOn(%q) error = %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil || (got == nil) != (c.want == "") || (got != nil && got.String() != c.want) {
			t.Errorf("parseFailOn(%q) = %v, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestAuditVerdict(t *testing.T) {
	f := func(s scan.Severity) scan.Finding { return scan.Finding{Rule: "r", Severity: s, File: "SKILL.md"} }
	res := audit.Result{Packages: []audit.Package{
		{Target: audit.Target{Show: "a"}, Report: scan.Report{Findings: []scan.Finding{f(scan.Critical), f(scan.Medium)}}},
		{Target: audit.Target{Show: "b"}, Report: scan.Report{Findings: []scan.Finding{f(scan.High)}}},
		{Target: audit.Target{Show: "c"}},
	}}
	sev := func(s scan.Severity) *scan.Severity { return &s }

	err := auditVerdict(res, sev(scan.High))
	if askerr.CodeOf(err) != CodeAuditFindings || err.Error() != "2 findings at or above high in 2 of 3 packages" {
		t.Errorf("auditVerdict(high) = %v (%s)", err, askerr.CodeOf(err))
	}
	if try := strings.Join(askerr.TryOf(err), "|"); !strings.Contains(try, "--fail-on critical   fails only on the 1 at or above critical") {
		t.Errorf("auditVerdict(high) try = %q, want the --fail-on critical hint", try)
	}
	if err := auditVerdict(res, sev(scan.Medium)); err == nil || !strings.HasPrefix(err.Error(), "3 findings at or above medium") {
		t.Errorf("auditVerdict(medium) = %v", err)
	}
	if err := auditVerdict(res, nil); err != nil {
		t.Errorf("auditVerdict(none) = %v, want nil", err)
	}
	if err := auditVerdict(audit.Result{Packages: res.Packages[2:]}, sev(scan.Info)); err != nil {
		t.Errorf("auditVerdict(no findings) = %v, want nil", err)
	}
	// An unreadable package fails an audit that found nothing to fail on.
	broken := audit.Result{Packages: []audit.Package{{Target: audit.Target{Show: "d"}, Err: errors.New("scan: d/x.md: permission denied")}}}
	if err := auditVerdict(broken, sev(scan.High)); askerr.CodeOf(err) != askerr.CodeIO || !strings.Contains(err.Error(), "d") {
		t.Errorf("auditVerdict(unreadable) = %v (%s), want ASK_IO naming d", err, askerr.CodeOf(err))
	}
	if code := exitCodeOf(auditVerdict(res, sev(scan.High))); code != exitIntegrity {
		t.Errorf("exit code of ASK_AUDIT_FINDINGS = %d, want %d", code, exitIntegrity)
	}
}
