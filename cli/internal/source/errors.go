package source

import "github.com/agent-skills/agent-skills/cli/internal/askerr"

// Error is a user-facing failure of a source operation; see askerr.Error.
type Error = askerr.Error

// invalid builds an ASK_SOURCE_INVALID error for the reference ref.
func invalid(ref, why string) *Error {
	return &Error{
		Code:    CodeSourceInvalid,
		Message: "invalid source " + quote(scrub(ref, nil)) + ": " + why,
		Try: []string{
			"write owner/repo[/path][@skill][#ref], a git URL, ./folder or an archive path (see docs/sources.md)",
		},
	}
}

// notFound builds an ASK_SOURCE_NOT_FOUND error.
func notFound(msg string, details []string, try ...string) *Error {
	return &Error{Code: CodeSourceNotFound, Message: msg, Detail: details, Try: try}
}

// quote wraps s in double quotes for messages.
func quote(s string) string { return `"` + s + `"` }
