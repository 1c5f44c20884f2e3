package termtext

import (
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Formats code. Use when formatting.", "Formats code. Use when formatting."},
		{`C:\path\to and 100%`, `C:\path\to and 100%`},
		{"naïve café — 日本語 ✓", "naïve café — 日本語 ✓"},
		{"\x1b[2J\x1b[1;31mRED\x1b[0m", `\x1b[2J\x1b[1;31mRED\x1b[0m`},
		{"\x1b]52;c;Y3VybCBldmlsIHwgc2gK\a", `\x1b]52;c;Y3VybCBldmlsIHwgc2gK\x07`},
		{"\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example/\x1b\docs\x1b]8;;\x1b\`},
		{"one\ntwo\r\nthree\tfour", `one\ntwo\r\nthree\tfour`},
		{"nul\x00 bs\b del\x7f", `nul\x00 bs\x08 del\x7f`},
		{"csi \u009b2J nel \u0085", `csi \u009b2J nel \u0085`},
		{"raw C1 byte \x9b2J", `raw C1 byte \x9b2J`},
		{"bad \xff\xfe utf8 \xe2\x82", `bad \xff\xfe utf8 \xe2\x82`},
		{"admin\u202e\u2066txt.exe\u2069", `admin\u202e\u2066txt.exe\u2069`},
		{"marks \u200e\u200f\u061c", `marks \u200e\u200f\u061c`},
		{"sep\u2028para\u2029", `sep\u2028para\u2029`},
		{"replacement char \ufffd is text", "replacement char \ufffd is text"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"# Title\n\nBody\twith a tab.\n", "# Title\n\nBody\twith a tab.\n"},
		{"crlf\r\nlines\r\n", "crlf\r\nlines\r\n"},
		{"lone\rcarriage return", `lone\rcarriage return`},
		{"ends with cr\r", `ends with cr\r`},
		{"\x1b[2Jcleared\n", "\\x1b[2Jcleared\n"},
		{"\u009b31m\n", "\\u009b31m\n"},
		{"right-to-left \u202bשלום\u202c\n", "right-to-left \u202bשלום\u202c\n"},
		{"\xc0\x80 overlong\n", "\\xc0\\x80 overlong\n"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// checkLine fails when out holds anything Line must have escaped.
func checkLine(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Line(%q) = %q, not valid UTF-8", in, out)
	}
	for i, r := range out {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || isBidi(r) {
			t.Fatalf("Line(%q) = %q holds %U at byte %d", in, out, r, i)
		}
	}
}

// checkText fails when out holds anything Text must have escaped.
func checkText(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Text(%q) = %q, not valid UTF-8", in, out)
	}
	for i, r := range out {
		switch {
		case r == '\n', r == '\t':
		case r == '\r' && i+1 < len(out) && out[i+1] == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			t.Fatalf("Text(%q) = %q holds %U at byte %d", in, out, r, i)
		}
	}
}
