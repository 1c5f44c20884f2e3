package format

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheckPath(t *testing.T) {
	tests := []struct {
		path    string
		want    string // substring of the rule; "" means portable
		escapes bool
	}{
		{"SKILL.md", "", false},
		{"references/guide.md", "", false},
		{"assets/logo v2.png", "", false},
		{".hidden/x", "", false},
		{"a..b/c", "", false},
		{"console.md", "", false},
		{"com10.txt", "", false},
		{"COMA", "", false},
		{"lpt", "", false},
		{"notes/con-artist.md", "", false},
		{"ünïcode/ファイル.md", "", false},
		{"", "is empty", false},
		{"\xff", "is not valid UTF-8", false},
		{strings.Repeat("a/", 513), "is 1026 bytes; the limit is 1024", false},
		{"a\x00b", "control character 0x00 at byte 1", false},
		{"a\x7fb", "control character 0x7f", false},
		{`\\srv\share`, "is a UNC network path", true},
		{"//srv/share", "is a UNC network path", true},
		{"/etc/passwd", "is absolute", true},
		{`\x`, "is absolute", true},
		{"C:x", `starts with the drive letter "C:"`, true},
		{"../x", `escapes the package with a ".." segment`, true},
		{"a/..", `".." segment`, true},
		{`a\..\b`, `".." segment`, true},
		{`references/back\slash.md`, "contains a backslash", false},
		{"a//b", "has an empty segment", false},
		{"a/", "has an empty segment", false},
		{"./a", `has a "." segment`, false},
		{strings.Repeat("a", 256), "has a segment of 256 bytes; the limit is 255", false},
		{"x/a:b", `contains ':'`, false},
		{"a<b", `contains '<'`, false},
		{"a>b", `contains '>'`, false},
		{`a"b`, `contains '"'`, false},
		{"a|b", `contains '|'`, false},
		{"what?.md", `contains '?'`, false},
		{"a*", `contains '*'`, false},
		{"trail.", "ending in a dot", false},
		{"dir./x", `"dir." ending in a dot`, false},
		{"name ", "ending in a space", false},
		{"CON", "reserved device name", false},
		{"con.txt", "reserved device name", false},
		{"dir/Nul.tar.gz", "reserved device name", false},
		{"references/aux.md", `"aux.md", a reserved device name`, false},
		{"PRN", "reserved device name", false},
		{"COM0", "reserved device name", false},
		{"com1.md", "reserved device name", false},
		{"LPT0.txt", "reserved device name", false},
		{"lpt9", "reserved device name", false},
		{"COM¹", "reserved device name", false},
		{"com².md", "reserved device name", false},
		{"LPT³.txt", "reserved device name", false},
		{"CON .txt", "reserved device name", false},
		{"conin$", "reserved device name", false},
		{"CONOUT$.log", "reserved device name", false},
	}
	for _, tt := range tests {
		err := CheckPath(tt.path)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckPath(%q) = %v, want nil", tt.path, err)
			}
			continue
		}
		var pe *PathError
		if !errors.As(err, &pe) || !strings.Contains(pe.Rule, tt.want) || pe.Path != tt.path {
			t.Errorf("CheckPath(%q) = %v, want a *PathError whose rule contains %q", tt.path, err, tt.want)
			continue
		}
		if pe.Escapes != tt.escapes {
			t.Errorf("CheckPath(%q).Escapes = %v, want %v", tt.path, pe.Escapes, tt.escapes)
		}
	}
}

func TestCheckEntryPath(t *testing.T) {
	tests := []struct{ path, want string }{
		{"references/", ""},
		{"a/b/", ""},
		{"/", "is absolute"},
		{"a//", "has an empty segment"},
		{"aux/", "reserved device name"},
		{strings.Repeat("a/", 513), "is 1026 bytes"},
	}
	for _, tt := range tests {
		err := CheckEntryPath(tt.path)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckEntryPath(%q) = %v, want %q", tt.path, err, tt.want)
		}
	}
	if CheckPath("references/") == nil {
		t.Errorf(`CheckPath("references/") = nil, want an error: a file path has no trailing "/"`)
	}
}

func TestFoldPath(t *testing.T) {
	same := [][2]string{
		{"A.md", "a.md"},
		{"Docs/README.md", "docs/readme.md"},
		{"caf\u00e9.md", "cafe\u0301.md"},      // NFC and NFD
		{"CAF\u00c9.md", "cafe\u0301.md"},      // case and normalisation
		{"\u212a.md", "k.md"},                  // the Kelvin sign folds to k
		{"stra\u00dfe", "STRA\u00dfE"},         // ß has no simple upper case
		{"\u017f.md", "s.md"},                  // the long s folds to s
		{"\u00c5.md", "\u212b.md"},             // Å and the Ångström sign
		{"\u1e9b\u0323", "\u017f\u0323\u0307"}, // canonical reordering
	}
	for _, p := range same {
		if FoldPath(p[0]) != FoldPath(p[1]) {
			t.Errorf("FoldPath(%q) = %q, FoldPath(%q) = %q, want equal", p[0], FoldPath(p[0]), p[1], FoldPath(p[1]))
		}
	}
	differ := [][2]string{{"a.md", "b.md"}, {"cafe.md", "caf\u00e9.md"}, {"a/b", "a-b"}}
	for _, p := range differ {
		if FoldPath(p[0]) == FoldPath(p[1]) {
			t.Errorf("FoldPath(%q) = FoldPath(%q) = %q, want different", p[0], p[1], FoldPath(p[0]))
		}
	}
}

