package bump

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/Masterminds/semver/v3"
)

// RangeChange is how a dependency range changed.
type RangeChange string

// The range comparisons.
const (
	RangeSame       RangeChange = "same"       // the same text
	RangeEquivalent RangeChange = "equivalent" // other text, the same versions allowed
	RangeNarrowed   RangeChange = "narrowed"   // some version allowed before is not now
	RangeWidened    RangeChange = "widened"    // more versions allowed, none fewer
	RangeUnknown    RangeChange = "unknown"    // a range cannot be read
)

// CompareRanges compares two semver ranges (Masterminds syntax, as
// skill.yaml writes them) and returns how after differs from before, with
// a witness version: one before allowed and after does not (narrowed), or
// the reverse (widened).
//
// It decides by probing: every version number the two ranges name, and
// its neighbours (the next and previous patch, minor and major), is
// checked against both. Any boundary a range can have lies at such a
// version or just beside it, so two ranges that agree on every probe
// allow the same release versions. Prereleases are not probed. A range
// that both narrows and widens is narrowed: what matters is the version
// that stopped being allowed.
func CompareRanges(before, after string) (RangeChange, string) {
	if before == after {
		return RangeSame, ""
	}
	cb, err1 := semver.NewConstraint(orAny(before))
	ca, err2 := semver.NewConstraint(orAny(after))
	if err1 != nil || err2 != nil {
		return RangeUnknown, ""
	}
	var widened string
	for _, v := range probes(before, after) {
		b, a := cb.Check(v), ca.Check(v)
		if b && !a {
			return RangeNarrowed, v.String()
		}
		if a && !b && widened == "" {
			widened = v.String()
		}
	}
	if widened != "" {
		return RangeWidened, widened
	}
	return RangeEquivalent, ""
}

// orAny reads an empty range as any version, as the manifest does.
func orAny(r string) string {
	if r == "" {
		return "*"
	}
	return r
}

var versionLike = regexp.MustCompile(`\d+(?:\.\d+)?(?:\.\d+)?`)

// probeMax stands for "the highest" minor or patch below a boundary.
const probeMax = 999999

// probes returns the versions to check two ranges at, sorted.
func probes(ranges ...string) []*semver.Version {
	seen := map[string]bool{}
	var out []*semver.Version
	add := func(ma, mi, pa int64) {
		if ma < 0 || mi < 0 || pa < 0 {
			return
		}
		s := fmt.Sprintf("%d.%d.%d", ma, mi, pa)
		if !seen[s] {
			seen[s] = true
			out = append(out, semver.MustParse(s))
		}
	}
	add(0, 0, 0)
	add(probeMax, 0, 0)
	for _, r := range ranges {
		for _, m := range versionLike.FindAllString(r, -1) {
			var n [3]int64
			for i, part := range splitDots(m) {
				v, err := strconv.ParseInt(part, 10, 64)
				if err != nil || v > probeMax {
					v = probeMax
				}
				n[i] = v
			}
			ma, mi, pa := n[0], n[1], n[2]
			add(ma, mi, pa)
			add(ma, mi, pa+1)
			add(ma, mi+1, 0)
			add(ma+1, 0, 0)
			add(ma, mi, pa-1)
			add(ma, mi-1, probeMax)
			add(ma-1, probeMax, probeMax)
			add(ma, mi+1, probeMax)
		}
	}
	slices.SortFunc(out, func(a, b *semver.Version) int { return a.Compare(b) })
	return out
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// VersionBump returns the category the step from version before to
// version after expresses, as caret ranges read it: a new major (or, below
// 1.0.0, a new minor; below 0.1.0, any new version) is major, a new minor
// is minor, anything else patch. ok is false when either is not a
// version, or after is not above before.
func VersionBump(before, after string) (Category, bool) {
	b, err1 := semver.StrictNewVersion(before)
	a, err2 := semver.StrictNewVersion(after)
	if err1 != nil || err2 != nil || !a.GreaterThan(b) {
		return "", false
	}
	switch {
	case a.Major() != b.Major():
		return Major, true
	case b.Major() == 0 && a.Minor() != b.Minor():
		return Major, true
	case b.Major() == 0 && b.Minor() == 0 && a.Patch() != b.Patch():
		return Major, true
	case b.Major() == 0:
		// 0.y.z: y is the major, z the minor and the patch.
		return Minor, true
	case a.Minor() != b.Minor():
		return Minor, true
	}
	return Patch, true
}
