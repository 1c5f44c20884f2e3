package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// Error is a user-facing failure: a stable ASK_* code, a one-line summary,
// optional detail lines that explain the cause, and the next actions to try.
// Library modules return their own error types; anything that has
// ErrorCode() and ErrorTry() methods is rendered the same way.
type Error struct {
	Code    string
	Summary string
	Detail  []string
	Try     []string
	Err     error
}

// Error returns the summary and, when there is one, the wrapped cause.
func (e *Error) Error() string {
	if e.Err != nil && e.Summary == "" {
		return e.Err.Error()
	}
	if e.Err != nil {
		return e.Summary + ": " + e.Err.Error()
	}
	return e.Summary
}

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

type coded interface{ ErrorCode() string }
type hinted interface{ ErrorTry() []string }

// detailed is a library error that keeps its detail lines out of Error().
type detailed interface{ ErrorDetail() []string }

// detailOf returns the detail lines of every library error in err's tree
// (errors.Join and kong's run errors included), outermost first.
func detailOf(err error) []string {
	var out []string
	for err != nil {
		if d, ok := err.(detailed); ok {
			out = append(out, d.ErrorDetail()...)
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				out = append(out, detailOf(e)...)
			}
			return out
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return out
		}
	}
	return out
}

// usageError builds an ASK_USAGE error.
func usageError(format string, args ...any) *Error {
	return &Error{Code: "ASK_USAGE", Summary: fmt.Sprintf(format, args...),
		Try: []string{"agent-skills --help"}}
}

// codeOf returns the ASK_* code carried by err; ASK_IO for an uncoded
// failure to read or write a file (see isIOError); else ASK_INTERNAL.
func codeOf(err error) string {
	var c coded
	if errors.As(err, &c) && c.ErrorCode() != "" {
		return c.ErrorCode()
	}
	if isIOError(err) {
		return "ASK_IO"
	}
	return "ASK_INTERNAL"
}

// ioErrnos are the system errors that say the disk or the file system,
// not agent-skills, failed.
var ioErrnos = []error{syscall.ENOSPC, syscall.EROFS, syscall.EIO, syscall.ENOTDIR, syscall.EISDIR, fs.ErrPermission}

// isIOError reports whether err is a failure to read or write a file: a
// full disk, a read-only file system, a permission, a path that is not a
// folder. Such a failure is ASK_IO (exit 1) wherever it surfaces, even
// where the code that met it did not wrap it in an ASK_IO error: it is
// the machine's state, not a bug in agent-skills (docs/errors.md).
func isIOError(err error) bool {
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

// ioHint is the next action for an ASK_IO failure that brought none.
var ioHint = []string{"check the free disk space and the permissions of the path named above, then run the command again"}

// exitCodeOf maps an error to the process exit code of the design's table.
func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	if n, ok := exitCodes[codeOf(err)]; ok {
		return n
	}
	return 1
}

// renderError writes err in the standard shape:
//
//	error: <summary>
//	  <detail lines>
//	Try: <next action>
//	     <next action>
//	code: ASK_…
//
// Messages carry names, paths, URLs and git output from packages and
// sources, so every line is escaped (termtext.Line) once it has been
// split at the new lines the message was built with.
func renderError(w io.Writer, err error, st style) {
	msg := err.Error()
	lines := detailOf(err)
	var e *Error
	if errors.As(err, &e) && e.Summary != "" {
		msg = e.Error()
		lines = append(lines, e.Detail...)
	}
	first, rest, _ := strings.Cut(msg, "\n")
	fmt.Fprintf(w, "%s %s\n", st.red("error:"), termtext.Line(first))
	for _, l := range strings.Split(rest, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, " "):
			fmt.Fprintf(w, "%s\n", termtext.Line(l))
		default:
			fmt.Fprintf(w, "  %s\n", termtext.Line(l))
		}
	}
	for _, l := range lines {
		for _, part := range strings.Split(l, "\n") {
			fmt.Fprintf(w, "  %s\n", termtext.Line(part))
		}
	}
	var tries []string
	var h hinted
	if errors.As(err, &h) {
		tries = h.ErrorTry()
	}
	if len(tries) == 0 && codeOf(err) == "ASK_IO" {
		tries = ioHint
	}
	for i, t := range tries {
		if i == 0 {
			fmt.Fprintf(w, "%s %s\n", st.bold("Try:"), termtext.Line(t))
		} else {
			fmt.Fprintf(w, "     %s\n", termtext.Line(t))
		}
	}
	fmt.Fprintf(w, "code: %s\n", codeOf(err))
}
