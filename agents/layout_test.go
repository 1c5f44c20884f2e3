package agents

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// updateGolden rewrites the golden files under testdata/layout instead of
// comparing against them: AGENTS_UPDATE_GOLDEN=1 go test ./...
var updateGolden = os.Getenv("AGENTS_UPDATE_GOLDEN") == "1"

// javaPerformance is a typical package: manifest with Codex overrides,
// SKILL.md with Claude keys, and supporting files.
func javaPerformance() fstest.MapFS {
	return fstest.MapFS{
		"skill.yaml": {Data: []byte(`schemaVersion: 1
name: java-performance
version: 1.0.0
description: Java performance engineering skill.
license: Apache-2.0
files: [SKILL.md, skill.yaml, references/, scripts/]
agentOverrides:
  codex:
    interface:
      display_name: Java Performance
      short_description: JVM, JIT, GC and allocation diagnostics
      default_prompt: Use $java-performance to find why this service got slower.
`)},
		"SKILL.md": {Data: []byte(`---
name: java-performance
version: 1.0.0
description: >
  Java performance engineering focused on JVM, JIT compilation, GC,
  allocation and profiling. Use when diagnosing latency regressions.
allowed-tools: Read Grep Bash(jcmd *)
argument-hint: "[pid]"
model: sonnet
user-invocable: true
hooks:
  PreToolUse:
    - matcher: Bash
      hooks: [{type: command, command: ./scripts/check.sh}]
x-unknown: dropped by every projection
---
# Java Performance

Read [the GC notes](references/gc.md) first.
`)},
		"references/gc.md": {Data: []byte("# GC\n")},
		"scripts/check.sh": {Data: []byte("#!/bin/sh\nexit 0\n"), Mode: 0o755},
	}
}

// layoutCases are the projection snapshots: each package is projected for
// every reader set listed, and the result compared with a golden file.
func layoutCases() []struct {
	name    string
	fsys    fstest.MapFS
	readers [][]string
} {
	return []struct {
		name    string
		fsys    fstest.MapFS
		readers [][]string
	}{
		{
			name: "java-performance",
			fsys: javaPerformance(),
			readers: [][]string{
				{"claude-code"}, {"codex"}, {"gemini-cli"},
				{"codex", "gemini-cli", "windsurf"},
				{"claude-code", "github-copilot", "cursor"},
			},
		},
		{
			name: "bare",
			fsys: fstest.MapFS{
				"SKILL.md":           {Data: []byte("---\nname: pdf-tools\ndescription: Extract text and tables from PDF files. Use when the user hands you a PDF and wants its content; not for scanned images.\nlicense: MIT\nmetadata:\n  author: jane\n---\nUse `scripts/extract.py`.\n")},
				"scripts/extract.py": {Data: []byte("print('x')\n")},
			},
			readers: [][]string{{"claude-code"}, {"codex"}},
		},
		{
			name: "author-short-description",
			fsys: fstest.MapFS{
				"SKILL.md": {Data: []byte("---\nname: go-review\ndescription: Review Go code for correctness and style issues before merging a change.\nmetadata:\n  short-description: Go code review\n---\nBody\n")},
			},
			readers: [][]string{{"codex"}},
		},
		{
			name: "shipped-openai-yaml",
			fsys: fstest.MapFS{
				"skill.yaml":         {Data: []byte("name: ui-kit\nversion: 0.1.0\ndescription: UI kit helper.\nfiles: [SKILL.md, skill.yaml, agents/]\nagentOverrides:\n  codex:\n    interface:\n      display_name: Ignored Because Shipped\n")},
				"SKILL.md":           {Data: []byte("---\nname: ui-kit\ndescription: Build screens with the company UI kit.\n---\nBody\n")},
				"agents/openai.yaml": {Data: []byte("interface:\n  display_name: \"UI Kit\"\n")},
			},
			readers: [][]string{{"codex"}},
		},
		{
			name: "command",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: fix-issue\nkind: command\nversion: 2.0.0\ndescription: Fix a GitHub issue by number.\nfiles: [COMMAND.md, skill.yaml]\n")},
				"COMMAND.md": {Data: []byte("---\nname: fix-issue\nargument-hint: \"[issue-number]\"\nallowed-tools: Bash(gh issue view:*)\nmodel: haiku\ndisable-model-invocation: true\n---\nFix issue #$ARGUMENTS following our coding standards.\n")},
			},
			readers: [][]string{{"claude-code"}},
		},
	}
}

