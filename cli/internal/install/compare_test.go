package install

import "testing"

// Content versions of bare skills have no order: other bytes are an
// upgrade whichever way their hashes sort, while releases and commit
// versions keep theirs.
func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want Outcome
	}{
		{"1.0.0", "1.1.0", OutcomeUpgraded},
		{"1.1.0", "1.0.0", OutcomeDowngraded},
		{"1.0.0", "1.0.0", OutcomeReinstalled},
		{"0.0.0-mcp-ef557e462463", "0.0.0-mcp-d4ecd0d1dff2", OutcomeUpgraded},
		{"0.0.0-mcp-d4ecd0d1dff2", "0.0.0-mcp-ef557e462463", OutcomeUpgraded},
		{"0.0.0-local-b1c4837b297c", "0.0.0-local-b1c4837b297c", OutcomeReinstalled},
		{"0.0.0-archive-ffffffffffff", "0.0.0-archive-000000000000", OutcomeUpgraded},
		// Commit versions are ordered by their time.
		{"0.0.0-20261203100000-abcdef123456", "0.0.0-20261201100000-abcdef123456", OutcomeDowngraded},
		// A prerelease of a real release is not a content version.
		{"1.0.0-rc-aaaaaaaaaaaa", "1.0.0-rc-000000000000", OutcomeDowngraded},
		{"2.0.0", "0.0.0-local-b1c4837b297c", OutcomeDowngraded},
	} {
		if got := compareVersions(c.a, c.b); got != c.want {
			t.Errorf("compareVersions(%q, %q) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}
