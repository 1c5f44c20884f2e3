package cli

import "testing"

func TestFormatVersion(t *testing.T) {
	for _, tc := range []struct {
		version, commit, date string
		modified              bool
		want                  string
	}{
		{"0.2.0", "abc1234def5678", "2026-12-01T10:00:00Z", false, "0.2.0 (abc1234, 2026-12-01)"},
		{"0.2.0", "abc1234", "2026-12-01", false, "0.2.0 (abc1234, 2026-12-01)"},
		{"0.1.0-dev", "abc1234def", "2026-12-01T10:00:00Z", true, "0.1.0-dev (dev build, abc1234-dirty, 2026-12-01)"},
		{"0.1.0-dev", "", "", false, "0.1.0-dev (dev build)"},
		{"0.2.0", "", "", false, "0.2.0"},
		{"0.2.0", "abc1234-dirty", "2026-12-01", false, "0.2.0 (abc1234-dirty, 2026-12-01)"},
	} {
		if got := formatVersion(tc.version, tc.commit, tc.date, tc.modified); got != tc.want {
			t.Errorf("formatVersion(%q, %q, %q, %v) = %q, want %q", tc.version, tc.commit, tc.date, tc.modified, got, tc.want)
		}
	}
}

func TestModuleRelease(t *testing.T) {
	for in, want := range map[string]string{
		"v0.2.0":                             "0.2.0",
		"v0.0.0-20261201100000-abcdef123456": "0.0.0-20261201100000-abcdef123456",
		"(devel)":                            devVersion,
		"":                                   devVersion,
		"vnext":                              devVersion,
	} {
		if got := moduleRelease(in); got != want {
			t.Errorf("moduleRelease(%q) = %q, want %q", in, got, want)
		}
	}
}