// loadPackage loads a MapFS package and fails the test on load errors.
func loadPackage(t testing.TB, fsys fstest.MapFS) *format.Package {
	t.Helper()
	pkg, ds := format.Load(fsys, format.LoadOptions{})
	if ds.HasErrors() {
		t.Fatalf("format.Load() diagnostics: %v", ds)
	}
	return pkg
}

// adaptersByID looks the ids up in the default table.
func adaptersByID(t testing.TB, ids []string) []Adapter {
	t.Helper()
	out, err := Default().Select(ids)
	if err != nil {
		t.Fatalf("Select(%q) = %v", ids, err)
	}
	return out
}

// renderLayout prints a layout as a txtar-like text for snapshots.
func renderLayout(l Layout) string {
	var b strings.Builder
	for _, e := range l.Entries {
		if e.CopyFrom != "" {
			fmt.Fprintf(&b, "-- %s (copy of %s) --\n", e.Path, e.CopyFrom)
			continue
		}
		fmt.Fprintf(&b, "-- %s --\n%s", e.Path, e.Content)
		if !bytes.HasSuffix(e.Content, []byte("\n")) {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func TestLayoutGolden(t *testing.T) {
	for _, tc := range layoutCases() {
		pkg := loadPackage(t, tc.fsys)
		for _, ids := range tc.readers {
			name := tc.name + "__" + strings.Join(ids, "+")
			t.Run(name, func(t *testing.T) {
				l, err := LayoutForRoot(pkg, adaptersByID(t, ids))
				if err != nil {
					t.Fatalf("LayoutForRoot(%s, %q) error = %v", tc.name, ids, err)
				}
				got := renderLayout(l)
				file := filepath.Join("testdata", "layout", name+".golden")
				if updateGolden {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("missing golden file (run with AGENTS_UPDATE_GOLDEN=1): %v", err)
				}
				if got != string(want) {
					t.Errorf("LayoutForRoot(%s, %q) =\n%s\nwant\n%s", tc.name, ids, got, want)
				}
			})
		}
	}
}

func TestLayoutForEqualsSingleReaderRoot(t *testing.T) {
	pkg := loadPackage(t, javaPerformance())
	for _, a := range Default().All() {
		one, err1 := a.LayoutFor(pkg)
		root, err2 := LayoutForRoot(pkg, []Adapter{a})
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: LayoutFor error %v, LayoutForRoot error %v", a.ID(), err1, err2)
		}
		if renderLayout(one) != renderLayout(root) {
			t.Errorf("%s: LayoutFor differs from LayoutForRoot with one reader", a.ID())
		}
	}
}

func TestLayoutDeterministic(t *testing.T) {
	pkg := loadPackage(t, javaPerformance())
	readers := adaptersByID(t, []string{"all"})
	first, err := LayoutForRoot(pkg, readers)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		l, err := LayoutForRoot(pkg, readers)
		if err != nil {
			t.Fatal(err)
		}
		if renderLayout(l) != renderLayout(first) {
			t.Fatalf("LayoutForRoot run %d differs from the first run", i)
		}
	}
}

func TestLayoutPreservesBodyBytes(t *testing.T) {
	bodies := []string{
		"# Title\r\n\r\nCRLF body\r\n",
		"no trailing newline",
		"\n\n  leading blank lines and indented --- \n  ---\n",
		"",
		"\ufeffnot a BOM position\n",
	}
	for _, body := range bodies {
		src := "---\r\nname: crlf-skill\r\ndescription: Exercise byte preservation.\r\n---\r\n" + body
		pkg := loadPackage(t, fstest.MapFS{"SKILL.md": {Data: []byte(src)}})
		for _, id := range []string{"claude-code", "codex"} {
			a, _ := Default().Lookup(id)
			l, err := a.LayoutFor(pkg)
			if err != nil {
				t.Fatalf("LayoutFor(%q) error = %v", body, err)
			}
			var ep Entry
			for _, e := range l.Entries {
				if e.Path == "SKILL.md" {
					ep = e
				}
			}
			if !bytes.HasSuffix(ep.Content, []byte("---\n"+body)) {
				t.Errorf("%s LayoutFor(%q) SKILL.md = %q, want it to end with the body unchanged", id, body, ep.Content)
			}
			back, ds := format.DecodeEntrypoint(ep.Content, "SKILL.md", format.KindSkill)
			if ds.HasErrors() {
				t.Fatalf("%s: projected SKILL.md does not decode: %v", id, ds)
			}
			if got := string(back.Body); got != body {
				t.Errorf("%s: decoded body = %q, want %q", id, got, body)
			}
		}
	}
}

func TestLayoutErrors(t *testing.T) {
	skill := loadPackage(t, javaPerformance())
	workflow := &format.Package{Kind: format.KindWorkflow, Entrypoint: &format.Entrypoint{Kind: format.KindWorkflow}, EntrypointFile: "WORKFLOW.js"}
	claude, _ := Default().Lookup("claude")
	codex, _ := Default().Lookup("codex")
	cases := []struct {
		name    string
		pkg     *format.Package
		readers []Adapter
		code    string
	}{
		{"no readers", skill, nil, "ASK_LAYOUT_INVALID"},
		{"kind without location", workflow, []Adapter{claude}, "ASK_LAYOUT_INVALID"},
		{"codex command", loadPackage(t, layoutCases()[4].fsys), []Adapter{codex}, "ASK_LAYOUT_INVALID"},
		{"foreign adapter mixed", skill, []Adapter{claude, fakeAdapter{}}, "ASK_LAYOUT_INVALID"},
		{"no entrypoint", &format.Package{Kind: format.KindSkill}, []Adapter{claude}, ""},
	}
	for _, tc := range cases {
		_, err := LayoutForRoot(tc.pkg, tc.readers)
		if err == nil {
			t.Errorf("LayoutForRoot(%s) error = nil, want one", tc.name)
			continue
		}
		var e *Error
		gotCode := ""
		if errors.As(err, &e) {
			gotCode = e.ErrorCode()
		}
		if gotCode != tc.code {
			t.Errorf("LayoutForRoot(%s) code = %q, want %q", tc.name, gotCode, tc.code)
		}
	}
}

func TestLayoutCheck(t *testing.T) {
	const adapterBug, unsafeFile = "ASK_LAYOUT_INVALID", "ASK_PACKAGE_UNSAFE_FILE"
	cases := []struct {
		name   string
		layout Layout
		shape  Shape
		code   string // "" = ok
	}{
		{"one file entry", Layout{Entries: []Entry{{Path: "COMMAND.md", Content: []byte("x")}}}, ShapeFile, ""},
		{"two file entries", Layout{Entries: []Entry{{Path: "COMMAND.md", Content: []byte("x")}, {Path: "b", CopyFrom: "b"}}}, ShapeFile, adapterBug},
		{"no file entry", Layout{}, ShapeFile, adapterBug},
		{"directory", Layout{Entries: []Entry{{Path: "SKILL.md", Content: []byte("x")}, {Path: "a/b", CopyFrom: "a/b"}}}, ShapeDirectory, ""},
		{"escaping path", Layout{Entries: []Entry{{Path: "../x", CopyFrom: "x"}}}, ShapeDirectory, adapterBug},
		{"absolute path", Layout{Entries: []Entry{{Path: "/x", CopyFrom: "x"}}}, ShapeDirectory, adapterBug},
		{"backslash", Layout{Entries: []Entry{{Path: `a\b`, CopyFrom: "x"}}}, ShapeDirectory, adapterBug},
		{"generated device name", Layout{Entries: []Entry{{Path: "agents/aux.yaml", Content: []byte("x")}}}, ShapeDirectory, adapterBug},
		{"duplicate", Layout{Entries: []Entry{{Path: "a", CopyFrom: "a"}, {Path: "a", CopyFrom: "a"}}}, ShapeDirectory, adapterBug},
		{"both sources", Layout{Entries: []Entry{{Path: "a", CopyFrom: "a", Content: []byte("x")}}}, ShapeDirectory, adapterBug},
		{"no source", Layout{Entries: []Entry{{Path: "a"}}}, ShapeDirectory, adapterBug},
		{"empty content is content", Layout{Entries: []Entry{{Path: "a", Content: []byte{}}}}, ShapeDirectory, ""},
		// A package file with an unportable name is the package's fault:
		// the error must not blame the adapter.
		{"shipped backslash", Layout{Entries: []Entry{{Path: "SKILL.md", Content: []byte("x")}, {Path: `references/back\slash.md`, CopyFrom: `references/back\slash.md`}}}, ShapeDirectory, unsafeFile},
		{"shipped device name", Layout{Entries: []Entry{{Path: "SKILL.md", Content: []byte("x")}, {Path: "references/COM\u00b9.md", CopyFrom: "references/COM\u00b9.md"}}}, ShapeDirectory, unsafeFile},
		{"shipped case collision", Layout{Entries: []Entry{{Path: "A.md", CopyFrom: "A.md"}, {Path: "a.md", CopyFrom: "a.md"}}}, ShapeDirectory, unsafeFile},
		{"shipped file against a generated one", Layout{Entries: []Entry{{Path: "agents/OpenAI.yaml", CopyFrom: "agents/OpenAI.yaml"}, {Path: "agents/openai.yaml", Content: []byte("x")}}}, ShapeDirectory, unsafeFile},
	}
	for _, tc := range cases {
		err := tc.layout.Check(tc.shape)
		if (err == nil) != (tc.code == "") {
			t.Errorf("Layout.Check(%s) = %v, want code %q", tc.name, err, tc.code)
			continue
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.ErrorCode() != tc.code) {
			t.Errorf("Layout.Check(%s) = %v, want a %s error", tc.name, err, tc.code)
		}
		if e != nil {
			checkActions(t, "Layout.Check("+tc.name+")", e)
		}
	}
}

func TestShortDescription(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Java performance engineering skill.", "Java performance engineering skill"},
		{"First sentence. Second sentence.", "First sentence"},
		{"  Spaces\n  collapse   here  ", "Spaces collapse here"},
		{"Is it a question? Yes.", "Is it a question?"},
		{"v1.2 keeps dotted versions intact", "v1.2 keeps dotted versions intact"},
		{strings.Repeat("word ", 30), "word word word word word word word word word word word word…"},
		{strings.Repeat("x", 100), strings.Repeat("x", 63) + "…"},
		{"Überprüft Java-Leistung äußerst gründlich und schnell für große Dienste überall", "Überprüft Java-Leistung äußerst gründlich und schnell für große…"},
		{"", ""},
	}
	for _, tc := range cases {
		got := shortDescription(tc.in)
		if got != tc.want {
			t.Errorf("shortDescription(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if n := len([]rune(got)); n > maxShortDescription {
			t.Errorf("shortDescription(%q) has %d characters, want at most %d", tc.in, n, maxShortDescription)
		}
	}
}

func TestTitleCase(t *testing.T) {
	cases := []struct{ in, want string }{
		{"java-performance", "Java Performance"},
		{"pdf", "Pdf"},
		{"a-b-c", "A B C"},
		{"x--y", "X Y"},
		// A word starting with a multi-byte letter: cutting its first
		// byte made invalid UTF-8 that the YAML encoder refused.
		{"˃", "˃"},
		{"élan-vital", "Élan Vital"},
	}
	for _, tc := range cases {
		if got := titleCase(tc.in); got != tc.want {
			t.Errorf("titleCase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLayoutScalarFidelity(t *testing.T) {
	cases := []struct {
		src      string
		wantDesc any
		wantLic  any
	}{
		{"---\nname: num-desc\ndescription: 42\nlicense: 0\n---\n", "42", "0"},
		{"---\nname: bool-desc\ndescription: true\n---\n", "true", nil},
		{"---\nname: no-desc\n---\n", nil, nil},
	}
	for _, tc := range cases {
		pkg := loadPackage(t, fstest.MapFS{"SKILL.md": {Data: []byte(tc.src)}})
		l, err := mustLookup(t, "claude").LayoutFor(pkg)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.FrontMatter["description"]; got != tc.wantDesc {
			t.Errorf("LayoutFor(%q) description = %#v, want %#v", tc.src, got, tc.wantDesc)
		}
		if got := l.FrontMatter["license"]; got != tc.wantLic {
			t.Errorf("LayoutFor(%q) license = %#v, want %#v", tc.src, got, tc.wantLic)
		}
	}
}
