// Package askerr is the error value the CLI's internal packages (publish,
// source) return: a stable ASK_* code, the cause, detail lines, the next
// actions to try and, for validation failures, the diagnostics. The CLI
// renders any such error through its ErrorCode and ErrorTry methods.
package askerr

import (
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// Error is a user-facing failure.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Details lists further facts, one per line: the skills a source
	// offers, the expected and actual digests, and the like.
	Details []string
	// Try lists the next actions, one command or sentence each.
	Try []string
	// Diagnostics holds the validation problems of an
	// ASK_VALIDATION_FAILED error, for callers that print them.
	Diagnostics format.Diagnostics
	// Err is the underlying error, if any; it must already be free of
	// credentials.
	Err error
}

// Error renders the message, the underlying cause and the details.
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

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
