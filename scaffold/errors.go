package scaffold

import (
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// Error is a problem that stops New or Adopt from producing a package. It
// carries a stable ASK_* code, a one-sentence cause and the next actions a
// user can take; the CLI maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier of the problem.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Hints lists what to do next, most useful first.
	Hints []string
	// Diagnostics holds the format problems behind the error when it comes
	// from reading an existing file (Adopt); nil otherwise.
	Diagnostics format.Diagnostics
}

// Error returns the message, so that an *Error reads well when printed.
func (e *Error) Error() string { return e.Message }

// ErrorCode returns the stable ASK_* code of the problem.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the next actions that fix the problem, most useful first.
func (e *Error) ErrorTry() []string { return e.Hints }

// String renders the error with its code and hints on separate lines, the
// way a log or a test failure shows it best.
func (e *Error) String() string {
	var b strings.Builder
	b.WriteString(e.Message)
	for _, h := range e.Hints {
		b.WriteString("\n  Try: ")
		b.WriteString(h)
	}
	b.WriteString("\n  code: ")
	b.WriteString(e.Code)
	return b.String()
}

func usageError(msg string, hints ...string) *Error {
	return &Error{Code: "ASK_USAGE", Message: msg, Hints: hints}
}
