package scaffold

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// maxLicenseRef caps the idstring of a LicenseRef- made from free text.
const maxLicenseRef = 64

// adoptedLicense is the licence an adopted manifest declares, and how it
// was chosen.
type adoptedLicense struct {
	// expr is the manifest's license: "" for none.
	expr string
	// from is SKILL.md's free text when expr was made from it (not when
	// --license replaced it), for the comment above license in skill.yaml.
	from string
	// note says what Adopt decided, when it decided something; "" when
	// the licence was taken as written.
	note string
}

// adoptLicense picks the licence of an adopted manifest from SKILL.md's
// `license` (fm) and --license (opt):
//
//   - opt, when given, is checked like any licence New writes. It
//     overrides a free-text fm; an fm that is itself a valid licence and
//     differs is a usage error, since the manifest would contradict
//     SKILL.md.
//   - a valid fm (an SPDX expression, LicenseRef-…, SEE LICENSE IN <file>
//     naming a file of fsys, UNLICENSED) is taken as written.
//   - free text, which the Agent Skills specification allows in front
//     matter, is adopted as SEE LICENSE IN <file> when it names a regular
//     file of fsys (the specification's own example, "Proprietary.
//     LICENSE.txt has complete terms", names LICENSE.txt), and as
//     LicenseRef-<its words> otherwise; the note says so.
//   - neither: no licence. Adopt never chooses one for existing work.
func adoptLicense(fsys fs.FS, fm, opt string) (adoptedLicense, error) {
	fm = strings.Join(strings.Fields(fm), " ")
	opt = strings.TrimSpace(opt)
	fmValid := fm != "" && validate.CheckLicense(fm) == nil && licenseFileShipped(fsys, fm)
	switch {
	case opt != "" && fmValid && fm != opt:
		return adoptedLicense{}, usageError(
			fmt.Sprintf("SKILL.md declares license %q but %q was asked for", fm, opt),
			"drop --license to keep "+fm+", or change `license` in SKILL.md first")
	case opt != "":
		lic, err := checkLicense(opt, "")
		if err != nil {
			return adoptedLicense{}, err
		}
		if err := shippedLicenseFile(fsys, lic); err != nil {
			return adoptedLicense{}, err
		}
		a := adoptedLicense{expr: lic}
		if fm != "" && fm != lic {
			a.note = fmt.Sprintf("license: %s, from --license; SKILL.md's %q stays as it is", lic, fm)
		}
		return a, nil
	case fm == "":
		return adoptedLicense{}, nil
	case fmValid:
		return adoptedLicense{expr: fm}, nil
	}
	if meantAsExpression(fm) {
		// A deprecated SPDX identifier, a lowercase UNLICENSED, SEE LICENSE
		// IN a file that is not there: the author wrote a licence value, so
		// say what is wrong with it rather than rewrite it.
		if err := validate.CheckLicense(fm); err != nil {
			return adoptedLicense{}, problemError(err)
		}
		return adoptedLicense{}, shippedLicenseFile(fsys, fm)
	}
	if f := namedFile(fsys, fm); f != "" {
		expr := validate.SeeLicenseIn + f
		return adoptedLicense{expr: expr, from: fm,
			note: fmt.Sprintf("license: %s, for SKILL.md's free text %q (it names %s); pass --license <SPDX expression> to declare another", expr, fm, f)}, nil
	}
	expr := licenseRef(fm)
	note := fmt.Sprintf("license: %s, for SKILL.md's free text %q; ship the terms in the package, or pass --license <SPDX expression>", expr, fm)
	if id := strings.TrimPrefix(expr, "LicenseRef-"); validate.CheckLicense(id) == nil && !strings.EqualFold(id, validate.Unlicensed) {
		note = fmt.Sprintf("license: %s, for SKILL.md's free text %q; if it means the SPDX licence %s, pass --license %s", expr, fm, id, id)
	}
	return adoptedLicense{expr: expr, from: fm, note: note}, nil
}

// meantAsExpression reports whether an fm licence that is not valid was
// still written as a licence value rather than as free text: a deprecated
// SPDX identifier (a warning), UNLICENSED in any case, or SEE LICENSE IN in
// any case.
func meantAsExpression(fm string) bool {
	if p, ok := validate.CheckLicense(fm).(*validate.Problem); ok && p.Warning {
		return true
	}
	prefix := strings.TrimSpace(validate.SeeLicenseIn)
	return strings.EqualFold(fm, validate.Unlicensed) ||
		len(fm) >= len(prefix) && strings.EqualFold(fm[:len(prefix)], prefix)
}

// licenseFileShipped reports whether the file a SEE LICENSE IN licence
// names is a regular file of fsys; any other licence needs none.
func licenseFileShipped(fsys fs.FS, lic string) bool {
	return shippedLicenseFile(fsys, lic) == nil
}

// shippedLicenseFile returns ASK_LICENSE_INVALID when lic is SEE LICENSE IN
// a file that fsys does not hold as a regular file outside the folders a
// package leaves out, and nil otherwise.
func shippedLicenseFile(fsys fs.FS, lic string) error {
	f := validate.LicenseFile(lic)
	if f == "" || isShippedFile(fsys, f) {
		return nil
	}
	return &Error{Code: validate.CodeLicenseInvalid,
		Message: fmt.Sprintf("license %q names %s, which the folder does not hold", lic, f),
		Try:     []string{"add " + f + " to the folder, or pass --license <SPDX expression>"}}
}

// namedFile returns the first word of text that is the path of a file the
// package would ship ("LICENSE.txt" in "Complete terms in LICENSE.txt."),
// or "".
func namedFile(fsys fs.FS, text string) string {
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "\"'`()[]<>{},;:!?")
		w = strings.TrimRight(w, ".")
		if w != "" && isShippedFile(fsys, w) {
			return w
		}
	}
	return ""
}

// isShippedFile reports whether p is a portable path of a regular file in
// fsys, reached without a link and outside the folders a package leaves
// out (.git, node_modules, …).
func isShippedFile(fsys fs.FS, p string) bool {
	if format.CheckPath(p) != nil {
		return false
	}
	for _, elem := range strings.Split(p, "/") {
		if ignoredEntry(elem) {
			return false
		}
	}
	parts := strings.Split(p, "/")
	for i := range parts {
		info, err := fs.Lstat(fsys, strings.Join(parts[:i+1], "/"))
		if err != nil {
			return false
		}
		if i < len(parts)-1 && !info.IsDir() {
			return false
		}
		if i == len(parts)-1 && !info.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// licenseRef makes a LicenseRef- identifier from free text: its words
// (runs of ASCII letters, digits and inner dots) joined with hyphens, at
// most maxLicenseRef characters cut at a word; "LicenseRef-Custom" when
// no word is left.
func licenseRef(text string) string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.')
	})
	var id string
	for _, w := range words {
		w = strings.Trim(w, ".")
		if w == "" {
			continue
		}
		next := w
		if id != "" {
			next = id + "-" + w
		}
		if len(next) > maxLicenseRef {
			if id == "" {
				id = w[:maxLicenseRef]
			}
			break
		}
		id = next
	}
	if id == "" {
		id = "Custom"
	}
	ref := "LicenseRef-" + id
	if validate.CheckLicense(ref) != nil {
		return "LicenseRef-Custom"
	}
	return ref
}
