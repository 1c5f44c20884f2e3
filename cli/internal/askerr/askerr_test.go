package askerr

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"syscall"
	"testing"
)

func TestError(t *testing.T) {
	cause := errors.New("disk full")
	e := &Error{Code: "ASK_IO", Message: "cannot write x", Detail: []string{"a", "b"}, Try: []string{"retry"}, Err: cause}
	if got, want := e.Error(), "cannot write x: disk full"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.ErrorCode() != "ASK_IO" || !slices.Equal(e.ErrorTry(), []string{"retry"}) ||
		!slices.Equal(e.ErrorDetail(), []string{"a", "b"}) || !errors.Is(e, cause) {
		t.Errorf("ErrorCode/ErrorTry/ErrorDetail/Unwrap = %q, %v, %v, %v", e.ErrorCode(), e.ErrorTry(), e.ErrorDetail(), errors.Is(e, cause))
	}
	if got := (&Error{Err: cause}).Error(); got != "disk full" {
		t.Errorf("Error() without a message = %q, want the cause", got)
	}
}

func TestCodeOf(t *testing.T) {
	wrapped := fmt.Errorf("context: %w", &Error{Code: "ASK_SOURCE_INVALID"})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{wrapped, "ASK_SOURCE_INVALID"},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOSPC}, CodeIO},
		{fmt.Errorf("write: %w", syscall.EROFS), CodeIO},
		{errors.New("a bug"), CodeInternal},
	} {
		if got := CodeOf(tc.err); got != tc.want {
			t.Errorf("CodeOf(%v) = %s, want %s", tc.err, got, tc.want)
		}
	}
	if !Is(wrapped, "ASK_SOURCE_INVALID") || Is(wrapped, CodeIO) {
		t.Errorf("Is(%v) disagrees with CodeOf", wrapped)
	}
	if got := TryOf(&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOSPC}); len(got) != 1 {
		t.Errorf("TryOf(an I/O failure) = %v, want the generic action", got)
	}
	if got := TryOf(errors.New("a bug")); got != nil {
		t.Errorf("TryOf(an uncoded error) = %v, want none", got)
	}
	if got := DetailOf(wrapped); got != nil {
		t.Errorf("DetailOf = %v, want nil", got)
	}
}

func TestUsage(t *testing.T) {
	e := Usage("--%s and --%s exclude each other", "global", "project")
	if e.Code != CodeUsage || e.Message != "--global and --project exclude each other" || len(e.Try) != 1 {
		t.Errorf("Usage = %+v", e)
	}
}

func TestWithHints(t *testing.T) {
	base := &Error{Code: "ASK_X", Message: "it failed", Detail: []string{"fact"}, Try: []string{"generic"}}
	err := WithHints(fmt.Errorf("context: %w", base), []string{"more"}, []string{"precise"})
	if got := err.Error(); got != "context: it failed" {
		t.Errorf("Error() = %q, want the wrapped message", got)
	}
	if CodeOf(err) != "ASK_X" || !errors.Is(err, base) {
		t.Errorf("CodeOf = %q, errors.Is = %v; want ASK_X and true", CodeOf(err), errors.Is(err, base))
	}
	if got := DetailOf(err); !slices.Equal(got, []string{"fact", "more"}) {
		t.Errorf("DetailOf = %q, want [fact more]", got)
	}
	if got := TryOf(err); !slices.Equal(got, []string{"precise", "generic"}) {
		t.Errorf("TryOf = %q, want [precise generic]", got)
	}
	if WithHints(base, nil, nil) != error(base) || WithHints(nil, []string{"x"}, nil) != nil {
		t.Error("WithHints with nothing to add, or of nil, must return its error as it is")
	}
}
