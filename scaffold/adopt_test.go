package scaffold

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

const bareSkill = `---
name: pdf-forms
description: >
  Fill in and flatten PDF forms: read the fields, map data onto them and
  check the result. Use when the user asks to fill, inspect or flatten a PDF form.
license: MIT
metadata:
  version: 1.2.0
  author: Jane Doe <jane@example.com>
---

# PDF Forms

Read [the field guide](references/fields.md) first.
`

// bareFS is a bare skill as found in the wild: SKILL.md with supporting
// folders, plus junk that must not be listed.
func bareFS() fstest.MapFS {
	return fstest.MapFS{
		"SKILL.md":             {Data: []byte(bareSkill)},
		"references/fields.md": {Data: []byte("# Fields\n")},
		"scripts/fill.py":      {Data: []byte("print('fill')\n")},
		"LICENSE.txt":          {Data: []byte("MIT License\n")},
		".DS_Store":            {Data: []byte{0}},
		".git/config":          {Data: []byte("[core]\n")},
		"node_modules/x/a.js":  {Data: []byte("1\n")},
	}
}

func TestAdoptPassesStrictValidation(t *testing.T) {
	fsys := bareFS()
	files, err := Adopt(fsys, "pdf-forms", AdoptOptions{})
	if err != nil {
		t.Fatalf("Adopt error: %v", err)
	}
	if got := paths(files); !slices.Equal(got, []string{"skill.yaml"}) {
		t.Fatalf("Adopt paths = %v, want [skill.yaml]", got)
	}
	fsys["skill.yaml"] = &fstest.MapFile{Data: files[0].Data, Mode: files[0].Mode}
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	if pkg == nil {
		t.Fatalf("Load after Adopt = %v", diags)
	}
	diags = append(diags, validate.Package(pkg, validate.Options{Gate: validate.GateStrict, DirName: "pdf-forms"})...)
	for _, d := range diags {
		t.Errorf("adopted package: %s (fix: %s)\nskill.yaml:\n%s", d, d.Fix, files[0].Data)
	}
	m := pkg.Manifest
	if pkg.Bare || m == nil {
		t.Fatalf("adopted package is still bare")
	}
	wantDesc := "Fill in and flatten PDF forms: read the fields, map data onto them and " +
		"check the result. Use when the user asks to fill, inspect or flatten a PDF form."
	checks := []struct{ field, got, want string }{
		{"name", m.Name, "pdf-forms"},
		{"description", m.Description, wantDesc},
		{"version", m.Version, "1.2.0"},
		{"license", m.License, "MIT"},
		{"kind", string(m.Kind), "skill"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("Adopt manifest %s = %q, want %q", c.field, c.got, c.want)
		}
	}
	if want := []string{"LICENSE.txt", "SKILL.md", "references/", "scripts/", "skill.yaml"}; !slices.Equal(m.Files, want) {
		t.Errorf("Adopt manifest files = %v, want %v", m.Files, want)
	}
	if len(m.Authors) != 1 || m.Authors[0].Name != "Jane Doe" || m.Authors[0].Email != "jane@example.com" {
		t.Errorf("Adopt manifest authors = %+v, want Jane Doe <jane@example.com> from metadata.author", m.Authors)
	}
	if !slices.Contains(pkg.Files, "scripts/fill.py") || slices.Contains(pkg.Files, ".DS_Store") {
		t.Errorf("package files = %v, want scripts/fill.py and no .DS_Store", pkg.Files)
	}
}

func TestAdoptVersionAndLicense(t *testing.T) {
	tests := []struct {
		name        string
		frontMatter string
		opts        AdoptOptions
		version     string
		license     string
	}{
		{"top-level version wins", "version: 2.0.0\nmetadata:\n  version: 1.0.0\n", AdoptOptions{}, "2.0.0", ""},
		{"metadata version", "metadata:\n  version: 1.5.0\n", AdoptOptions{}, "1.5.0", ""},
		{"default version", "", AdoptOptions{}, DefaultVersion, ""},
		{"licence from option", "", AdoptOptions{License: "Apache-2.0"}, DefaultVersion, "Apache-2.0"},
		{"same licence twice", "license: MIT\n", AdoptOptions{License: "MIT"}, DefaultVersion, "MIT"},
		{"author option", "", AdoptOptions{Author: "Jo <jo@example.com>"}, DefaultVersion, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			skill := "---\nname: ab\ndescription: Covers ab. Use when ab.\n" + tt.frontMatter + "---\n# AB\n"
			fsys := fstest.MapFS{"SKILL.md": {Data: []byte(skill)}}
			files, err := Adopt(fsys, "ab", tt.opts)
			if err != nil {
				t.Fatalf("Adopt(%q) error: %v", skill, err)
			}
			m, diags := format.DecodeManifest(files[0].Data, "skill.yaml")
			if diags.HasErrors() {
				t.Fatalf("DecodeManifest = %v", diags)
			}
			if m.Version != tt.version || m.License != tt.license {
				t.Errorf("Adopt(%q) version, license = %q, %q, want %q, %q", skill, m.Version, m.License, tt.version, tt.license)
			}
			if tt.opts.Author != "" && (len(m.Authors) != 1 || m.Authors[0].Name != "Jo") {
				t.Errorf("Adopt(%q) authors = %+v, want Jo", skill, m.Authors)
			}
		})
	}
}

