package gitrun

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxRefLength bounds the length of a ref name in bytes; git allows
// longer ones, but no branch or tag a skill is published under needs them.
const MaxRefLength = 255

// shellMeta are the characters a shell gives a meaning to. git allows
// most of them in ref names, but a name that carries them is never a
// branch or tag a skill is published under, and refusing them keeps such
// a name out of every command line and message.
const shellMeta = "$`;&|<>(){}'\"!"

// RefError is a ref name that cannot be used: given by a user, recorded in
// a lock file or advertised by a server.
type RefError struct {
	// Ref is the refused name, quoted with Go escapes so that it is safe
	// to print (no control characters reach a terminal).
	Ref string
	// Reason says which rule it breaks.
	Reason string
}

// Error returns "ref", the ref and why it is refused.
func (e *RefError) Error() string { return "ref " + e.Ref + " " + e.Reason }

// CheckRef reports whether name may be used as a branch, tag or commit:
// it follows `git check-ref-format --allow-onelevel` (no control
// characters, space, ~ ^ : ? * [ \, no "..", "@{", "//", no component
// starting with '.' or ending in ".lock", not "@", no leading or trailing
// '/', no trailing '.') and adds agent-skills' own rules: no leading '-'
// (it would read as an option) or '+' (a forced refspec), no shell
// metacharacters, only printable, visible UTF-8, at most MaxRefLength
// bytes. The same rules apply to a ref typed by a user and to one a server
// advertises.
func CheckRef(name string) error {
	if why := refProblem(name); why != "" {
		return &RefError{Ref: Quote(name), Reason: why}
	}
	return nil
}

// refProblem returns the rule name breaks, or "".
func refProblem(name string) string {
	switch {
	case name == "":
		return "is empty"
	case len(name) > MaxRefLength:
		return fmt.Sprintf("is longer than %d bytes", MaxRefLength)
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	case strings.HasPrefix(name, "-"):
		return "must not start with '-'"
	case strings.HasPrefix(name, "+"):
		return "must not start with '+'"
	case name == "@":
		return "must not be '@'"
	case strings.HasPrefix(name, "/"), strings.HasSuffix(name, "/"), strings.Contains(name, "//"):
		return "must not start or end with '/' or contain '//'"
	case strings.HasSuffix(name, "."):
		return "must not end with '.'"
	case strings.Contains(name, ".."):
		return "must not contain '..'"
	case strings.Contains(name, "@{"):
		return "must not contain '@{'"
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return "has a component starting with '.' or ending in '.lock'"
		}
	}
	for _, c := range name {
		switch {
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
			return "contains a control character"
		case c == ' ' || !unicode.IsGraphic(c) || unicode.Is(unicode.Cf, c) || unicode.IsSpace(c):
			return "contains a space or an invisible character"
		case strings.ContainsRune(`~^:?*[\`, c):
			return "contains a character git refuses in ref names (~ ^ : ? * [ \\)"
		case strings.ContainsRune(shellMeta, c):
			return "contains a shell metacharacter (" + shellMeta + ")"
		}
	}
	return ""
}

// IsCommitID reports whether s is a full commit id: 40 (SHA-1) or 64
// (SHA-256) lower-case hexadecimal digits, as rev-parse prints them.
func IsCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// PickDefault chooses the branch to use when a remote's HEAD names a
// branch that does not exist: main, else master, else the only branch.
// It returns "" and no error when there is no such branch (none, or
// several), and a *RefError when the branch it would choose breaks
// CheckRef: a server must not get a name of its choosing onto git's
// command line by leaving HEAD dangling.
func PickDefault(heads []string) (string, error) {
	for _, b := range []string{"main", "master"} {
		if slices.Contains(heads, b) {
			return b, nil
		}
	}
	if len(heads) != 1 {
		return "", nil
	}
	if err := CheckRef(heads[0]); err != nil {
		return "", err
	}
	return heads[0], nil
}

// ParseRefs reads `git ls-remote` output ("<oid>\t<ref>" lines) and
// returns the names under prefix (such as "refs/heads/") with the prefix
// removed, in the order listed. Names are returned as the server sent
// them; check them with CheckRef before use.
func ParseRefs(out, prefix string) []string {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		_, ref, ok := strings.Cut(strings.TrimRight(line, "\r"), "\t")
		if !ok {
			continue
		}
		if name, ok := strings.CutPrefix(ref, prefix); ok && name != "" {
			names = append(names, name)
		}
	}
	return names
}

// Quote returns s in double quotes with Go escapes for every control,
// invisible or non-UTF-8 byte, so that a name a server chose can be shown
// in a message without reaching the terminal as an escape sequence.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, w := 0, 0; i < len(s); i += w {
		r, width := utf8.DecodeRuneInString(s[i:])
		w = width
		switch {
		case r == utf8.RuneError && width == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r):
			b.WriteRune(r)
		default:
			b.WriteString(strings.Trim(strconv.QuoteRuneToASCII(r), "'"))
		}
	}
	b.WriteByte('"')
	return b.String()
}
