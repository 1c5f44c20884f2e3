package validate

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Path limits checked by CheckPath.
const (
	// MaxPathLen is the longest path CheckPath accepts, in bytes; it equals
	// the format module's default path-length limit.
	MaxPathLen = 1024
	// MaxSegmentLen is the longest path segment CheckPath accepts, in
	// bytes: the file-name limit of common file systems (ext4, APFS, NTFS).
	MaxSegmentLen = 255
)

// windowsInvalid holds the characters Windows refuses in a file name,
// besides control characters and the separators.
const windowsInvalid = `<>:"|?*`

// CheckPath reports whether p is a package path that is safe to create on
// every supported system: relative, slash-separated and inside the package.
// It refuses, in this order: an empty path, invalid UTF-8, a path over
// MaxPathLen bytes, control characters (below 0x20, and 0x7f), UNC paths
// ("\\srv\x", "//srv/x"), absolute paths ("/x"), drive letters ("C:"),
// ".." segments anywhere, backslashes, empty segments ("a//b"), "."
// segments, segments over MaxSegmentLen bytes, the characters <>:"|?*,
// segments ending in a dot or a space, and Windows reserved device names
// (CON, PRN, AUX, NUL, COM1-9, LPT1-9, CONIN$, CONOUT$; case-insensitive,
// also with an extension such as "nul.txt"). One trailing "/" is allowed:
// it marks a directory entry such as "references/".
//
// The registry's archive extractor reuses CheckPath for every entry name.
// It returns nil or a *Problem with code ASK_FILES_UNSAFE_PATH naming the
// first rule broken.
func CheckPath(p string) error {
	if reason := pathReason(p); reason != "" {
		return &Problem{
			Code:    "ASK_FILES_UNSAFE_PATH",
			Message: fmt.Sprintf("path %q %s", p, reason),
			Fix:     "use a relative path inside the package with forward slashes and portable names, such as references/guide.md",
		}
	}
	return nil
}

// pathReason returns why p is unsafe, or "" when it is safe.
func pathReason(p string) string {
	switch {
	case p == "":
		return "is empty"
	case !utf8.ValidString(p):
		return "is not valid UTF-8"
	case len(p) > MaxPathLen:
		return fmt.Sprintf("is %d bytes; the limit is %d", len(p), MaxPathLen)
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f {
			return fmt.Sprintf("contains the control character %#02x at byte %d", c, i)
		}
	}
	switch {
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") ||
		strings.HasPrefix(p, `/\`) || strings.HasPrefix(p, `\/`):
		return "is a UNC network path"
	case p[0] == '/' || p[0] == '\\':
		return "is absolute"
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return fmt.Sprintf("starts with the drive letter %q", p[:2])
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return `escapes the package with a ".." segment`
		}
	}
	if strings.Contains(p, `\`) {
		return "contains a backslash; use forward slashes"
	}
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		if r := segmentReason(seg); r != "" {
			return r
		}
	}
	return ""
}

// segmentReason returns why one path segment is unsafe, or "".
func segmentReason(seg string) string {
	switch {
	case seg == "":
		return `has an empty segment ("//")`
	case seg == ".":
		return `has a "." segment`
	case len(seg) > MaxSegmentLen:
		return fmt.Sprintf("has a segment of %d bytes; the limit is %d", len(seg), MaxSegmentLen)
	}
	if i := strings.IndexAny(seg, windowsInvalid); i >= 0 {
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
// before the first dot, with trailing spaces removed, compared
// case-insensitively.
func isReservedName(seg string) bool {
	base, _, _ := strings.Cut(seg, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// CheckFiles checks every entry of a files list with CheckPath and reports
// duplicates (code ASK_FILES_DUPLICATE): the same path twice, "dir" and
// "dir/", or two paths that differ only in case, which would overwrite each
// other on case-insensitive file systems. Problems come in list order, each
// with its field path "files[i]".
func CheckFiles(files []string) []FieldProblem {
	var out []FieldProblem
	seen := make(map[string]int, len(files))
	folded := make(map[string]int, len(files))
	for i, f := range files {
		if err := CheckPath(f); err != nil {
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: err.(*Problem)})
			continue
		}
		key := strings.TrimSuffix(f, "/")
		if j, ok := seen[key]; ok {
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: &Problem{
				Code:    "ASK_FILES_DUPLICATE",
				Message: fmt.Sprintf("files entry %q repeats files[%d] (%q)", f, j, files[j]),
				Fix:     "remove the repeated entry",
			}})
			continue
		}
		seen[key] = i
		low := strings.ToLower(key)
		if j, ok := folded[low]; ok {
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: &Problem{
				Code:    "ASK_FILES_DUPLICATE",
				Message: fmt.Sprintf("files entry %q differs only in case from files[%d] (%q); case-insensitive file systems would merge them", f, j, files[j]),
				Fix:     "rename one of the two so that the names differ by more than case",
			}})
			continue
		}
		folded[low] = i
	}
	return out
}
