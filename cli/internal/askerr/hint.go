package askerr

import "slices"

// WithHints returns err with more detail lines and next actions: the code,
// the message and what errors.Is and errors.As find stay err's; the
// detail lines come after err's own, the next actions before err's own
// (they answer it more precisely, such as a corrected command). It
// returns err itself when there is nothing to add.
func WithHints(err error, detail, try []string) error {
	if err == nil || len(detail) == 0 && len(try) == 0 {
		return err
	}
	return &hinted{error: err, detail: detail, try: try}
}

// hinted is an error with the detail lines and next actions WithHints
// added.
type hinted struct {
	error
	detail, try []string
}

// ErrorDetail returns the wrapped error's detail lines, then the added ones.
func (h *hinted) ErrorDetail() []string {
	return append(slices.Clone(DetailOf(h.error)), h.detail...)
}

// ErrorTry returns the added next actions, then the wrapped error's.
func (h *hinted) ErrorTry() []string { return append(slices.Clone(h.try), TryOf(h.error)...) }

// Unwrap returns the wrapped error.
func (h *hinted) Unwrap() error { return h.error }
