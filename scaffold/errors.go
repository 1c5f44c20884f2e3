package scaffold

import "github.com/agent-skills/agent-skills/format"

// CodeUsage is the one code of its own this package raises, documented in
// docs/errors.md: options that cannot produce a package (an unknown kind,
// an unusable description or author), or Adopt on a folder that already
// has a manifest or with a licence that contradicts SKILL.md. Every other
// failure carries validate's code (validate.CodeNameInvalid, …) or
// format's (format.CodeEntrypointMissing, …), the code the same problem
// has when a package is validated.
const CodeUsage = "ASK_USAGE"

// Error is a problem that stops New or Adopt from producing a package: a
// stable ASK_* code, a one-sentence cause, the facts that explain it and
// the next actions a user can take. The CLI reads it through ErrorCode,
// ErrorDetail and ErrorTry and maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier of the problem.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Detail holds further facts, one per line.
	Detail []string
	// Try lists what to do next, most useful first.
	Try []string
	// Err is the underlying error, if any.
	Err error
	// Diagnostics holds the format problems behind the error when it comes
	// from reading an existing file (Adopt); nil otherwise.
	Diagnostics format.Diagnostics
}

// Error returns the message and, when there is one, ": " and the
// underlying error. Detail lines are read with ErrorDetail.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// ErrorCode returns the stable ASK_* code of the problem.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorDetail returns the facts that explain the problem.
func (e *Error) ErrorDetail() []string { return e.Detail }

// ErrorTry returns the next actions that fix the problem, most useful first.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// usageError builds an ASK_USAGE error with its next actions.
func usageError(msg string, try ...string) *Error {
	return &Error{Code: CodeUsage, Message: msg, Try: try}
}
