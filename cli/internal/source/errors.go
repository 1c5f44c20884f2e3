package source

import (
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// Error is a user-facing failure of a source operation: a stable ASK_*
// code, the cause, further detail lines and the next actions to try. The
// CLI renders it through the ErrorCode and Hint methods.
type Error struct {
	// Code is the stable ASK_* identifier.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Details lists further facts, one per line: the skills a source
	// offers, the expected and actual digests, validation diagnostics.
	Details []string
	// Try lists the next actions, one command or sentence each.
	Try []string
	// Diagnostics holds the validation problems of an ASK_VALIDATION_FAILED
	// error, for callers that render them themselves.
	Diagnostics format.Diagnostics
	// Err is the underlying error, if any; its text is already scrubbed of
	// credentials.
	Err error
}

// Error renders the message, the details and the underlying cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	for _, d := range e.Details {
		b.WriteString("\n  ")
		b.WriteString(d)
	}
	return b.String()
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// Hint returns the next actions to try.
func (e *Error) Hint() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// invalid builds an ASK_SOURCE_INVALID error for the reference ref.
func invalid(ref, why string) *Error {
	return &Error{
		Code:    "ASK_SOURCE_INVALID",
		Message: "invalid source " + quote(scrub(ref, nil)) + ": " + why,
		Try: []string{
			"write owner/repo[/path][@skill][#ref], a git URL, ./folder or an archive path (see docs/sources.md)",
		},
	}
}

// notFound builds an ASK_SOURCE_NOT_FOUND error.
func notFound(msg string, details []string, try ...string) *Error {
	return &Error{Code: "ASK_SOURCE_NOT_FOUND", Message: msg, Details: details, Try: try}
}

// quote wraps s in double quotes for messages.
func quote(s string) string { return `"` + s + `"` }
