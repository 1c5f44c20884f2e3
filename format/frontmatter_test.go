package format

import (
	"errors"
	"testing"
)

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		present  bool
		data     string
		line     int
		body     string
		bodyLine int
	}{
		{"plain", "---\nname: a\n---\n# Title\n", true, "name: a\n", 2, "# Title\n", 4},
		{"absent", "# Title\n---\n", false, "", 0, "# Title\n---\n", 1},
		{"empty file", "", false, "", 0, "", 1},
		{"bom", "\ufeff---\nname: a\n---\nbody", true, "name: a\n", 2, "body", 4},
		{"bom absent", "\ufeff# T\n", false, "", 0, "# T\n", 1},
		{"crlf", "---\r\nname: a\r\n---\r\nbody\r\n", true, "name: a\r\n", 2, "body\r\n", 4},
		{"empty block", "---\n---\n", true, "", 2, "", 3},
		{"empty block no newline", "---\n---", true, "", 2, "", 3},
		{"closing at eof", "---\na: 1\n---", true, "a: 1\n", 2, "", 4},
		{"trailing whitespace delimiters", "--- \t\na: 1\n---  \nb", true, "a: 1\n", 2, "b", 4},
		{"indented dashes in block scalar", "---\nd: |\n  x\n  ---\n  y\n---\nbody\n", true, "d: |\n  x\n  ---\n  y\n", 2, "body\n", 7},
		{"four dashes are content", "---\na: 1\n----\n---\nz", true, "a: 1\n----\n", 2, "z", 5},
		{"dashes then text are content", "---\na: 1\n--- x\n---\n", true, "a: 1\n--- x\n", 2, "", 5},
		{"opening with text is not front matter", "---x\na\n---\n", false, "", 0, "---x\na\n---\n", 1},
		{"body keeps later delimiters", "---\na: 1\n---\ntext\n---\nmore\n", true, "a: 1\n", 2, "text\n---\nmore\n", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := SplitFrontMatter([]byte(tt.in))
			if err != nil {
				t.Fatalf("SplitFrontMatter(%q) error = %v, want nil", tt.in, err)
			}
			got := []any{fm.Present, string(fm.Data), fm.Line, string(fm.Body), fm.BodyLine}
			want := []any{tt.present, tt.data, tt.line, tt.body, tt.bodyLine}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("SplitFrontMatter(%q) = %q, want %q", tt.in, got, want)
					break
				}
			}
		})
	}
}

func TestSplitFrontMatterUnclosed(t *testing.T) {
	for _, in := range []string{"---", "---\n", "---\nname: a\n", "\ufeff---\r\nname: a\r\n  ---\r\n", "---\na\n ---\n"} {
		_, err := SplitFrontMatter([]byte(in))
		var fe *FrontMatterError
		if !errors.As(err, &fe) || fe.Line != 1 {
			t.Errorf("SplitFrontMatter(%q) error = %v, want a *FrontMatterError on line 1", in, err)
		}
	}
}
