package termtext

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWriter(t *testing.T) {
	colours := []string{"\x1b[31m", "\x1b[0m"}
	tests := []struct {
		name   string
		allow  []string
		writes []string
		want   string
	}{
		{"plain", nil, []string{"hello\n"}, "hello\n"},
		{"escape", nil, []string{"a\x1b[2Jb\n"}, "a\\x1b[2Jb\n"},
		{"colour off", nil, []string{"\x1b[31mred\x1b[0m\n"}, "\\x1b[31mred\\x1b[0m\n"},
		{"colour on", colours, []string{"\x1b[31mred\x1b[0m\n"}, "\x1b[31mred\x1b[0m\n"},
		{"only exact sequences", colours, []string{"\x1b[31;8mhidden\x1b[0m\n"}, "\\x1b[31;8mhidden\x1b[0m\n"},
		{"osc with colour on", colours, []string{"\x1b]52;c;eA==\a\n"}, "\\x1b]52;c;eA==\\x07\n"},
		{"split sequence", nil, []string{"a\x1b", "[2J\n"}, "a\\x1b[2J\n"},
		{"split allowed sequence", colours, []string{"\x1b[3", "1mred\x1b", "[0m\n"}, "\x1b[31mred\x1b[0m\n"},
		{"split rune", nil, []string{"caf\xc3", "\xa9\n"}, "café\n"},
		{"split crlf", nil, []string{"line\r", "\n"}, "line\r\n"},
		{"lone cr", nil, []string{"100%\rforged\n"}, "100%\\rforged\n"},
		{"c1", nil, []string{"\u009b2J\n"}, "\\u009b2J\n"},
		{"unfinished line", nil, []string{"no new line \x1b"}, "no new line \\x1b"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		w := NewWriter(&out, Options{Allow: tt.allow})
		for _, s := range tt.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Fatalf("%s: Write(%q) = %d, %v; want %d, nil", tt.name, s, n, err, len(s))
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("%s: Writer wrote %q, want %q", tt.name, out.String(), tt.want)
		}
	}
}

func TestWriterHoldsBackUnfinishedLines(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{})
	w.Write([]byte("Install which? "))
	if out.Len() != 0 {
		t.Errorf("Writer wrote %q before the line ended or Flush", out.String())
	}
	w.Flush()
	if out.String() != "Install which? " {
		t.Errorf("after Flush the Writer wrote %q, want the prompt", out.String())
	}
}

func TestWriterBoundsWhatItHoldsBack(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{})
	long := strings.Repeat("é", maxPending) // two bytes each, no new line
	w.Write([]byte(long))
	if out.Len() == 0 || out.Len()%2 != 0 {
		t.Fatalf("after %d bytes without a new line the Writer wrote %d bytes, want a non-empty run of whole runes", len(long), out.Len())
	}
	w.Flush()
	if out.String() != long {
		t.Errorf("Writer changed a long line of plain text")
	}
}

func TestWriterFilter(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{Filter: func(s string) string { return strings.ReplaceAll(s, "s3cret", "***") }})
	w.Write([]byte("https://u:s3"))
	w.Write([]byte("cret@host/\n"))
	if got, want := out.String(), "https://u:***@host/\n"; got != want {
		t.Errorf("Writer with a filter wrote %q, want %q", got, want)
	}
}

func TestWriterRaw(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, Options{})
	w.Write([]byte("held \x1b"))
	w.Raw().Write([]byte("\rprogress"))
	w.Write([]byte("\n"))
	if got, want := out.String(), "held \\x1b\rprogress\n"; got != want {
		t.Errorf("Writer and its Raw wrote %q, want %q", got, want)
	}
	if w.Unwrap() != &out {
		t.Errorf("Unwrap() is not the underlying writer")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterReportsFailures(t *testing.T) {
	w := NewWriter(failWriter{}, Options{})
	if _, err := w.Write([]byte("line\n")); err == nil {
		t.Errorf("Write to a failing writer = nil error, want the failure")
	}
}