func TestCheckPaths(t *testing.T) {
	type want struct{ path, other, rule string }
	tests := []struct {
		name  string
		paths []string
		want  []want
	}{
		{"portable", []string{"SKILL.md", "references/a.md", "references/b.md"}, nil},
		{"case", []string{"references/a.md", "references/A.md", "SKILL.md"},
			[]want{{"references/a.md", "references/A.md", "differs only in case"}}},
		{"three cases", []string{"x.md", "X.md", "X.MD"},
			[]want{{"X.md", "X.MD", "differs only in case"}, {"x.md", "X.MD", "differs only in case"}}},
		{"normalisation", []string{"r/caf\u00e9.md", "r/cafe\u0301.md"},
			[]want{{"r/caf\u00e9.md", "r/cafe\u0301.md", "another Unicode normalisation"}}},
		{"folder case", []string{"Docs/x.md", "docs/y.md"},
			[]want{{"docs/y.md", "Docs", `is in the folder "docs", which differs only in case from "Docs"`}}},
		{"file and folder", []string{"a", "a/b"},
			[]want{{"a/b", "a", `makes "a" both a file and a folder`}}},
		{"file and folder in case", []string{"A/x", "a"},
			[]want{{"a", "A", "differs only in case"}}},
		{"twice", []string{"a.md", "a.md"}, []want{{"a.md", "", "appears twice"}}},
		{"every rule at once", []string{"SKILL.md", "references/A.md", "references/a.md", "references/aux.md", "references/x:y.md", "references/trail.", `references/back\slash.md`},
			[]want{
				{"references/a.md", "references/A.md", "differs only in case"},
				{"references/aux.md", "", "reserved device name"},
				{`references/back\slash.md`, "", "backslash"},
				{"references/trail.", "", "ending in a dot"},
				{"references/x:y.md", "", `contains ':'`},
			}},
	}
	for _, tt := range tests {
		got := CheckPaths(tt.paths)
		if len(got) != len(tt.want) {
			t.Errorf("%s: CheckPaths(%q) = %v, want %d problems", tt.name, tt.paths, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			g := got[i]
			if g.Path != w.path || g.Other != w.other || !strings.Contains(g.Rule, w.rule) {
				t.Errorf("%s: CheckPaths(%q)[%d] = {%q %q %q}, want {%q %q containing %q}", tt.name, tt.paths, i, g.Path, g.Other, g.Rule, w.path, w.other, w.rule)
			}
		}
	}
}

// A package whose files some system cannot create as themselves is
// refused by Load, every offending file at once, each with its rule.
func TestLoadRefusesUnportableFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":                 {Data: []byte(typicalSkill)},
		"references/A.md":          {Data: []byte("1")},
		"references/a.md":          {Data: []byte("2")},
		"references/aux.md":        {Data: []byte("3")},
		"references/x:y.md":        {Data: []byte("4")},
		"references/trail.":        {Data: []byte("5")},
		`references/back\slash.md`: {Data: []byte("6")},
		"references/caf\u00e9.md":  {Data: []byte("7")},
		"references/cafe\u0301.md": {Data: []byte("8")},
		"references/COM\u00b9.txt": {Data: []byte("9")},
		"references/fine-name.md":  {Data: []byte("10")},
	}
	pkg, diags := Load(fsys, LoadOptions{})
	refused := map[string]string{}
	for _, d := range diags {
		if d.Code == "ASK_PACKAGE_UNSAFE_FILE" && d.Severity == SeverityError {
			refused[d.File] = d.Message
		}
	}
	for _, f := range []string{"references/a.md", "references/aux.md", "references/x:y.md", "references/trail.",
		`references/back\slash.md`, "references/caf\u00e9.md", "references/COM\u00b9.txt"} {
		if refused[f] == "" {
			t.Errorf("Load: no ASK_PACKAGE_UNSAFE_FILE for %q; diagnostics %v", f, diags)
		}
		for _, g := range pkg.Files {
			if g == f {
				t.Errorf("Load: the file set keeps the refused %q", f)
			}
		}
	}
	if len(refused) != 7 {
		t.Errorf("Load refused %d files (%v), want 7", len(refused), refused)
	}
	want := []string{"SKILL.md", "references/A.md", "references/cafe\u0301.md", "references/fine-name.md"}
	if strings.Join(pkg.Files, ",") != strings.Join(want, ",") {
		t.Errorf("Load: Files = %q, want %q", pkg.Files, want)
	}
}
