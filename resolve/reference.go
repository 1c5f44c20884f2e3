package resolve

import (
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/agent-skills/agent-skills/format"
)

// Reference is one skill a user asks for: "[registry:]name[@range]".
type Reference struct {
	// Registry, when set, restricts the lookup of Name to that registry,
	// bypassing precedence.
	Registry string
	// Name is the skill name.
	Name string
	// Range is a semver range, an exact version, "latest" or empty. Empty
	// and "latest" both mean the highest eligible version, and an empty
	// range is what lets a lock pin apply.
	Range string
}

// String renders the reference in the form ParseReference reads.
func (r Reference) String() string {
	s := r.Name
	if r.Registry != "" {
		s = r.Registry + ":" + s
	}
	if r.Range != "" {
		s += "@" + r.Range
	}
	return s
}

// Bare reports whether the reference names no range, so that a version
// locked in skills.lock applies to it.
func (r Reference) Bare() bool { return r.Range == "" }

// ParseReference parses "[registry:]name[@range]": "java-basics",
// "official:java-basics@^1.2", "java-basics@latest",
// "java-basics@>=1 <2". A malformed reference is an *Error with code
// ASK_REFERENCE_INVALID.
func ParseReference(s string) (Reference, error) {
	var ref Reference
	rest := strings.TrimSpace(s)
	if at := strings.IndexByte(rest, '@'); at >= 0 {
		ref.Range = strings.TrimSpace(rest[at+1:])
		rest = rest[:at]
		if ref.Range == "" {
			return Reference{}, referenceError(s, "the range after \"@\" is empty")
		}
	}
	if colon := strings.IndexByte(rest, ':'); colon >= 0 {
		ref.Registry = rest[:colon]
		rest = rest[colon+1:]
		if !validRegistryName(ref.Registry) {
			return Reference{}, referenceError(s, fmt.Sprintf("%q is not a valid registry name", ref.Registry))
		}
	}
	ref.Name = rest
	if reasons := format.CheckName(ref.Name); len(reasons) > 0 {
		return Reference{}, referenceError(s, fmt.Sprintf("the name %q %s", ref.Name, strings.Join(reasons, "; ")))
	}
	if ref.Range != "" {
		if _, err := parseRange(ref.Range); err != nil {
			return Reference{}, referenceError(s, fmt.Sprintf("%q is not a version or range: %v", ref.Range, err))
		}
	}
	return ref, nil
}

func referenceError(s, why string) *Error {
	return &Error{
		Code:    CodeReferenceInvalid,
		Message: fmt.Sprintf("Invalid skill reference %q: %s", s, why),
		Try: []string{
			"write [registry:]name[@range], e.g. java-basics, java-basics@^1.2 or official:java-basics@1.2.3",
		},
	}
}

// validRegistryName accepts the names registries are configured under:
// 1 to 64 characters of lowercase letters, digits, ".", "_" and "-",
// starting with a letter or digit.
func validRegistryName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case (c == '-' || c == '_' || c == '.') && i > 0:
		default:
			return false
		}
	}
	return true
}

// normRange maps the spellings of "any version" to "*".
func normRange(r string) string {
	r = strings.TrimSpace(r)
	if r == "" || r == "latest" {
		return "*"
	}
	return r
}

// parseRange parses a range with Masterminds semver, after mapping ""
// and "latest" to "*".
func parseRange(r string) (*semver.Constraints, error) {
	return semver.NewConstraint(normRange(r))
}

// exactVersion returns the version a range names exactly ("1.2.3" or
// "=1.2.3"), or "" when the range admits more than one version.
func exactVersion(r string) string {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r), "="))
	// parseVersion accepts exactly what semver.StrictNewVersion accepts,
	// without allocating; a strict version prints as it was written.
	if _, ok := parseVersion(s); !ok {
		return ""
	}
	return s
}

// Satisfies reports whether version lies in the range r (a semver range,
// an exact version, "latest" or empty; empty, "latest" and "*" admit
// every version, a pre-release too). A range or version that does not
// parse is an error.
func Satisfies(version, r string) (bool, error) {
	v, err := semver.StrictNewVersion(version)
	if err != nil {
		return false, fmt.Errorf("version %q: %w", version, err)
	}
	if normRange(r) == "*" {
		return true, nil
	}
	c, err := parseRange(r)
	if err != nil {
		return false, fmt.Errorf("range %q: %w", r, err)
	}
	return c.Check(v), nil
}
