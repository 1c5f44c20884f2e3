package cli

import (
	"testing"
	"time"
)

// TestEvidencePeriod checks that the period flags give whole UTC days,
// today included, and that contradictions and bad values are usage errors.
func TestEvidencePeriod(t *testing.T) {
	now := time.Date(2026, 12, 3, 14, 30, 0, 0, time.UTC)
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tc := range []struct {
		name     string
		p        evidencePeriod
		from, to string
		err      bool
	}{
		{"default 30 days", evidencePeriod{}, "2026-11-04", "2026-12-04", false},
		{"since 1d is today", evidencePeriod{Since: "1d"}, "2026-12-03", "2026-12-04", false},
		{"since 7d", evidencePeriod{Since: "7d"}, "2026-11-27", "2026-12-04", false},
		{"from to", evidencePeriod{From: "2026-11-01", To: "2026-11-30"}, "2026-11-01", "2026-12-01", false},
		{"from alone ends today", evidencePeriod{From: "2026-12-01"}, "2026-12-01", "2026-12-04", false},
		{"one day", evidencePeriod{From: "2026-11-01", To: "2026-11-01"}, "2026-11-01", "2026-11-02", false},
		{"since and from", evidencePeriod{Since: "7d", From: "2026-11-01"}, "", "", true},
		{"from after to", evidencePeriod{From: "2026-11-02", To: "2026-11-01"}, "", "", true},
		{"zero days", evidencePeriod{Since: "0d"}, "", "", true},
		{"no unit", evidencePeriod{Since: "7"}, "", "", true},
		{"too long", evidencePeriod{Since: "99999d"}, "", "", true},
		{"bad date", evidencePeriod{From: "yesterday"}, "", "", true},
		{"too long range", evidencePeriod{From: "2000-01-01", To: "2026-01-01"}, "", "", true},
	} {
		got, err := tc.p.period(now)
		if tc.err {
			if err == nil {
				t.Errorf("%s: period = %v, want an error", tc.name, got)
			}
			continue
		}
		if err != nil || !got.From.Equal(day(tc.from)) || !got.To.Equal(day(tc.to)) {
			t.Errorf("%s: period = %v, %v; want [%s, %s)", tc.name, got, err, tc.from, tc.to)
		}
	}
}

// TestEvidenceQueryBounds checks the limit, host and cutoff bounds shared
// by the commands and the MCP tools.
func TestEvidenceQueryBounds(t *testing.T) {
	now := time.Date(2026, 12, 3, 14, 30, 0, 0, time.UTC)
	p := evidencePeriod{From: "2026-11-01", To: "2026-11-30"}
	if _, err := buildEvidenceQuery(p, "", "", 0, "", now); err == nil {
		t.Error("limit 0 accepted")
	}
	if _, err := buildEvidenceQuery(p, "", "", 1001, "", now); err == nil {
		t.Error("limit 1001 accepted")
	}
	if _, err := buildEvidenceQuery(p, "", "vim", 10, "", now); err == nil {
		t.Error("host vim accepted")
	}
	if _, err := buildEvidenceQuery(p, "", "", 10, "2026-12-01", now); err == nil {
		t.Error("a cutoff after the period accepted")
	}
	q, err := buildEvidenceQuery(p, "x", "gemini", 10, "2026-11-15", now)
	if err != nil || q.Cutoff == nil || q.Cutoff.Format(time.DateOnly) != "2026-11-15" || q.Host != "gemini" || q.Skill != "x" || q.Limit != 10 {
		t.Errorf("buildEvidenceQuery = %+v, %v", q, err)
	}
}
