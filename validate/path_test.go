package validate

import (
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestCheckPath(t *testing.T) {
	tests := []struct {
		path string
		want string // substring of the message; "" means safe
	}{
		{"SKILL.md", ""},
		{"references/", ""},
		{"references/guide.md", ""},
		{"assets/logo v2.png", ""},
		{"scripts/run.sh", ""},
		{".hidden/x", ""},
		{"a..b/c", ""},
		{"console.md", ""},
		{"com10.txt", ""},
		{"notes/con-artist.md", ""},
		{"ünïcode/ファイル.md", ""},
		{"", "is empty"},
		{"/etc/passwd", "is absolute"},
		{`\x`, "is absolute"},
		{"C:", `starts with the drive letter "C:"`},
		{"c:/windows", `starts with the drive letter "c:"`},
		{`\\srv\share`, "is a UNC network path"},
		{"//srv/share", "is a UNC network path"},
		{`a\b`, "contains a backslash"},
		{"../x", `escapes the package with a ".." segment`},
		{"a/../../x", `".." segment`},
		{"a/..", `".." segment`},
		{`a\..\b`, `".." segment`},
		{"a//b", "has an empty segment"},
		{"a//", "has an empty segment"},
		{"./a", `has a "." segment`},
		{"a/./b", `has a "." segment`},
		{"a\x00b", "control character 0x00 at byte 1"},
		{"a\nb", "control character 0x0a"},
		{"a\x7fb", "control character 0x7f"},
		{"CON", "reserved device name"},
		{"con.txt", "reserved device name"},
		{"dir/Nul.tar.gz", "reserved device name"},
		{"aux", "reserved device name"},
		{"COM1", "reserved device name"},
		{"lpt9.md", "reserved device name"},
		{"COM¹", "reserved device name"},
		{"COM0", "reserved device name"},
		{"lpt0.md", "reserved device name"},
		{"LPT³.txt", "reserved device name"},
		{"CON .txt", "reserved device name"},
		{"conin$", "reserved device name"},
		{"name.", "ending in a dot"},
		{"dir./x", "ending in a dot"},
		{"name ", "ending in a space"},
		{"a<b", `contains '<'`},
		{"what?.md", `contains '?'`},
		{"a*", `contains '*'`},
		{"a|b", `contains '|'`},
		{`a"b`, `contains '"'`},
		{"x/a:b", `contains ':'`},
		{strings.Repeat("a", 256), "has a segment of 256 bytes; the limit is 255"},
		{strings.Repeat("a/", 513), "is 1026 bytes; the limit is 1024"},
		{"\xff", "is not valid UTF-8"},
	}
	for _, tt := range tests {
		err := CheckPath(tt.path)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckPath(%q) = %v, want nil", tt.path, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckPath(%q) = %v, want message containing %q", tt.path, err, tt.want)
			continue
		}
		if p := err.(*Problem); p.Code != "ASK_FILES_UNSAFE_PATH" || p.Fix == "" {
			t.Errorf("CheckPath(%q) = %+v, want ASK_FILES_UNSAFE_PATH with a fix", tt.path, p)
		}
	}
}

func TestCheckFiles(t *testing.T) {
	files := []string{"SKILL.md", "references/", "../up", "references", "skill.yaml", "Skill.MD", "SKILL.md"}
	got := CheckFiles(files)
	want := []struct{ field, code, msg string }{
		{"files[2]", "ASK_FILES_UNSAFE_PATH", `".." segment`},
		{"files[3]", "ASK_FILES_DUPLICATE", `repeats files[1] ("references/")`},
		{"files[5]", "ASK_FILES_DUPLICATE", "differs only in case from files[0]"},
		{"files[6]", "ASK_FILES_DUPLICATE", "repeats files[0]"},
	}
	if len(got) != len(want) {
		t.Fatalf("CheckFiles(%q) = %d problems %v, want %d", files, len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Field != w.field || g.Code != w.code || !strings.Contains(g.Message, w.msg) {
			t.Errorf("CheckFiles(%q)[%d] = %s %s %q, want %s %s containing %q", files, i, g.Field, g.Code, g.Message, w.field, w.code, w.msg)
		}
	}
}

// Entries that name one file on a normalising file system (macOS) are
// duplicates too, not only those that differ in case.
func TestCheckFilesNormalisation(t *testing.T) {
	files := []string{"SKILL.md", "references/caf\u00e9.md", "references/cafe\u0301.md", "references/CAF\u00c9.md"}
	got := CheckFiles(files)
	if len(got) != 2 {
		t.Fatalf("CheckFiles(%q) = %v, want 2 problems", files, got)
	}
	for i, w := range []string{"files[2]", "files[3]"} {
		if got[i].Field != w || got[i].Code != "ASK_FILES_DUPLICATE" || !strings.Contains(got[i].Message, "files[1]") {
			t.Errorf("CheckFiles(%q)[%d] = %s %s %q, want %s ASK_FILES_DUPLICATE of files[1]", files, i, got[i].Field, got[i].Code, got[i].Message, w)
		}
	}
	if !strings.Contains(got[0].Message, "Unicode normalisation") {
		t.Errorf("CheckFiles(%q)[0] = %q, want it to name the normalisation", files, got[0].Message)
	}
}

func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"SKILL.md", "references/", "../x", `\\srv\x`, "C:x", "con.txt", "a//b", "a\x00", "ü/ß.", "COM¹", "a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		err := CheckPath(p)
		if err != nil {
			if _, ok := err.(*Problem); !ok {
				t.Fatalf("CheckPath(%q) returned %T, want *Problem", p, err)
			}
			return
		}
		// Whatever CheckPath accepts must be a relative path that stays
		// inside the package on every system.
		clean := strings.TrimSuffix(p, "/")
		switch {
		case p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\:*?\"<>|\x00"):
			t.Fatalf("CheckPath(%q) = nil, want an error for an absolute or non-portable path", p)
		case clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(clean, "/../") || strings.HasSuffix(clean, "/.."):
			t.Fatalf("CheckPath(%q) = nil, want an error for a traversal", p)
		}
		for _, seg := range strings.Split(clean, "/") {
			if seg == "" || seg == "." || len(seg) > format.MaxSegmentLength {
				t.Fatalf("CheckPath(%q) = nil, but segment %q is unsafe", p, seg)
			}
		}
	})
}
