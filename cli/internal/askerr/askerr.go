// Package askerr is the one error value of the CLI and its internal
// packages: a stable ASK_* code, the message, detail lines, the next
// actions to try and the wrapped cause — data, not formatted text. The
// library modules (resolve, registry, agents, scaffold) return errors of
// the same shape; the CLI's renderer reads every one through the small
// interfaces below and never parses an Error() string.
package askerr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/agent-skills/agent-skills/format"
)

// Error is a user-facing failure.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence, without a trailing
	// period or the code.
	Message string
	// Detail lists further facts, one per line: the skills a source
	// offers, the expected and actual digests, what was left unchanged.
	Detail []string
	// Try lists the next actions, one command or imperative sentence each,
	// without a leading "Try:".
	Try []string
	// Diagnostics holds the validation problems of an
	// ASK_VALIDATION_FAILED error, for callers that print them.
	Diagnostics format.Diagnostics
	// Err is the underlying error, if any; it must already be free of
	// credentials.
	Err error
}

// Error returns the message and, when there is one, the wrapped cause;
// never the detail lines, which ErrorDetail returns.
func (e *Error) Error() string {
	switch {
	case e.Err == nil:
		return e.Message
	case e.Message == "":
		return e.Err.Error()
	}
	return e.Message + ": " + e.Err.Error()
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorDetail returns the detail lines.
func (e *Error) ErrorDetail() []string { return e.Detail }

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Coded is an error with a stable ASK_* code.
type Coded interface{ ErrorCode() string }

// Detailed is an error with detail lines.
type Detailed interface{ ErrorDetail() []string }

// Tried is an error with next actions.
type Tried interface{ ErrorTry() []string }

// Usage builds an ASK_USAGE error: the command line is wrong.
func Usage(format string, args ...any) *Error {
	return &Error{Code: CodeUsage, Message: fmt.Sprintf(format, args...), Try: []string{"agent-skills --help"}}
}

// IO builds an ASK_IO error: reading or writing what the message names
// failed with err.
func IO(message string, err error, try ...string) *Error {
	return &Error{Code: CodeIO, Message: message, Err: err, Try: try}
}

// Internal builds an ASK_INTERNAL error: a bug in agent-skills.
func Internal(message string, err error) *Error {
	return &Error{Code: CodeInternal, Message: message, Err: err}
}

// Codes every part of the CLI uses; each package declares the rest of its
// codes where it raises them.
const (
	CodeUsage    = "ASK_USAGE"
	CodeIO       = "ASK_IO"
	CodeInternal = "ASK_INTERNAL"
	// CodeValidationFailed: a package breaks a validation rule; the error
	// carries the diagnostics.
	CodeValidationFailed = "ASK_VALIDATION_FAILED"
)

// CodeOf returns the ASK_* code err carries; ASK_IO for an uncoded
// failure to read or write a file (see IsIO); else ASK_INTERNAL.
func CodeOf(err error) string {
	var c Coded
	if errors.As(err, &c) && c.ErrorCode() != "" {
		return c.ErrorCode()
	}
	if IsIO(err) {
		return CodeIO
	}
	return CodeInternal
}

// Is reports whether err carries the ASK_* code code.
func Is(err error, code string) bool {
	var c Coded
	return errors.As(err, &c) && c.ErrorCode() == code
}

// DetailOf returns the detail lines of err, or nil.
func DetailOf(err error) []string {
	var d Detailed
	if errors.As(err, &d) {
		return d.ErrorDetail()
	}
	return nil
}

// TryOf returns the next actions err names; for an uncoded I/O failure,
// which brings none, the generic one.
func TryOf(err error) []string {
	var t Tried
	if errors.As(err, &t) && len(t.ErrorTry()) > 0 {
		return t.ErrorTry()
	}
	if CodeOf(err) == CodeIO {
		return []string{"check the free disk space and the permissions of the path named above, then run the command again"}
	}
	return nil
}

// ioErrnos are the system errors that say the disk or the file system,
// not agent-skills, failed.
var ioErrnos = []error{syscall.ENOSPC, syscall.EROFS, syscall.EIO, syscall.ENOTDIR, syscall.EISDIR, fs.ErrPermission}

// IsIO reports whether err is a failure to read or write a file: a full
// disk, a read-only file system, a permission, a path that is not a
// folder. Such a failure is ASK_IO (exit 1) wherever it surfaces, even
// where the code that met it did not wrap it in an ASK_IO error: it is the
// machine's state, not a bug in agent-skills (docs/errors.md).
func IsIO(err error) bool {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	if errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return true
	}
	for _, e := range ioErrnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
