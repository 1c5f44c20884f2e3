package publish

import (
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// Error is a user-facing publish failure: a stable ASK_* code, the cause,
// further detail lines and the next actions to try. The CLI finds it with
// errors.As through the ErrorCode and Hint methods.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Details lists further facts, one per line.
	Details []string
	// Try lists the next actions, one command or sentence each.
	Try []string
	// Diagnostics holds every validation problem when Code is
	// ASK_VALIDATION_FAILED, so that the CLI can print them.
	Diagnostics format.Diagnostics
	// Err is the underlying error, if any.
	Err error
}

// Error renders the message, the details and the underlying cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	for _, d := range e.Details {
		b.WriteString("\n  ")
		b.WriteString(d)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// Hint returns the next actions to try.
func (e *Error) Hint() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
