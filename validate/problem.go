package validate

import "github.com/agent-skills/agent-skills/format"

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
