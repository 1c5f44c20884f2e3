package resolve

import (
	"testing"

	"github.com/Masterminds/semver/v3"
)

var versionSeeds = []string{
	"1.0.0", "0.0.1", "1.2.3-alpha", "1.2.3-alpha.1", "1.2.3-alpha.beta", "1.2.3-beta.2", "1.2.3-beta.11",
	"1.2.3-rc.1", "1.2.3+build.5", "1.2.3-0", "10.20.30", "01.2.3", "1.2", "v1.2.3", "1.2.3-", "1.2.3-01",
	"1.2.3-a..b", "1.2.3+", "18446744073709551615.0.0", "1.2.3-x-y.z", "",
}

// TestParseVersionMatchesMasterminds checks that the allocation-free
// parser accepts exactly the versions Masterminds' strict parser accepts,
// and orders them the same way.
func TestParseVersionMatchesMasterminds(t *testing.T) {
	for _, a := range versionSeeds {
		checkVersionAgainstMasterminds(t, a)
		for _, b := range versionSeeds {
			checkCompareAgainstMasterminds(t, a, b)
		}
	}
}

func checkVersionAgainstMasterminds(t *testing.T, s string) {
	t.Helper()
	v, ok := parseVersion(s)
	mv, err := semver.StrictNewVersion(s)
	if ok != (err == nil) {
		t.Fatalf("parseVersion(%q) ok = %v, Masterminds err = %v", s, ok, err)
	}
	if ok && !semverOf(v).Equal(mv) {
		t.Fatalf("semverOf(parseVersion(%q)) = %v, want %v", s, semverOf(v), mv)
	}
}

func checkCompareAgainstMasterminds(t *testing.T, a, b string) {
	t.Helper()
	va, oka := parseVersion(a)
	vb, okb := parseVersion(b)
	if !oka || !okb {
		return
	}
	want := semver.MustParse(a).Compare(semver.MustParse(b))
	if got := compareVersions(va, vb); got != want {
		t.Fatalf("compareVersions(%q, %q) = %d, want %d", a, b, got, want)
	}
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range versionSeeds {
		f.Add(s, "1.2.3-beta.1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkVersionAgainstMasterminds(t, a)
		checkVersionAgainstMasterminds(t, b)
		checkCompareAgainstMasterminds(t, a, b)
	})
}
