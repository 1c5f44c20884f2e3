package termtext

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxPending bounds how much of an unfinished line a Writer holds back.
const maxPending = 64 << 10

// Options configure a Writer.
type Options struct {
	// Allow lists the exact escape sequences the program itself writes —
	// its colours — which pass unchanged; every other ESC is escaped. Nil
	// lets none pass, which is right when colour is off.
	Allow []string
	// Filter, when set, rewrites each escaped piece of output before it
	// is written; the CLI removes credentials with it. It sees whole
	// lines (unless a line grows beyond 64 KiB).
	Filter func(string) string
}

// Writer is the backstop between a program and its terminal: everything
// written to it is escaped like Text, apart from the sequences
// Options.Allow names, so no control sequence reaches the terminal that
// the program did not mean to send. It holds back an unfinished line
// until its new line arrives (or Flush), so that an escape sequence, a
// UTF-8 character or a URL split across two writes is still seen whole.
// A Writer is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	opts    Options
	pending []byte
}

// NewWriter returns a Writer that writes the escaped form of its input to
// w.
func NewWriter(w io.Writer, opts Options) *Writer {
	return &Writer{w: w, opts: opts}
}

// Write escapes every complete line of p (with what earlier writes left
// unfinished) and writes it on; the rest waits for its new line. It
// reports len(p) unless the underlying writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = append(w.pending, p...)
	end := bytes.LastIndexByte(w.pending, '\n') + 1
	if end == 0 && len(w.pending) >= maxPending {
		end = completeRunes(w.pending)
	}
	if end == 0 {
		return len(p), nil
	}
	err := w.emit(w.pending[:end])
	w.pending = append(w.pending[:0], w.pending[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the escaped form of the unfinished line held back, if any.
// Call it before waiting for input after a prompt, and before exiting.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flushLocked()
}

func (w *Writer) flushLocked() error {
	if len(w.pending) == 0 {
		return nil
	}
	err := w.emit(w.pending)
	w.pending = w.pending[:0]
	return err
}

// Raw returns a writer that bypasses the escaping, for output that is not
// text for a person — a protocol stream such as MCP's JSON-RPC on
// standard output — or that the program builds itself from escaped parts
// and control characters of its own (a self-overwriting progress line).
// Each write first flushes what the Writer holds back, so the order of
// the output is kept.
func (w *Writer) Raw() io.Writer { return rawWriter{w} }

// Unwrap returns the writer the escaped output goes to, so that a caller
// can ask whether it is a terminal.
func (w *Writer) Unwrap() io.Writer { return w.w }

type rawWriter struct{ w *Writer }

func (r rawWriter) Write(p []byte) (int, error) {
	r.w.mu.Lock()
	defer r.w.mu.Unlock()
	if err := r.w.flushLocked(); err != nil {
		return 0, err
	}
	return r.w.w.Write(p)
}

// emit escapes b and writes it.
func (w *Writer) emit(b []byte) error {
	s := w.escape(string(b))
	if w.opts.Filter != nil {
		s = w.opts.Filter(s)
	}
	_, err := io.WriteString(w.w, s)
	return err
}

// escape applies Text to s, except to the allowed sequences.
func (w *Writer) escape(s string) string {
	if len(w.opts.Allow) == 0 || !strings.Contains(s, "\x1b") {
		return Text(s)
	}
	var b strings.Builder
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			continue
		}
		for _, a := range w.opts.Allow {
			if a != "" && strings.HasPrefix(s[i:], a) {
				b.WriteString(Text(s[start:i]))
				b.WriteString(a)
				i += len(a) - 1
				start = i + 1
				break
			}
		}
	}
	b.WriteString(Text(s[start:]))
	return b.String()
}

// completeRunes returns the length of the longest prefix of b that does
// not end inside a UTF-8 sequence.
func completeRunes(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return len(b)
			}
			return len(b) - k
		}
	}
	return len(b)
}
