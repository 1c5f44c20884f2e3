package registry

import "errors"

// ErrNotFound matches, with errors.Is, every ASK_SKILL_NOT_FOUND error:
// no registry consulted publishes the name. The CLI's adapter to the
// resolver wraps resolve.ErrNotFound when it sees it.
var ErrNotFound = errors.New("skill not found")

// The stable codes of the errors this package raises, documented in
// docs/errors.md. A payload with an unsafe file, a broken manifest or one
// over a size limit carries format's code (format.CodePackageUnsafeFile,
// format.CodeManifestInvalid, format.CodePackageTooLarge).
const (
	// CodeSkillNotFound reports that no registry consulted publishes the name
	// (matches ErrNotFound).
	CodeSkillNotFound = "ASK_SKILL_NOT_FOUND"
	// CodeVersionNotFound reports that the registry has the skill but not the
	// version.
	CodeVersionNotFound = "ASK_VERSION_NOT_FOUND"
	// CodeRegistryUnavailable reports that a registry cannot be reached or
	// read, or refuses to serve a payload.
	CodeRegistryUnavailable = "ASK_REGISTRY_UNAVAILABLE"
	// CodeRegistryConfigInvalid reports that a Spec cannot be opened.
	CodeRegistryConfigInvalid = "ASK_REGISTRY_CONFIG_INVALID"
	// CodeRegistryUnknown reports that a "registry:name" names no configured
	// registry.
	CodeRegistryUnknown = "ASK_REGISTRY_UNKNOWN"
	// CodeRegistryInvalidIndex reports that an index fails to decode or
	// validate.
	CodeRegistryInvalidIndex = "ASK_REGISTRY_INVALID_INDEX"
	// CodeIntegrityMismatch reports that a payload's digest, name or version is
	// not the one the index records.
	CodeIntegrityMismatch = "ASK_INTEGRITY_MISMATCH"
	// CodeArchiveUnsafe reports that an archive entry is absolute, escapes, is
	// a link or repeats.
	CodeArchiveUnsafe = "ASK_ARCHIVE_UNSAFE"
	// CodeArchiveTooLarge reports that an archive exceeds an extraction limit.
	CodeArchiveTooLarge = "ASK_ARCHIVE_TOO_LARGE"
)

// Error is a user-facing registry failure: a stable ASK_* code, the cause,
// the facts that explain it and the next actions to try. The CLI finds it
// with errors.As, reads it through the ErrorCode, ErrorDetail and ErrorTry
// methods and maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier, one of the Code constants or a
	// format code.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Detail lists further facts, one per line, such as every problem
	// found in an index or the expected and actual digests.
	Detail []string
	// Try lists the next actions, one command or instruction each.
	Try []string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message and, when there is one, ": " and the
// underlying error. Detail lines are read with ErrorDetail.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorDetail returns the facts that explain the failure.
func (e *Error) ErrorDetail() []string { return e.Detail }

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

// Is reports whether target is ErrNotFound and e is a not-found error.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Code == CodeSkillNotFound
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
