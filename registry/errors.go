package registry

import (
	"errors"
	"strings"
)

// ErrNotFound matches, with errors.Is, every ASK_SKILL_NOT_FOUND error:
// no registry consulted publishes the name. The CLI's adapter to the
// resolver wraps resolve.ErrNotFound when it sees it.
var ErrNotFound = errors.New("skill not found")

// Error is a user-facing registry failure: a stable ASK_* code, the cause
// and the next actions to try. The CLI finds it with errors.As through the
// ErrorCode and ErrorTry methods and maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Details lists further facts, one per line, such as every problem
	// found in an index or the expected and actual digests.
	Details []string
	// Try lists the next actions, one command or sentence each.
	Try []string
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

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

// Is reports whether target is ErrNotFound and e is a not-found error.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Code == "ASK_SKILL_NOT_FOUND"
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// unavailable builds an ASK_REGISTRY_UNAVAILABLE error for registry reg.
func unavailable(reg, msg string, err error, try ...string) *Error {
	return &Error{
		Code:    "ASK_REGISTRY_UNAVAILABLE",
		Message: "registry " + quote(reg) + ": " + msg,
		Err:     err,
		Try:     try,
	}
}

// notFound builds the ASK_SKILL_NOT_FOUND error for name.
func notFound(name string, where string, try ...string) *Error {
	if len(try) == 0 {
		try = []string{"agent-skills search " + name}
	}
	return &Error{
		Code:    "ASK_SKILL_NOT_FOUND",
		Message: "skill " + quote(name) + " not found in " + where,
		Try:     try,
	}
}

// quote wraps s in double quotes for messages.
func quote(s string) string { return `"` + s + `"` }