func TestAdoptErrors(t *testing.T) {
	ok := "---\nname: ab\ndescription: Covers ab. Use when ab.\n---\n"
	tests := []struct {
		name string
		fsys fstest.MapFS
		dir  string
		opts AdoptOptions
		code string
		msg  string
	}{
		{"has manifest", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}, "skill.yaml": {Data: []byte("name: ab\n")}},
			"ab", AdoptOptions{}, "ASK_USAGE", "already has a manifest"},
		{"no SKILL.md", fstest.MapFS{"README.md": {Data: []byte("# x\n")}},
			"ab", AdoptOptions{}, "ASK_ENTRYPOINT_MISSING", "has no SKILL.md"},
		{"SKILL.md is a folder", fstest.MapFS{"SKILL.md/x": {Data: []byte("x")}},
			"ab", AdoptOptions{}, "ASK_ENTRYPOINT_MISSING", "has no SKILL.md"},
		{"symlink", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}, "link": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink}},
			"ab", AdoptOptions{}, "ASK_PACKAGE_UNSAFE_FILE", "link is a symbolic link"},
		{"named pipe", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}, "fifo": {Mode: fs.ModeNamedPipe}},
			"ab", AdoptOptions{}, "ASK_PACKAGE_UNSAFE_FILE", "named pipe"},
		{"too large", fstest.MapFS{"SKILL.md": {Data: []byte(ok + strings.Repeat("x", format.DefaultMaxEntrypointSize))}},
			"ab", AdoptOptions{}, "ASK_PACKAGE_TOO_LARGE", "the limit is"},
		{"unclosed front matter", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\n")}},
			"ab", AdoptOptions{}, "ASK_FRONTMATTER_INVALID", "SKILL.md:"},
		{"no front matter", fstest.MapFS{"SKILL.md": {Data: []byte("# AB\n")}},
			"ab", AdoptOptions{}, "ASK_FRONTMATTER_FIELD_INVALID", "has no name"},
		{"no name", fstest.MapFS{"SKILL.md": {Data: []byte("---\ndescription: x\n---\n")}},
			"ab", AdoptOptions{}, "ASK_FRONTMATTER_FIELD_INVALID", "has no name"},
		{"invalid name", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: A_B\ndescription: x\n---\n")}},
			"", AdoptOptions{}, "ASK_NAME_INVALID", `"A_B"`},
		{"name mismatch", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}},
			"other", AdoptOptions{}, "ASK_NAME_MISMATCH", `named "ab" but its folder is "other"`},
		{"no description", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: '  '\n---\n")}},
			"ab", AdoptOptions{}, "ASK_FRONTMATTER_FIELD_INVALID", "SKILL.md:3:14: SKILL.md front matter has no description"},
		{"long description", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: " + strings.Repeat("x", 1025) + "\n---\n")}},
			"ab", AdoptOptions{}, "ASK_FRONTMATTER_FIELD_INVALID", "1025 characters"},
		{"float version", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nversion: 1.0\n---\n")}},
			"ab", AdoptOptions{}, "ASK_VERSION_INVALID", `"1.0"`},
		{"bad licence", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nlicense: Apache 2\n---\n")}},
			"ab", AdoptOptions{}, "ASK_LICENSE_INVALID", `"Apache 2"`},
		{"licence conflict", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nlicense: MIT\n---\n")}},
			"ab", AdoptOptions{License: "Apache-2.0"}, "ASK_USAGE", `declares license "MIT"`},
		{"bad author", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}},
			"ab", AdoptOptions{Author: "<>"}, "ASK_USAGE", "author"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := Adopt(tt.fsys, tt.dir, tt.opts)
			if files != nil {
				t.Errorf("Adopt returned files with an error")
			}
			if got := errCode(err); got != tt.code {
				t.Fatalf("Adopt(%s) code = %q (err %v), want %q", tt.name, got, err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Adopt(%s) message = %q, want it to contain %q", tt.name, err.Error(), tt.msg)
			}
			if e := err.(*Error); len(e.ErrorTry()) == 0 {
				t.Errorf("Adopt(%s) has no hint", tt.name)
			}
		})
	}
}

func TestAdoptErrorKeepsDiagnostics(t *testing.T) {
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: [unclosed\n---\n")}}
	_, err := Adopt(fsys, "ab", AdoptOptions{})
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Adopt(bad YAML) error = %v, want *Error", err)
	}
	if e.Code != "ASK_FRONTMATTER_INVALID" || len(e.Diagnostics) == 0 {
		t.Fatalf("Adopt(bad YAML) = code %q with %d diagnostics, want ASK_FRONTMATTER_INVALID with the format diagnostics", e.Code, len(e.Diagnostics))
	}
	if d := e.Diagnostics[0]; d.File != "SKILL.md" || d.Line < 2 {
		t.Errorf("Adopt(bad YAML) diagnostic = %v, want SKILL.md from line 2 on", d)
	}
}
