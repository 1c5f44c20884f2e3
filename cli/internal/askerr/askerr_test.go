package askerr

import (
	"errors"
	"testing"
)

func TestError(t *testing.T) {
	cause := errors.New("disk full")
	e := &Error{Code: "ASK_IO", Message: "cannot write x", Details: []string{"a", "b"}, Try: []string{"retry"}, Err: cause}
	if got, want := e.Error(), "cannot write x: disk full\n  a\n  b"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.ErrorCode() != "ASK_IO" || len(e.ErrorTry()) != 1 || !errors.Is(e, cause) {
		t.Errorf("ErrorCode/ErrorTry/Unwrap = %q, %v, %v", e.ErrorCode(), e.ErrorTry(), errors.Is(e, cause))
	}
}
