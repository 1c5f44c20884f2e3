package termtext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"",
	"plain text",
	"Formats code. \x1b]52;c;Y3VybCBldmlsIHwgc2gK\a\x1b[2J\x1b[1;31mRED\x1b[0m Use when formatting.",
	"two\nlines\r\nand\ta tab\rforged",
	"\u009b2J \u0085 \x9b \xff\xfe \xe2\x82",
	"admin\u202e\u2066txt\u2069 \u2028",
	"\x1b[31mred\x1b[0m\x1b[3",
}

// FuzzLine checks that Line never lets a control character, a line
// break, a bidi control or invalid UTF-8 through, and changes nothing in
// text that holds none.
func FuzzLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		checkLine(t, s, out)
		if Line(out) != out {
			t.Fatalf("Line(Line(%q)) changed %q again", s, out)
		}
	})
}

// FuzzText checks that Text never lets a control character other than a
// new line, a tab or the CR of a CRLF through.
func FuzzText(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		checkText(t, s, out)
		if Text(out) != out {
			t.Fatalf("Text(Text(%q)) changed %q again", s, out)
		}
	})
}

// FuzzWriter checks that whatever is written, in whatever pieces, the
// only ESC bytes that come out start an allowed sequence, nothing else a
// terminal acts on comes out, and the pieces do not change the result.
func FuzzWriter(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(3))
	}
	allow := []string{"\x1b[31m", "\x1b[0m"}
	f.Fuzz(func(t *testing.T, s string, step uint8) {
		var whole, pieces bytes.Buffer
		w := NewWriter(&whole, Options{Allow: allow})
		w.Write([]byte(s))
		w.Flush()
		p := NewWriter(&pieces, Options{Allow: allow})
		n := int(step%16) + 1
		for i := 0; i < len(s); i += n {
			p.Write([]byte(s[i:min(i+n, len(s))]))
		}
		p.Flush()
		if whole.String() != pieces.String() {
			t.Fatalf("Writer gives %q in one write but %q in pieces of %d", whole.String(), pieces.String(), n)
		}
		out := whole.String()
		for _, a := range allow {
			out = strings.ReplaceAll(out, a, "")
		}
		checkText(t, s, out)
	})
}

// FuzzJSON checks that JSON output of any string keeps its value and holds
// no raw DEL, C1 or bidi control.
func FuzzJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.Marshal(map[string]string{"v": s})
		if err != nil {
			t.Skip()
		}
		out := JSON(raw)
		var before, after map[string]string
		if err := json.Unmarshal(raw, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("JSON(%s) = %s, not valid JSON: %v", raw, out, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("JSON(%s) = %s changes the value", raw, out)
		}
		checkLine(t, string(raw), strings.NewReplacer("\n", "", "\t", "").Replace(string(out)))
	})
}
