package resolve

import "strings"

// Error is a user-facing resolution or lock-file problem: a stable ASK_*
// code, a one-line cause, lines of detail (requirement chains, the
// versions that exist) and the next actions to try.
//
// The CLI finds it with errors.As through the ErrorCode and ErrorTry methods
// and maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier.
	Code string
	// Cause is the one-line headline, e.g. `Version conflict for "java-basics"`.
	Cause string
	// Details are further lines of explanation, without indentation.
	Details []string
	// Try lists the next actions, one per line.
	Try []string
	// Err is the underlying error, if any (for example a Source failure
	// wrapping ErrNotFound).
	Err error
}

// Error renders the cause and then each detail line indented by two spaces.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Cause)
	for _, d := range e.Details {
		b.WriteString("\n  ")
		b.WriteString(d)
	}
	return b.String()
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the "Try:" lines.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Render formats the whole message the way DESIGN §8 shows it: "error",
// the cause and details, the Try lines aligned under each other, and the
// code.
func (e *Error) Render() string {
	var b strings.Builder
	b.WriteString("error ")
	b.WriteString(e.Error())
	b.WriteByte('\n')
	for i, t := range e.Try {
		if i == 0 {
			b.WriteString("Try: ")
		} else {
			b.WriteString("     ")
		}
		b.WriteString(t)
		b.WriteByte('\n')
	}
	b.WriteString("code: ")
	b.WriteString(e.Code)
	b.WriteByte('\n')
	return b.String()
}
