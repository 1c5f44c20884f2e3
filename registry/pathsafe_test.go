package registry

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
)

// checkPath is format.CheckPath plus the extractor's depth bound; the
// rules themselves are tested in format.
func TestCheckPath(t *testing.T) {
	tests := []struct {
		path string
		want string // "" = safe; otherwise a fragment of the reason
	}{
		{"SKILL.md", ""},
		{"references/a b.md", ""},
		{"références/é.md", ""},
		{".github/x.yml", ""},
		{"COM10", ""},
		{"console.md", ""},
		{"", "is empty"},
		{"/etc/passwd", "is absolute"},
		{"../x", `".." segment`},
		{"a/../../x", `".." segment`},
		{"a/./b", `has a "." segment`},
		{"a//b", "has an empty segment"},
		{"a/", "has an empty segment"},
		{`a\b`, "backslash"},
		{"C:/x", "drive letter"},
		{"c:x", "drive letter"},
		{"a:b", "drive letter"},
		{"a\x00b", "control character"},
		{"a\x7fb", "control character"},
		{"\xff", "UTF-8"},
		{"CON", "reserved device name"},
		{"docs/nul.txt", "reserved device name"},
		{"com1.md", "reserved device name"},
		{"COM0", "reserved device name"},
		{"LPT9", "reserved device name"},
		{"lpt².txt", "reserved device name"},
		{"a.", "ending in a dot"},
		{"a ", "ending in a space"},
		{"ab:c", "Windows does not allow"},
		{"a?b", "Windows does not allow"},
		{strings.Repeat("a/", 33) + "b", "deeper than 32"},
		{strings.Repeat("a", 256), "segment of 256 bytes"},
		{strings.Repeat("abcd/", 205), "is 1025 bytes"},
	}
	for _, tt := range tests {
		got := checkPath(tt.path)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("checkPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// An archive whose names are not portable is refused with every such name
// listed at once, as ASK_PACKAGE_UNSAFE_FILE: the error a git source, a
// folder or a registry package gives for the same names.
func TestExtractListsEveryUnportableName(t *testing.T) {
	names := []string{"pkg/SKILL.md", "pkg/references/A.md", "pkg/references/a.md", "pkg/references/aux.md",
		"pkg/references/x:y.md", "pkg/references/trail.", "pkg/references/caf\u00e9.md", "pkg/references/cafe\u0301.md", "pkg/COM\u00b9"}
	want := []string{`"pkg/references/a.md" differs only in case from "pkg/references/A.md"`,
		`"pkg/references/aux.md" has the segment "aux.md", a reserved device name on Windows`,
		`"pkg/references/x:y.md" contains ':'`,
		`"pkg/references/trail." has the segment "trail." ending in a dot`,
		"\"pkg/references/cafe\u0301.md\" is, in another Unicode normalisation (NFC/NFD), the same name as \"pkg/references/caf\u00e9.md\"",
		"\"pkg/COM\u00b9\" has the segment \"COM\u00b9\", a reserved device name on Windows",
	}
	var ents []entry
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, n := range names {
		ents = append(ents, entry{name: n, body: "x"})
		w, _ := zw.Create(n)
		w.Write([]byte("x"))
	}
	zw.Close()
	for _, kind := range []string{"tar.gz", "zip"} {
		dir := t.TempDir()
		var err error
		if kind == "zip" {
			_, err = ExtractZip(t.Context(), bytes.NewReader(zb.Bytes()), int64(zb.Len()), dir, DefaultExtractLimits())
		} else {
			_, err = Extract(t.Context(), bytes.NewReader(makeTarGz(t, ents...)), dir, DefaultExtractLimits())
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != "ASK_PACKAGE_UNSAFE_FILE" {
			t.Fatalf("%s: extract = %v, want ASK_PACKAGE_UNSAFE_FILE", kind, err)
		}
		if len(e.Detail) != len(want) {
			t.Errorf("%s: extract listed %d names %q, want %d", kind, len(e.Detail), e.Detail, len(want))
		}
		for _, w := range want {
			if listed := strings.Join(e.Detail, "\n"); !strings.Contains(listed, w) {
				t.Errorf("%s: extract detail = %q, want it to list %s", kind, listed, w)
			}
		}
	}
}

// A body skipped for its name still counts against the limits, so an
// unportable name cannot carry a decompression bomb past them.
func TestExtractSkippedBodyIsBounded(t *testing.T) {
	lim := DefaultExtractLimits()
	lim.MaxFileBytes = 1000
	_, err := Extract(t.Context(), bytes.NewReader(makeTarGz(t, entry{name: "aux.md", body: strings.Repeat("x", 5000)})), t.TempDir(), lim)
	if codeOf(err) != "ASK_ARCHIVE_TOO_LARGE" {
		t.Errorf("Extract(unportable 5000-byte file, limit 1000) = %v, want ASK_ARCHIVE_TOO_LARGE", err)
	}
}
