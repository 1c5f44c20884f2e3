package scaffold

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
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
	a, err := Adopt(fsys, "pdf-forms", AdoptOptions{})
	if err != nil {
		t.Fatalf("Adopt error: %v", err)
	}
	files := a.Files
	// SKILL.md says everything; the one note is the capability the
	// folder's script calls for
	if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "capabilities: [runs-scripts], since scripts/fill.py ships code") {
		t.Errorf("Adopt notes = %q, want one, the runs-scripts capability", a.Notes)
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
	if !slices.Contains(m.Capabilities, scan.CapabilityRunsScripts) {
		t.Errorf("capabilities = %v, want runs-scripts for scripts/fill.py", m.Capabilities)
	}
	if rep, err := scan.Package(pkg, scan.Options{}); err != nil || len(rep.Findings) != 0 {
		t.Errorf("content scan of the adopted package = %v, %v; want no finding", rep.Findings, err)
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
	const spec = "Proprietary. LICENSE.txt has complete terms" // the specification's own example
	tests := []struct {
		name        string
		frontMatter string
		files       []string // more files of the folder
		opts        AdoptOptions
		version     string
		license     string
		notes       []string // substrings, one per note
	}{
		{name: "top-level version wins", frontMatter: "version: 2.0.0\nmetadata:\n  version: 1.0.0\n", version: "2.0.0"},
		{name: "metadata version", frontMatter: "metadata:\n  version: 1.5.0\n", version: "1.5.0"},
		{name: "default version", version: DefaultVersion, notes: []string{"version: 0.1.0; SKILL.md declares no version"}},
		// metadata is client metadata: a version there that is not strict
		// semver is not the package's (issue 13, item 5).
		{name: "metadata version 1.0", frontMatter: "metadata:\n  version: \"1.0\"\n", version: DefaultVersion,
			notes: []string{`version: 0.1.0; SKILL.md's metadata.version "1.0" is not a semantic version, so it stays client metadata and the package starts at 0.1.0`}},
		{name: "metadata version v2", frontMatter: "metadata:\n  version: v2.0.0\n", version: DefaultVersion, notes: []string{`metadata.version "v2.0.0"`}},
		{name: "licence from option", opts: AdoptOptions{License: "Apache-2.0"}, version: DefaultVersion, license: "Apache-2.0", notes: []string{"version:"}},
		{name: "same licence twice", frontMatter: "license: MIT\n", opts: AdoptOptions{License: "MIT"}, version: DefaultVersion, license: "MIT", notes: []string{"version:"}},
		{name: "author option", opts: AdoptOptions{Author: "Jo <jo@example.com>"}, version: DefaultVersion, notes: []string{"version:"}},
		// Free text names a bundled file: SEE LICENSE IN it.
		{name: "specification example", frontMatter: "license: " + spec + "\nversion: 1.0.0\n", files: []string{"LICENSE.txt"},
			version: "1.0.0", license: "SEE LICENSE IN LICENSE.txt",
			notes: []string{`license: SEE LICENSE IN LICENSE.txt, for SKILL.md's free text "` + spec + `" (it names LICENSE.txt)`}},
		{name: "Anthropic's wording", frontMatter: "license: Complete terms in LICENSE.txt.\nversion: 1.0.0\n", files: []string{"LICENSE.txt"},
			version: "1.0.0", license: "SEE LICENSE IN LICENSE.txt", notes: []string{"SEE LICENSE IN LICENSE.txt"}},
		{name: "a file in a folder", frontMatter: "license: See legal/TERMS.md\nversion: 1.0.0\n", files: []string{"legal/TERMS.md"},
			version: "1.0.0", license: "SEE LICENSE IN legal/TERMS.md", notes: []string{"it names legal/TERMS.md"}},
		// Free text naming no bundled file: LicenseRef- of its words.
		{name: "the file is missing", frontMatter: "license: " + spec + "\nversion: 1.0.0\n",
			version: "1.0.0", license: "LicenseRef-Proprietary-LICENSE.txt-has-complete-terms", notes: []string{"ship the terms in the package"}},
		{name: "proprietary", frontMatter: "license: Proprietary\nversion: 1.0.0\n", version: "1.0.0", license: "LicenseRef-Proprietary",
			notes: []string{`license: LicenseRef-Proprietary, for SKILL.md's free text "Proprietary"`}},
		{name: "a folder is no licence file", frontMatter: "license: see legal\nversion: 1.0.0\n", files: []string{"legal/x.md"},
			version: "1.0.0", license: "LicenseRef-see-legal", notes: []string{"LicenseRef-see-legal"}},
		{name: "an SPDX id in words", frontMatter: "license: Apache 2.0\nversion: 1.0.0\n", version: "1.0.0", license: "LicenseRef-Apache-2.0",
			notes: []string{"if it means the SPDX licence Apache-2.0, pass --license Apache-2.0"}},
		{name: "long free text", frontMatter: "license: " + strings.Repeat("All rights reserved ", 10) + "\nversion: 1.0.0\n", version: "1.0.0",
			license: "LicenseRef-All-rights-reserved-All-rights-reserved-All-rights-reserved-All", notes: []string{"LicenseRef-All"}},
		{name: "no word at all", frontMatter: "license: \"©\"\nversion: 1.0.0\n", version: "1.0.0", license: "LicenseRef-Custom", notes: []string{"LicenseRef-Custom"}},
		// --license overrides free text.
		{name: "option over free text", frontMatter: "license: " + spec + "\nversion: 1.0.0\n", files: []string{"LICENSE.txt"},
			opts: AdoptOptions{License: "MIT"}, version: "1.0.0", license: "MIT",
			notes: []string{`license: MIT, from --license; SKILL.md's "` + spec + `" stays as it is`}},
		{name: "option naming a bundled file", frontMatter: "license: Proprietary\nversion: 1.0.0\n", files: []string{"TERMS"},
			opts: AdoptOptions{License: "SEE LICENSE IN TERMS"}, version: "1.0.0", license: "SEE LICENSE IN TERMS", notes: []string{"from --license"}},
		{name: "front matter names a bundled file itself", frontMatter: "license: SEE LICENSE IN TERMS\nversion: 1.0.0\n", files: []string{"TERMS"},
			version: "1.0.0", license: "SEE LICENSE IN TERMS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			skill := "---\nname: ab\ndescription: Covers ab. Use when ab.\n" + tt.frontMatter + "---\n# AB\n"
			fsys := fstest.MapFS{"SKILL.md": {Data: []byte(skill)}}
			for _, f := range tt.files {
				fsys[f] = &fstest.MapFile{Data: []byte("terms\n")}
			}
			a, err := Adopt(fsys, "ab", tt.opts)
			if err != nil {
				t.Fatalf("Adopt(%q) error: %v", skill, err)
			}
			m, diags := format.DecodeManifest(a.Files[0].Data, "skill.yaml")
			if diags.HasErrors() {
				t.Fatalf("DecodeManifest = %v", diags)
			}
			if m.Version != tt.version || m.License != tt.license {
				t.Errorf("Adopt(%q) version, license = %q, %q, want %q, %q", skill, m.Version, m.License, tt.version, tt.license)
			}
			if len(a.Notes) != len(tt.notes) {
				t.Errorf("Adopt(%q) notes = %q, want %d containing %q", skill, a.Notes, len(tt.notes), tt.notes)
			} else {
				for i, want := range tt.notes {
					if !strings.Contains(a.Notes[i], want) {
						t.Errorf("Adopt(%q) note %d = %q, want it to contain %q", skill, i, a.Notes[i], want)
					}
				}
			}
			if tt.opts.Author != "" && (len(m.Authors) != 1 || m.Authors[0].Name != "Jo") {
				t.Errorf("Adopt(%q) authors = %+v, want Jo", skill, m.Authors)
			}
			// Whatever was adopted passes strict validation.
			fsys["skill.yaml"] = &fstest.MapFile{Data: a.Files[0].Data}
			pkg, diags := format.Load(fsys, format.LoadOptions{})
			diags = append(diags, validate.Package(pkg, validate.Options{Gate: validate.GateStrict, DirName: "ab"})...)
			for _, d := range diags {
				t.Errorf("Adopt(%q): validate --strict: %s\nskill.yaml:\n%s", skill, d, a.Files[0].Data)
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
		// A licence value written wrongly is reported, not rewritten as free text.
		{"deprecated licence", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nlicense: GPL-2.0\n---\n")}},
			"ab", AdoptOptions{}, "ASK_LICENSE_INVALID", "deprecated SPDX identifier"},
		{"lowercase unlicensed", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nlicense: unlicensed\n---\n")}},
			"ab", AdoptOptions{}, "ASK_LICENSE_INVALID", "capitals"},
		{"licence file missing", fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: x\nlicense: SEE LICENSE IN LICENSE.txt\n---\n")}},
			"ab", AdoptOptions{}, "ASK_LICENSE_INVALID", "names LICENSE.txt, which the folder does not hold"},
		{"option names a missing file", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}},
			"ab", AdoptOptions{License: "SEE LICENSE IN TERMS"}, "ASK_LICENSE_INVALID", "names TERMS"},
		{"bad licence option", fstest.MapFS{"SKILL.md": {Data: []byte(ok)}},
			"ab", AdoptOptions{License: "Apache 2"}, "ASK_LICENSE_INVALID", `"Apache 2"`},
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

// The manifest keeps SKILL.md's free text next to the licence made from
// it, and only then.
func TestAdoptLicenseComment(t *testing.T) {
	const comment = `# Adopted from SKILL.md's license: "Proprietary. LICENSE.txt has complete terms"`
	for _, tc := range []struct {
		opts AdoptOptions
		want bool
	}{{AdoptOptions{}, true}, {AdoptOptions{License: "MIT"}, false}} {
		fsys := fstest.MapFS{
			"SKILL.md":    {Data: []byte("---\nname: ab\ndescription: Covers ab. Use when ab.\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n")},
			"LICENSE.txt": {Data: []byte("terms\n")},
		}
		a, err := Adopt(fsys, "ab", tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(a.Files[0].Data), comment+"\nlicense: "); got != tc.want {
			t.Errorf("Adopt(--license %q) skill.yaml has the free-text comment = %v, want %v:\n%s", tc.opts.License, got, tc.want, a.Files[0].Data)
		}
	}
}
