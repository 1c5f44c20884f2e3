package format

import (
	"cmp"
	"fmt"
	"slices"
)

// Severity says how serious a Diagnostic is.
type Severity int

const (
	// SeverityError marks a problem that makes a package invalid.
	SeverityError Severity = iota
	// SeverityWarning marks a problem that does not stop an install but
	// should be fixed before publishing.
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// MarshalText encodes the severity as its String form.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Pos is a 1-based line and column inside a file. The zero Pos means the
// position is unknown or the problem concerns the whole file.
type Pos struct {
	// Line is the 1-based line number.
	Line int `json:"line"`
	// Col is the 1-based column, counted in characters.
	Col int `json:"column"`
}

// The stable codes of the diagnostics this package reports, documented in
// docs/errors.md. The modules above format report the same codes when they
// meet the same problem (a registry payload with an unsafe file, an
// adopted SKILL.md over the size limit) and use these constants for them.
const (
	// CodeManifestInvalid reports that skill.yaml is not one well-formed YAML
	// mapping of the right types.
	CodeManifestInvalid = "ASK_MANIFEST_INVALID"
	// CodeManifestSchemaUnsupported reports that skill.yaml has a newer
	// schemaVersion.
	CodeManifestSchemaUnsupported = "ASK_MANIFEST_SCHEMA_UNSUPPORTED"
	// CodeFrontMatterInvalid reports that the entrypoint's front matter cannot
	// be split or is not valid YAML.
	CodeFrontMatterInvalid = "ASK_FRONTMATTER_INVALID"
	// CodeWorkflowMetaInvalid reports that WORKFLOW.js has no pure-literal
	// meta.
	CodeWorkflowMetaInvalid = "ASK_WORKFLOW_META_INVALID"
	// CodeEntrypointMissing reports that the kind's entrypoint is absent or a
	// folder.
	CodeEntrypointMissing = "ASK_ENTRYPOINT_MISSING"
	// CodeFilesMissing reports that a files entry does not exist, or a file
	// cannot be read.
	CodeFilesMissing = "ASK_FILES_MISSING"
	// CodePackageUnsafeFile reports a link, a special file, or a file name some
	// supported system cannot create as itself.
	CodePackageUnsafeFile = "ASK_PACKAGE_UNSAFE_FILE"
	// CodePackageTooLarge reports that a package exceeds a size limit.
	CodePackageTooLarge = "ASK_PACKAGE_TOO_LARGE"
)

// Diagnostic is one problem found in a package: where it is, how serious it
// is, which rule it breaks (a stable ASK_* code) and how to fix it.
type Diagnostic struct {
	// File is the package-relative, slash-separated path of the file the
	// problem is in; empty when the problem concerns the package as a whole.
	File string `json:"file"`
	Pos
	// Severity says whether the problem is an error or a warning.
	Severity Severity `json:"severity"`
	// Code is the stable ASK_* identifier of the broken rule.
	Code string `json:"code"`
	// Message states the problem in one sentence.
	Message string `json:"message"`
	// Fix says what to change, when a fix is known.
	Fix string `json:"fix,omitempty"`
}

// String renders the diagnostic as "file:line:col: severity CODE message".
func (d Diagnostic) String() string {
	loc := d.File
	if loc == "" {
		loc = "."
	}
	if d.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", loc, d.Line, max(d.Col, 1))
	}
	return fmt.Sprintf("%s: %s %s %s", loc, d.Severity, d.Code, d.Message)
}

// Diagnostics is a list of problems, usually every problem found in one
// package rather than just the first.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic has SeverityError.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == SeverityError })
}

// Sort orders the diagnostics by file, line, column, code and message, so
// that output is stable whatever order the checks ran in.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Code, b.Code),
			cmp.Compare(a.Message, b.Message),
		)
	})
}
