package resolve

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// version is a published strict semantic version, parsed without
// allocating: the resolver sorts every version of every name it meets but
// checks ranges against only a few of them.
type version struct {
	major, minor, patch uint64
	raw                 string // the text as published
	preStart, preEnd    uint16 // raw[preStart:preEnd] is the prerelease
	deprecated          bool
}

// prerelease returns the prerelease identifiers, without the "-".
func (v version) prerelease() string { return v.raw[v.preStart:v.preEnd] }

// parseVersion parses a strict SemVer 2.0.0 version: MAJOR.MINOR.PATCH
// with an optional -prerelease and +build, no "v" prefix, no leading
// zeros, and at most semver.MaxVersionLen bytes — exactly what
// semver.StrictNewVersion accepts.
func parseVersion(s string) (version, bool) {
	if len(s) > semver.MaxVersionLen {
		return version{}, false
	}
	v := version{raw: s}
	rest := s
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		if !validIdents(rest[i+1:], false) {
			return version{}, false
		}
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		v.preStart, v.preEnd = uint16(i+1), uint16(len(rest))
		if !validIdents(v.prerelease(), true) {
			return version{}, false
		}
		rest = rest[:i]
	}
	var ok bool
	nums := [3]*uint64{&v.major, &v.minor, &v.patch}
	for k, p := range nums {
		part := rest
		if k < 2 {
			i := strings.IndexByte(rest, '.')
			if i < 0 {
				return version{}, false
			}
			part, rest = rest[:i], rest[i+1:]
		}
		if *p, ok = parseNumber(part); !ok {
			return version{}, false
		}
	}
	return v, true
}

// parseNumber parses a numeric identifier without leading zeros.
func parseNumber(s string) (uint64, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// validIdents checks dot-separated identifiers of [0-9A-Za-z-]; numeric
// prerelease identifiers may not have leading zeros.
func validIdents(s string, pre bool) bool {
	if s == "" {
		return false
	}
	for id := range strings.SplitSeq(s, ".") {
		if id == "" {
			return false
		}
		numeric := true
		for i := 0; i < len(id); i++ {
			c := id[i]
			switch {
			case '0' <= c && c <= '9':
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '-':
				numeric = false
			default:
				return false
			}
		}
		if pre && numeric && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

// compareVersions orders versions by SemVer precedence, ignoring build
// metadata.
func compareVersions(a, b version) int {
	if c := cmp.Or(cmp.Compare(a.major, b.major), cmp.Compare(a.minor, b.minor), cmp.Compare(a.patch, b.patch)); c != 0 {
		return c
	}
	ap, bp := a.prerelease(), b.prerelease()
	switch {
	case ap == bp:
		return 0
	case ap == "":
		return 1
	case bp == "":
		return -1
	}
	as, bs := strings.Split(ap, "."), strings.Split(bp, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		an, aerr := strconv.ParseUint(as[i], 10, 64)
		bn, berr := strconv.ParseUint(bs[i], 10, 64)
		var c int
		switch {
		case aerr == nil && berr == nil:
			c = cmp.Compare(an, bn)
		case aerr == nil:
			c = -1
		case berr == nil:
			c = 1
		default:
			c = strings.Compare(as[i], bs[i])
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(as), len(bs))
}

// semverOf builds the Masterminds form of v, which ranges are checked
// against.
func semverOf(v version) *semver.Version {
	meta := ""
	if i := strings.IndexByte(v.raw, '+'); i >= 0 {
		meta = v.raw[i+1:]
	}
	return semver.New(v.major, v.minor, v.patch, v.prerelease(), meta)
}
