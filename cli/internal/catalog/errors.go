package catalog

import "strings"

// Error is a user-facing failure of this package: a stable ASK_* code, the
// cause, the facts behind it and the next actions.
type Error struct {
	// Code is the stable ASK_* identifier.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Detail lists the facts behind the cause, one per line.
	Detail []string
	// Hints lists the next actions, most useful first.
	Hints []string
}

// Error returns the message followed by the detail lines.
func (e *Error) Error() string {
	if len(e.Detail) == 0 {
		return e.Message
	}
	return e.Message + "\n" + strings.Join(e.Detail, "\n")
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Hints }

// denied builds an ASK_CATALOG_READ_DENIED error.
func denied(resource, why string) *Error {
	return &Error{Code: CodeCatalogReadDenied,
		Message: "refusing to read " + quote(resource) + ": " + why,
		Hints:   []string{"read SKILL.md or a Markdown file under references/ by its plain relative path, e.g. references/guide.md"}}
}

// notFound builds an ASK_CATALOG_NOT_FOUND error.
func notFound(msg string, hints ...string) *Error {
	return &Error{Code: CodeCatalogNotFound, Message: msg, Hints: hints}
}

// quote renders s for a message, keeping control characters visible.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			b.WriteString("\\x")
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
