package format

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file holds the one rule set for package paths. A package is written
// on Linux, macOS and Windows, onto case-sensitive and case-insensitive,
// normalising and non-normalising file systems alike; a path that one of
// them cannot create, or would create as the same file as another path, must
// be refused before anything is written. Load, validate's `files` check, the
// registry's archive extractor and index decoder, the source copier and the
// agents' layout check all call these functions, so that no reader can
// accept what another refuses.

// MaxSegmentLength is the longest file or folder name (one path segment) a
// portable path may have, in bytes: the name limit of ext4, APFS and NTFS.
const MaxSegmentLength = 255

// windowsForbidden holds the characters Windows refuses in a file name,
// besides control characters and the two separators.
const windowsForbidden = `<>:"|?*`

// PathError reports one package path that is unsafe or not portable.
type PathError struct {
	// Path is the offending path, as it was given.
	Path string
	// Rule is the rule the path breaks, a phrase that reads after the
	// quoted path: `"a/aux.md" has the segment "aux.md", a reserved
	// device name on Windows`.
	Rule string
	// Other is the path Path collides with, for a collision; "" otherwise.
	Other string
	// Escapes reports a path that is absolute or leaves the package with a
	// ".." segment: unsafe on every system, not merely unportable.
	Escapes bool
}

// Error returns the quoted path followed by the rule.
func (e *PathError) Error() string { return fmt.Sprintf("%q %s", e.Path, e.Rule) }

// CheckPath reports whether p, a slash-separated package-relative file
// path, can be created as itself on every supported system. It returns nil
// or a *PathError naming the first rule broken, in this order: an empty
// path, invalid UTF-8, a path over DefaultMaxPathLength bytes, a control
// character (below 0x20, and 0x7f), a UNC path ("//srv/x", `\\srv\x`), an
// absolute path, a drive letter ("C:"), a ".." segment anywhere (also
// between backslashes), a backslash, an empty or "." segment, a segment
// over MaxSegmentLength bytes, one of the characters <>:"|?*, a segment ending
// in a dot or a space (Windows strips both), and a device name Windows
// reserves — CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9, COM¹-COM³,
// LPT¹-LPT³, CONIN$ and CONOUT$ — in any case, also with an extension
// ("nul.txt", "Com1.tar.gz") or trailing spaces ("CON .md").
//
// Collisions between paths need the whole set: see CheckPaths.
func CheckPath(p string) error { return checkPath(p, false) }

// CheckEntryPath is CheckPath for an entry of a manifest's `files` list,
// where one trailing "/" marks a folder ("references/").
func CheckEntryPath(p string) error { return checkPath(p, true) }

