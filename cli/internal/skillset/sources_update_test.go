package skillset

import (
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestNewestTag(t *testing.T) {
	// Tags come newest first, as source.Tags lists them.
	tags := []string{"v2.1.0", "2.0.5", "v2.0.0", "v1.9.0", "v1.4.0-rc.1", "v1.3.0", "junk", "v0.9.0"}
	tests := []struct {
		name    string
		tags    []string
		current string
		major   bool
		want    string
	}{
		{"within the major", tags, "v1.2.0", false, "v1.9.0"},
		{"within the major, no v", tags, "2.0.0", false, "v2.1.0"},
		{"across majors with --major", tags, "v1.2.0", true, "v2.1.0"},
		{"already the newest", tags, "v2.1.0", false, "v2.1.0"},
		{"nothing newer within the major", []string{"v2.0.0", "v1.0.0"}, "v1.0.0", false, "v1.0.0"},
		{"only older tags", []string{"v0.9.0", "v0.8.0"}, "v1.0.0", true, "v1.0.0"},
		{"a prerelease below the current release is older", []string{"v1.4.0-rc.1", "v1.3.0"}, "v1.4.0", false, "v1.4.0"},
		{"from a prerelease", []string{"v1.4.0", "v1.4.0-rc.2", "v1.4.0-rc.1"}, "v1.4.0-rc.1", false, "v1.4.0"},
		{"unparsable tags are skipped", []string{"latest", "v1.x", "v1.1.0"}, "v1.0.0", false, "v1.1.0"},
		{"an unparsable current stays", tags, "main", true, "main"},
		{"no tags", nil, "v1.0.0", true, "v1.0.0"},
	}
	for _, tt := range tests {
		if got := newestTag(tt.tags, tt.current, tt.major); got != tt.want {
			t.Errorf("newestTag(%q, major=%v) [%s] = %q, want %q", tt.current, tt.major, tt.name, got, tt.want)
		}
	}
}

func TestSemverTag(t *testing.T) {
	tests := []struct {
		ref  string
		want bool
	}{
		{"v1.2.3", true}, {"1.2.3", true}, {"v1.2.3-rc.1", true}, {"", false}, {"main", false},
		{"v1.2", false}, {"release-1.2.3", false}, {"v1.2.3+build", false},
	}
	for _, tt := range tests {
		if got := semverTag.MatchString(tt.ref); got != tt.want {
			t.Errorf("semverTag.MatchString(%q) = %v, want %v", tt.ref, got, tt.want)
		}
	}
}

func TestDiagLines(t *testing.T) {
	ds := format.Diagnostics{
		{File: "SKILL.md", Severity: format.SeverityError, Code: "ASK_LINK_OUTSIDE_PACKAGE", Message: "leaves"},
		{File: "SKILL.md", Severity: format.SeverityWarning, Code: "ASK_LINK_BROKEN", Message: "broken"},
	}
	got := diagLines(ds)
	if want := []string{ds[0].String()}; !slices.Equal(got, want) {
		t.Errorf("diagLines(%v) = %q, want %q (errors only)", ds, got, want)
	}
	if got := errorsOnly(ds); len(got) != 1 || got[0].Code != "ASK_LINK_OUTSIDE_PACKAGE" {
		t.Errorf("errorsOnly(%v) = %v, want the error only", ds, got)
	}
}

// TestNewestTagSkipsPrereleases: update of a skill installed from a
// release tag must not move it to a prerelease tag, as the resolver never
// picks a prerelease for a range that names none (resolve/doc.go) and a
// registry's latest is its newest release (docs/registry.md). From a
// prerelease tag, newer prereleases are fair, as they are for
// ^1.4.0-rc.1.
func TestNewestTagSkipsPrereleases(t *testing.T) {
	tests := []struct {
		name    string
		tags    []string
		current string
		major   bool
		want    string
	}{
		{"a prerelease of the next minor", []string{"v1.5.0-rc.1", "v1.4.0"}, "v1.4.0", false, "v1.4.0"},
		{"a prerelease of the next major with --major", []string{"v3.0.0-beta.1", "v2.1.0", "v1.2.0"}, "v1.2.0", true, "v2.1.0"},
		{"only prereleases newer", []string{"v1.3.0-rc.2", "v1.3.0-rc.1", "v1.2.0"}, "v1.2.0", false, "v1.2.0"},
		{"from a prerelease to a newer one", []string{"v1.4.0-rc.2", "v1.4.0-rc.1"}, "v1.4.0-rc.1", false, "v1.4.0-rc.2"},
	}
	for _, tt := range tests {
		if got := newestTag(tt.tags, tt.current, tt.major); got != tt.want {
			t.Errorf("newestTag(%q, major=%v) [%s] = %q, want %q", tt.current, tt.major, tt.name, got, tt.want)
		}
	}
}
