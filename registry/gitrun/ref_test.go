package gitrun

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckRef(t *testing.T) {
	for _, tt := range []struct {
		ref string
		ok  bool
	}{
		{"main", true},
		{"v1.2.3", true},
		{"release/2026-01", true},
		{"feature/a_b.c+d=e", true},
		{"0123456789abcdef0123456789abcdef01234567", true},
		{"caf\u00e9", true},
		{"", false},
		{"-x", false},
		{"--upload-pack=touch${IFS}/tmp/PWNED;git-upload-pack", false},
		{"-cprotocol.ext.allow=always", false},
		{"+refs/heads/main", false},
		{"$(touch x)", false},
		{"a`touch x`", false},
		{"a;b", false},
		{"a|b", false},
		{"a&b", false},
		{"a>b", false},
		{"a'b", false},
		{`a"b`, false},
		{"a!b", false},
		{"a b", false},
		{"a\tb", false},
		{"a\nb", false},
		{"a\x1b[31mb", false},
		{"a\u0085b", false},
		{"a\u202eb", false},
		{"a\u200bb", false},
		{"a\u00a0b", false},
		{"a\xffb", false},
		{"a..b", false},
		{"a@{1}", false},
		{"@", false},
		{"a.lock", false},
		{"a/.b", false},
		{".a", false},
		{"a/", false},
		{"/a", false},
		{"a//b", false},
		{"a.", false},
		{"a~1", false},
		{"a^", false},
		{"a:b", false},
		{"a?", false},
		{"a*", false},
		{"a[", false},
		{`a\b`, false},
		{strings.Repeat("a", MaxRefLength), true},
		{strings.Repeat("a", MaxRefLength+1), false},
	} {
		err := CheckRef(tt.ref)
		if (err == nil) != tt.ok {
			t.Errorf("CheckRef(%q) = %v, want ok=%v", tt.ref, err, tt.ok)
		}
		var re *RefError
		if err != nil && (!errors.As(err, &re) || re.Reason == "") {
			t.Errorf("CheckRef(%q) = %#v, want a *RefError with a reason", tt.ref, err)
		}
	}
}

// The refused name is printed escaped: a server's control characters
// never reach the terminal.
func TestRefErrorIsEscaped(t *testing.T) {
	err := CheckRef("-a\x1b]0;owned\x07\u202e")
	if err == nil {
		t.Fatal("CheckRef(escape sequence) = nil, want an error")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07\u202e") || !strings.Contains(msg, `\x1b`) || !strings.Contains(msg, `\u202e`) {
		t.Errorf("CheckRef(escape sequence).Error() = %q, want the controls escaped", msg)
	}
}

func TestIsCommitID(t *testing.T) {
	for _, tt := range []struct {
		s  string
		ok bool
	}{
		{strings.Repeat("a", 40), true},
		{strings.Repeat("0", 64), true},
		{strings.Repeat("a", 39), false},
		{strings.Repeat("A", 40), false},
		{"-" + strings.Repeat("a", 39), false},
		{"FETCH_HEAD", false},
	} {
		if got := IsCommitID(tt.s); got != tt.ok {
			t.Errorf("IsCommitID(%q) = %v, want %v", tt.s, got, tt.ok)
		}
	}
}

func TestPickDefault(t *testing.T) {
	for _, tt := range []struct {
		heads   []string
		want    string
		refused bool
	}{
		{[]string{"dev", "main"}, "main", false},
		{[]string{"master", "dev"}, "master", false},
		{[]string{"trunk"}, "trunk", false},
		{[]string{"a", "b"}, "", false},
		{nil, "", false},
		{[]string{"--upload-pack=touch x;git-upload-pack"}, "", true},
		{[]string{"$(touch x)"}, "", true},
		// main wins: the hostile branch is never chosen, so it is no error.
		{[]string{"--upload-pack=x", "main"}, "main", false},
	} {
		got, err := PickDefault(tt.heads)
		var re *RefError
		if got != tt.want || errors.As(err, &re) != tt.refused {
			t.Errorf("PickDefault(%q) = %q, %v, want %q refused=%v", tt.heads, got, err, tt.want, tt.refused)
		}
	}
}

func TestParseRefs(t *testing.T) {
	out := "aaa\trefs/heads/main\nbbb\trefs/heads/--upload-pack=x\r\nccc\trefs/tags/v1\nnot a line\nddd\trefs/heads/\n"
	got := ParseRefs(out, "refs/heads/")
	if strings.Join(got, ",") != "main,--upload-pack=x" {
		t.Errorf("ParseRefs(heads) = %q, want [main --upload-pack=x]", got)
	}
	if got := ParseRefs(out, "refs/tags/"); len(got) != 1 || got[0] != "v1" {
		t.Errorf("ParseRefs(tags) = %q, want [v1]", got)
	}
}

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"main", `"main"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"a\x1bb", `"a\x1bb"`},
		{"a\nb", `"a\nb"`},
		{"caf\u00e9", "\"caf\u00e9\""},
		{"a\u202eb", `"a\u202eb"`},
		{"a\xffb", `"a\xffb"`},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzCheckRef holds CheckRef to its promise: whatever a server sends, an
// accepted name can never be read as an option or a forced refspec, and
// carries no shell metacharacter, control or invisible character.
func FuzzCheckRef(f *testing.F) {
	for _, s := range []string{"main", "v1.0.0", "--upload-pack=x", "$(x)", "a\x1bb", "a\u202e", "refs/heads/x", "a..b", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckRef(s) != nil {
			return
		}
		if s == "" || s[0] == '-' || s[0] == '+' || !utf8.ValidString(s) || len(s) > MaxRefLength ||
			strings.ContainsAny(s, shellMeta+" \t\n\r\x00\x1b\x7f~^:?*[\\") || strings.Contains(s, "..") {
			t.Fatalf("CheckRef(%q) = nil, want a refusal", s)
		}
		if q := Quote(s); strings.ContainsFunc(q, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("Quote(%q) = %q holds a control character", s, q)
		}
	})
}