// checkPath applies the rules of CheckPath; folder allows one trailing "/".
func checkPath(p string, folder bool) error {
	fail := func(escapes bool, format string, args ...any) error {
		return &PathError{Path: p, Rule: fmt.Sprintf(format, args...), Escapes: escapes}
	}
	switch {
	case p == "":
		return fail(false, "is empty")
	case !utf8.ValidString(p):
		return fail(false, "is not valid UTF-8")
	case len(p) > DefaultMaxPathLength:
		return fail(false, "is %d bytes; the limit is %d", len(p), DefaultMaxPathLength)
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f {
			return fail(false, "contains the control character %#02x at byte %d", c, i)
		}
	}
	switch {
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") ||
		strings.HasPrefix(p, `/\`) || strings.HasPrefix(p, `\/`):
		return fail(true, "is a UNC network path")
	case p[0] == '/' || p[0] == '\\':
		return fail(true, "is absolute")
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return fail(true, "starts with the drive letter %q", p[:2])
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return fail(true, `escapes the package with a ".." segment`)
		}
	}
	if strings.Contains(p, `\`) {
		return fail(false, "contains a backslash; use forward slashes")
	}
	if folder && len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	for _, seg := range strings.Split(p, "/") {
		if rule := segmentRule(seg); rule != "" {
			return fail(false, "%s", rule)
		}
	}
	return nil
}

// segmentRule returns the rule one path segment breaks, or "".
func segmentRule(seg string) string {
	switch {
	case seg == "":
		return `has an empty segment ("//")`
	case seg == ".":
		return `has a "." segment`
	case len(seg) > MaxSegmentLength:
		return fmt.Sprintf("has a segment of %d bytes; the limit is %d", len(seg), MaxSegmentLength)
	}
	if i := strings.IndexAny(seg, windowsForbidden); i >= 0 {
		return fmt.Sprintf("contains %q, which Windows does not allow in file names", seg[i])
	}
	switch seg[len(seg)-1] {
	case '.':
		return fmt.Sprintf("has the segment %q ending in a dot, which Windows strips", seg)
	case ' ':
		return fmt.Sprintf("has the segment %q ending in a space, which Windows strips", seg)
	}
	if isReservedName(seg) {
		return fmt.Sprintf("has the segment %q, a reserved device name on Windows", seg)
	}
	return ""
}

// isReservedName reports whether seg names a Windows device: the part
// before the first dot, without trailing spaces, compared
// case-insensitively. Windows reserves COM and LPT with the digits 0-9 and
// the superscript digits ¹, ² and ³ (which it reads as 1, 2 and 3).
func isReservedName(seg string) bool {
	base, _, _ := strings.Cut(seg, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) > 3 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// FoldPath returns the key under which a case-insensitive or
// normalisation-insensitive file system (Windows, macOS) stores p: two
// paths with the same FoldPath are one file there. It folds Unicode case
// (as strings.EqualFold does, not just ASCII) and canonical equivalence
// (NFC and NFD spellings of "café" are one name).
func FoldPath(p string) string {
	return norm.NFD.String(toFold(norm.NFD.String(p)))
}

// toFold maps every rune of s to the smallest rune of its case-folding
// orbit, so that strings.EqualFold(s, t) iff toFold(s) == toFold(t); it is
// the function golang.org/x/mod/zip uses for the same check.
// strings.ToLower does not have that property in a few corner cases (the
// Kelvin sign, the long s).
func toFold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		for {
			r0 := r
			r = unicode.SimpleFold(r0)
			if r <= r0 {
				break
			}
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CheckPaths checks a set of package file paths — the files one package
// writes — and returns every problem, sorted by path, at most one per
// path: the rules of CheckPath, then collisions, where a path names the
// same file or folder as an earlier one (in sorted order) on a
// case-insensitive or normalising file system ("A.md" and "a.md"; "café"
// in NFC and in NFD; "Docs/x" and "docs/y"), a path is also a folder of
// another ("a" and "a/b"), or a path appears twice.
func CheckPaths(paths []string) []*PathError {
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	var out []*PathError
	var set PathSet
	for _, p := range sorted {
		if err := CheckPath(p); err != nil {
			out = append(out, err.(*PathError))
			continue
		}
		if err := set.Add(p, false); err != nil {
			out = append(out, err.(*PathError))
		}
	}
	return out
}

// PathSet collects the paths of one package and refuses each that would
// collide with one already added, for callers that see paths one at a
// time, such as an archive's entries. CheckPaths uses it for a whole set.
// The zero value is an empty set.
type PathSet struct {
	seen map[string]pathEntry // FoldPath → the first path with that key
}

// pathEntry is a path claimed in a PathSet.
type pathEntry struct {
	path   string
	folder bool
}

// Add adds p, a file or (folder) a folder, and its parent folders to the
// set. It returns nil, or a *PathError on p when p or one of its parents
// names the same file or folder as a path already added on a
// case-insensitive or normalising file system (Other is that path), makes
// a path both a file and a folder, or repeats a file. Add does not apply
// CheckPath's rules; call it for paths that passed them.
func (s *PathSet) Add(p string, folder bool) error {
	if s.seen == nil {
		s.seen = map[string]pathEntry{}
	}
	elems := strings.Split(p, "/")
	for i := range elems {
		sub := strings.Join(elems[:i+1], "/")
		isFolder := folder || i < len(elems)-1
		key := FoldPath(sub)
		prev, ok := s.seen[key]
		if !ok {
			s.seen[key] = pathEntry{sub, isFolder}
			continue
		}
		switch {
		case prev.path != sub:
			return &PathError{Path: p, Other: prev.path, Rule: collisionRule(p, sub, prev.path, isFolder)}
		case prev.folder != isFolder:
			return &PathError{Path: p, Other: prev.path, Rule: fmt.Sprintf("makes %q both a file and a folder", sub)}
		case !isFolder:
			return &PathError{Path: p, Rule: "appears twice"}
		}
	}
	return nil
}

// collisionRule words the collision of p, through its prefix sub, with the
// earlier path other.
func collisionRule(p, sub, other string, folder bool) string {
	// The two spellings of a normalisation pair print alike, so such a
	// message also shows both escaped.
	how := fmt.Sprintf("differs only in case from %q", other)
	if norm.NFD.String(sub) == norm.NFD.String(other) {
		how = fmt.Sprintf("is, in another Unicode normalisation (NFC/NFD), the same name as %q (%+q and %+q)", other, sub, other)
	} else if !strings.EqualFold(sub, other) {
		how = fmt.Sprintf("differs only in case and Unicode normalisation from %q (%+q and %+q)", other, sub, other)
	}
	what := "file"
	if folder {
		what = "folder"
	}
	if sub == p {
		return fmt.Sprintf("%s; Windows and macOS would make them one %s", how, what)
	}
	return fmt.Sprintf("is in the folder %q, which %s; Windows and macOS would make them one %s", sub, how, what)
}
