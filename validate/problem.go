package validate

import "github.com/agent-skills/agent-skills/format"

// The stable codes of the problems this package reports, documented in
// docs/errors.md (see the package documentation for when each applies).
// Problems found while loading carry format's codes instead.
const (
	// CodeRequiredField reports that a required field of skill.yaml or the
	// entrypoint is missing or empty.
	CodeRequiredField = "ASK_REQUIRED_FIELD"
	// CodeNameInvalid reports that a name breaks the grammar of
	// format.CheckName.
	CodeNameInvalid = "ASK_NAME_INVALID"
	// CodeNameMismatch reports that the manifest, folder and entrypoint names
	// differ.
	CodeNameMismatch = "ASK_NAME_MISMATCH"
	// CodeKindUnknown reports that kind is not skill, command or workflow.
	CodeKindUnknown = "ASK_KIND_UNKNOWN"
	// CodeVersionInvalid reports that a version is not strict semver, or a
	// minVersion range is invalid.
	CodeVersionInvalid = "ASK_VERSION_INVALID"
	// CodeVersionMismatch reports that the entrypoint's version differs from
	// skill.yaml's.
	CodeVersionMismatch = "ASK_VERSION_MISMATCH"
	// CodeLicenseInvalid reports that the licence is not an SPDX expression,
	// LicenseRef-… or UNLICENSED.
	CodeLicenseInvalid = "ASK_LICENSE_INVALID"
	// CodeFilesUnsafePath reports that a files entry is not a portable relative
	// path.
	CodeFilesUnsafePath = "ASK_FILES_UNSAFE_PATH"
	// CodeFilesDuplicate reports that a files entry is listed twice.
	CodeFilesDuplicate = "ASK_FILES_DUPLICATE"
	// CodeEntrypointNotListed reports that files does not list the kind's
	// entrypoint.
	CodeEntrypointNotListed = "ASK_ENTRYPOINT_NOT_LISTED"
	// CodeDependencyInvalid reports that a dependency has a bad name or range,
	// is the package itself, or repeats.
	CodeDependencyInvalid = "ASK_DEPENDENCY_INVALID"
	// CodeSuggestsInvalid reports that a suggestion has a range, a bad name, is
	// the package itself, or repeats.
	CodeSuggestsInvalid = "ASK_SUGGESTS_INVALID"
	// CodeOverrideKeyUnknown reports that agentOverrides names an agent or key
	// outside the allowlist.
	CodeOverrideKeyUnknown = "ASK_OVERRIDE_KEY_UNKNOWN"
	// CodeManifestUnknownKey reports that skill.yaml has a key this CLI does
	// not know.
	CodeManifestUnknownKey = "ASK_MANIFEST_UNKNOWN_KEY"
	// CodeManifestMissing reports that, under Strict, a bare skill has no
	// skill.yaml.
	CodeManifestMissing = "ASK_MANIFEST_MISSING"
	// CodeFrontMatterFieldInvalid reports that a front-matter field breaks a
	// rule of the Agent Skills specification.
	CodeFrontMatterFieldInvalid = "ASK_FRONTMATTER_FIELD_INVALID"
	// CodeFrontMatterUnknownKey reports that a front-matter key is outside the
	// specification.
	CodeFrontMatterUnknownKey = "ASK_FRONTMATTER_UNKNOWN_KEY"
	// CodeLinkOutsidePackage reports that a Markdown link or image leaves the
	// package.
	CodeLinkOutsidePackage = "ASK_LINK_OUTSIDE_PACKAGE"
	// CodeLinkBroken reports that a relative link or image names a file the
	// package does not ship.
	CodeLinkBroken = "ASK_LINK_BROKEN"
)

// Problem is the error returned by the single-value rule checks (CheckName,
// CheckVersion, CheckPath, CheckLicense, CheckRange): which rule was broken,
// what exactly is wrong, and how to fix it. Package and Dir turn problems
// into format.Diagnostics with a file and a position.
type Problem struct {
	// Code is the stable ASK_* identifier of the broken rule.
	Code string
	// Message says exactly what is wrong, in one sentence.
	Message string
	// Fix says what to change; empty when no fix is known.
	Fix string
	// Warning marks a problem that does not make the package invalid on its
	// own (for example a deprecated SPDX identifier).
	Warning bool

	// rule is the id of the rule the problem breaks (see Rules); empty
	// when its code has only one rule.
	rule string
}

// Error returns the message, so that a Problem can travel as an error.
func (p *Problem) Error() string { return p.Message }

// severity maps the Warning flag onto format's severities.
func (p *Problem) severity() format.Severity {
	if p.Warning {
		return format.SeverityWarning
	}
	return format.SeverityError
}

// diag turns the problem into a diagnostic at file:pos.
func (p *Problem) diag(file string, pos format.Pos) format.Diagnostic {
	return format.Diagnostic{
		File:     file,
		Pos:      pos,
		Severity: p.severity(),
		Code:     p.Code,
		Message:  p.Message,
		Fix:      p.Fix,
	}
}

// FieldProblem is a problem with one field of a manifest or front matter,
// named by its field path in the notation of format's position table:
// "files[2]", "dependencies[0].version", "agentOverrides.codex.interface".
type FieldProblem struct {
	// Field is the path of the offending field.
	Field string
	// Problem is what is wrong with it.
	*Problem

	// atKey places the problem on the field's key rather than its value
	// (for unknown keys).
	atKey bool
}
