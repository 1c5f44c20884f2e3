package validate

import (
	"strings"
	"testing"
)

func TestCheckVersion(t *testing.T) {
	tests := []struct {
		v    string
		want string // substring of the message; "" means valid
	}{
		{"1.0.0", ""},
		{"0.0.1", ""},
		{"10.20.30", ""},
		{"1.0.0-alpha.1", ""},
		{"1.0.0+build.5", ""},
		{"1.0.0-rc.1+sha.abc", ""},
		{"", "version is empty"},
		{"^1.0.0", "version must be an exact version, ranges belong in dependencies"},
		{">=1", "version must be an exact version, ranges belong in dependencies"},
		{"~1.2.3", "ranges belong in dependencies"},
		{"1.x", "ranges belong in dependencies"},
		{"1.0.0 || 2.0.0", "ranges belong in dependencies"},
		{"*", "ranges belong in dependencies"},
		{"1.0.0 - 2.0.0", "ranges belong in dependencies"},
		{"v1.0.0", `starts with "v"`},
		{"1.0", "has 2 numeric parts; strict semver needs MAJOR.MINOR.PATCH"},
		{"1", "has 1 numeric parts"},
		{"one", "is not a strict semantic version"},
		{"1.0.0.0", "has 4 numeric parts"},
		{"01.0.0", "leading zero"},
		{"1.0.0-", "invalid pre-release"},
		{"1.0.0+", "invalid build metadata"},
		{" 1.0.0", "leading or trailing spaces"},
		{"1.0.a", "is not a strict semantic version"},
	}
	for _, tt := range tests {
		err := CheckVersion(tt.v)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckVersion(%q) = %v, want nil", tt.v, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckVersion(%q) = %v, want message containing %q", tt.v, err, tt.want)
			continue
		}
		if p := err.(*Problem); p.Code != "ASK_VERSION_INVALID" || p.Fix == "" {
			t.Errorf("CheckVersion(%q) = %+v, want ASK_VERSION_INVALID with a fix", tt.v, p)
		}
	}
}

func TestCheckVersionFixProposesVersion(t *testing.T) {
	tests := []struct{ v, want string }{
		{"v1.2.3", `"1.2.3"`},
		{"1.0", `"1.0.0"`},
		{"^2.1.0", `"2.1.0"`},
	}
	for _, tt := range tests {
		err := CheckVersion(tt.v)
		if err == nil || !strings.Contains(err.(*Problem).Fix, tt.want) {
			t.Errorf("CheckVersion(%q) fix = %v, want it to propose %s", tt.v, err, tt.want)
		}
	}
}

func TestCheckRange(t *testing.T) {
	tests := []struct {
		r     string
		valid bool
	}{
		{"^1.2.0", true},
		{"~1.1", true},
		{">=1.0.0 <2.0.0", true},
		{"1.x", true},
		{"*", true},
		{"1.2.3", true},
		{"^1.0.0 || ^2.0.0", true},
		{"", false},
		{"  ", false},
		{"latest", false},
		{"^1.0.0.0", false},
		{">>1", false},
	}
	for _, tt := range tests {
		err := CheckRange(tt.r)
		if (err == nil) != tt.valid {
			t.Errorf("CheckRange(%q) = %v, want valid=%v", tt.r, err, tt.valid)
		}
		if err != nil && err.(*Problem).Code != "ASK_DEPENDENCY_INVALID" {
			t.Errorf("CheckRange(%q) code = %s, want ASK_DEPENDENCY_INVALID", tt.r, err.(*Problem).Code)
		}
	}
}
