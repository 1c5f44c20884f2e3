package validate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// CheckVersion reports whether v is an exact, strict semantic version
// (MAJOR.MINOR.PATCH with optional -prerelease and +build, no "v" prefix, no
// leading zeros). A range such as "^1.0.0" or ">=1" gets its own message,
// because ranges belong in dependencies. It returns nil or a *Problem with
// code ASK_VERSION_INVALID.
func CheckVersion(v string) error {
	_, err := semver.StrictNewVersion(v)
	if err == nil {
		return nil
	}
	return &Problem{
		Code:    CodeVersionInvalid,
		Message: versionMessage(v, err),
		Fix:     versionFix(v),
	}
}

// versionMessage says precisely why v is not a strict version.
func versionMessage(v string, err error) string {
	t := strings.TrimSpace(v)
	switch {
	case t == "":
		return "version is empty"
	case looksLikeRange(t):
		return fmt.Sprintf("version %q is a range; version must be an exact version, ranges belong in dependencies", v)
	case t != v:
		return fmt.Sprintf("version %q has leading or trailing spaces", v)
	case t[0] == 'v' || t[0] == 'V':
		return fmt.Sprintf("version %q starts with %q; write the bare number", v, t[:1])
	}
	core := v
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	if parts := strings.Split(core, "."); len(parts) != 3 && allDigits(parts) {
		return fmt.Sprintf("version %q has %d numeric parts; strict semver needs MAJOR.MINOR.PATCH", v, len(parts))
	}
	switch {
	case errors.Is(err, semver.ErrSegmentStartsZero):
		return fmt.Sprintf("version %q has a number with a leading zero", v)
	case errors.Is(err, semver.ErrInvalidPrerelease):
		return fmt.Sprintf("version %q has an invalid pre-release part", v)
	case errors.Is(err, semver.ErrInvalidMetadata):
		return fmt.Sprintf("version %q has invalid build metadata", v)
	case errors.Is(err, semver.ErrVersionTooLong):
		return fmt.Sprintf("version is %d bytes; the limit is %d", len(v), semver.MaxVersionLen)
	}
	return fmt.Sprintf("version %q is not a strict semantic version", v)
}

// versionFix proposes a corrected version where one can be derived.
func versionFix(v string) string {
	const generic = "use an exact version such as 1.0.0 (https://semver.org)"
	t := strings.TrimSpace(v)
	t = strings.TrimLeft(t, "^~>=<v ")
	if c, err := semver.NewVersion(t); err == nil && strings.TrimSpace(v) != "" {
		return fmt.Sprintf("write %q; %s", c.String(), generic)
	}
	return generic
}

// looksLikeRange reports whether v is written like a constraint rather
// than a version: an operator, a wildcard, a hyphen range or alternatives.
func looksLikeRange(v string) bool {
	if strings.ContainsAny(v[:1], "^~><=!") || strings.Contains(v, "||") ||
		strings.Contains(v, " - ") || strings.ContainsAny(v, "*, ") {
		return true
	}
	core := v
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	for _, p := range strings.Split(core, ".") {
		if p == "x" || p == "X" {
			return true
		}
	}
	return false
}

// CheckRange reports whether r is a well-formed version range as accepted
// by Masterminds/semver constraints ("^1.2.0", "~1.1", ">=1 <2", "1.x",
// "*"). It returns nil or a *Problem with code ASK_DEPENDENCY_INVALID.
func CheckRange(r string) error {
	if strings.TrimSpace(r) == "" {
		return &Problem{
			Code:    CodeDependencyInvalid,
			Message: "version range is empty",
			Fix:     `write a range such as "^1.0.0", or "*" to accept any version`,
		}
	}
	if _, err := semver.NewConstraint(r); err != nil {
		return &Problem{
			Code:    CodeDependencyInvalid,
			Message: fmt.Sprintf("version range %q is not valid: %v", r, err),
			Fix:     `write a range such as "^1.2.0", "~1.2.0", ">=1.2.0 <2.0.0" or "1.x"`,
		}
	}
	return nil
}

// allDigits reports whether every part is a non-empty run of ASCII digits.
func allDigits(parts []string) bool {
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
