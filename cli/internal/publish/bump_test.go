package publish

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/bump"
)

// TestPrepareBump publishes alpha 1.0.0 with a keyword key, then checks
// later versions against it: a removed manifest key (major) refuses a
// patch step with the report attached, --accept-bump lets it through with
// a warning, a major step passes, and changed text alone is a warning.
func TestPrepareBump(t *testing.T) {
	ctx := context.Background()
	root, src := t.TempDir(), t.TempDir()
	publishTo(t, root, writePkg(t, src, pkgSpec{name: "alpha", version: "1.0.0", body: "One.", extra: "capabilities: [reads-source]\n"}))
	target := FolderTarget{Root: root}
	for _, tc := range []struct {
		name, version, body, extra string
		accept                     bool
		code, warning, recomm      string
	}{
		{"too small", "1.0.1", "One.", "", false, CodePublishBumpTooSmall, "", "major"},
		{"accepted", "1.0.1", "One.", "", true, "", "published anyway (--accept-bump)", "major"},
		{"major step", "2.0.0", "One.", "", false, "", "", "major"},
		{"text only", "1.0.1", "Two.", "capabilities: [reads-source]\n", false, "", "may be too small", bump.Undetermined},
		{"text, major step", "2.0.0", "Two.", "capabilities: [reads-source]\n", false, "", "", bump.Undetermined},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: tc.version, body: tc.body, extra: tc.extra})
			plan, err := Prepare(ctx, dir, target, Options{Bump: &BumpCheck{Accept: tc.accept}})
			if tc.code != "" {
				var be *BumpError
				if !errors.As(err, &be) || askerr.CodeOf(err) != tc.code || be.Report == nil || be.Report.Recommendation != tc.recomm {
					t.Fatalf("Prepare(%s) = %v, want a *BumpError %s with a %s report", tc.version, err, tc.code, tc.recomm)
				}
				return
			}
			if err != nil {
				t.Fatalf("Prepare(%s) = %v, want a plan", tc.version, err)
			}
			if plan.Bump == nil || plan.Bump.Recommendation != tc.recomm {
				t.Fatalf("Prepare(%s) bump = %+v, want recommendation %s", tc.version, plan.Bump, tc.recomm)
			}
			warned := strings.Join(plan.Warnings, "\n")
			if (tc.warning == "") != (warned == "") || !strings.Contains(warned, tc.warning) {
				t.Errorf("Prepare(%s) warnings = %q, want %q", tc.version, warned, tc.warning)
			}
		})
	}
}
