package validate

import (
	"fmt"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp"

	"github.com/agent-skills/agent-skills/format"
)

// Unlicensed is one of the two non-SPDX licence values CheckLicense
// accepts. As in npm, it says the package is not licensed for use by others
// (all rights reserved); a custom licence text should instead be named with
// a "LicenseRef-" identifier and shipped in the package, or pointed at with
// SeeLicenseIn.
const Unlicensed = "UNLICENSED"

// SeeLicenseIn starts the other non-SPDX licence value CheckLicense
// accepts, as npm writes it: "SEE LICENSE IN LICENSE.txt" says that the
// terms are in that file of the package, for a licence with no SPDX
// identifier (Anthropic's skills say "Proprietary. LICENSE.txt has complete
// terms"). Package validation also requires the file to be in the package.
const SeeLicenseIn = "SEE LICENSE IN "

const licenseFix = "use an SPDX identifier or expression such as MIT, Apache-2.0 or \"MIT OR Apache-2.0\" " +
	"(see https://spdx.org/licenses/), LicenseRef-<name> for a custom licence, " +
	"SEE LICENSE IN <file> for terms in a file of the package, or UNLICENSED"

// LicenseFile returns the file a "SEE LICENSE IN <file>" licence names,
// and "" for any other value.
func LicenseFile(expr string) string {
	if f, ok := strings.CutPrefix(expr, SeeLicenseIn); ok {
		return f
	}
	return ""
}

// CheckLicense reports whether expr is a valid SPDX licence expression:
// an identifier from the SPDX licence list ("Apache-2.0"), a compound
// expression ("MIT OR Apache-2.0", "GPL-2.0-only WITH Classpath-exception-2.0"),
// a "LicenseRef-…" reference, the literal Unlicensed, or SeeLicenseIn
// followed by a portable relative path (format.CheckPath) — whether the
// package holds that file is for the package checks. Identifiers match
// case-insensitively, as the SPDX specification says. A deprecated SPDX
// identifier (such as "GPL-2.0") is returned as a warning *Problem; anything
// else invalid as an error *Problem, both with code ASK_LICENSE_INVALID.
func CheckLicense(expr string) error {
	switch {
	case strings.TrimSpace(expr) == "":
		return &Problem{Code: CodeLicenseInvalid, Message: "license is empty", Fix: licenseFix}
	case expr == Unlicensed:
		return nil
	case strings.EqualFold(expr, Unlicensed):
		return &Problem{
			Code:    CodeLicenseInvalid,
			Message: fmt.Sprintf("license %q must be written in capitals", expr),
			Fix:     "write UNLICENSED",
		}
	case strings.HasPrefix(expr, SeeLicenseIn):
		if err := format.CheckPath(LicenseFile(expr)); err != nil {
			return &Problem{
				Code:    CodeLicenseInvalid,
				Message: fmt.Sprintf("license %q names no usable file: the path %v", expr, err),
				Fix:     "write SEE LICENSE IN <path of a file in the package>, such as SEE LICENSE IN LICENSE.txt",
			}
		}
		return nil
	case len(expr) >= len(SeeLicenseIn) && strings.EqualFold(expr[:len(SeeLicenseIn)], SeeLicenseIn):
		return &Problem{
			Code:    CodeLicenseInvalid,
			Message: fmt.Sprintf("license %q must start SEE LICENSE IN, in capitals", expr),
			Fix:     "write SEE LICENSE IN " + strings.TrimSpace(expr[len(SeeLicenseIn):]),
		}
	}
	if ok, _ := spdxexp.ValidateLicensesWithOptions([]string{expr},
		spdxexp.ValidateLicensesOptions{FailDeprecatedLicenses: true}); ok {
		return nil
	}
	if ok, _ := spdxexp.ValidateLicenses([]string{expr}); ok {
		return &Problem{
			Code:    CodeLicenseInvalid,
			Message: fmt.Sprintf("license %q uses a deprecated SPDX identifier", expr),
			Fix:     "use the current identifier from https://spdx.org/licenses/ (for example GPL-2.0-only or GPL-2.0-or-later instead of GPL-2.0)",
			Warning: true,
		}
	}
	msg := fmt.Sprintf("license %q is not a valid SPDX licence expression", expr)
	if strings.EqualFold(strings.TrimSpace(expr), "proprietary") {
		msg = fmt.Sprintf("license %q is not an SPDX identifier; for a package nobody else may use write UNLICENSED", expr)
	}
	return &Problem{Code: CodeLicenseInvalid, Message: msg, Fix: licenseFix}
}
