package validate

import (
	"fmt"
	"strings"

	"github.com/github/go-spdx/v2/spdxexp"
)

// Unlicensed is the one non-SPDX licence value CheckLicense accepts. As in
// npm, it says the package is not licensed for use by others (all rights
// reserved); a custom licence text should instead be named with a
// "LicenseRef-" identifier and shipped in the package.
const Unlicensed = "UNLICENSED"

const licenseFix = "use an SPDX identifier or expression such as MIT, Apache-2.0 or \"MIT OR Apache-2.0\" " +
	"(see https://spdx.org/licenses/), LicenseRef-<name> for a custom licence, or UNLICENSED"

// CheckLicense reports whether expr is a valid SPDX licence expression:
// an identifier from the SPDX licence list ("Apache-2.0"), a compound
// expression ("MIT OR Apache-2.0", "GPL-2.0-only WITH Classpath-exception-2.0"),
// a "LicenseRef-…" reference, or the literal Unlicensed. Identifiers match
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
