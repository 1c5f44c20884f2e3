package registry

import (
	"strings"
	"testing"
)

func TestCheckPath(t *testing.T) {
	tests := []struct {
		path string
		want string // "" = safe; otherwise a fragment of the reason
	}{
		{"SKILL.md", ""},
		{"references/a b.md", ""},
		{"références/é.md", ""},
		{".github/x.yml", ""},
		{"", "empty"},
		{"/etc/passwd", "absolute"},
		{"../x", `".."`},
		{"a/../../x", `".."`},
		{"a/./b", `"."`},
		{"a//b", "empty path element"},
		{"a/", "empty path element"},
		{`a\b`, "backslash"},
		{"C:/x", "drive"},
		{"c:x", "drive"},
		{"a\x00b", "control"},
		{"a\x7fb", "control"},
		{"\xff", "UTF-8"},
		{"CON", "reserved"},
		{"docs/nul.txt", "reserved"},
		{"com1.md", "reserved"},
		{"LPT9", "reserved"},
		{"COM10", ""},
		{"console.md", ""},
		{"a.", "ends in a dot"},
		{"a ", "ends in a dot or a space"},
		{"ab:c", "reserved on Windows"},
		{"a:b", "drive"},
		{"a?b", "reserved on Windows"},
		{strings.Repeat("a/", 33) + "b", "deeper than 32"},
		{strings.Repeat("a", 256), "longer than 255"},
		{strings.Repeat("abcd/", 205), "longer than 1024"},
	}
	for _, tt := range tests {
		got := checkPath(tt.path)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("checkPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
