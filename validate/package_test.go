package validate

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

const goodManifest = `schemaVersion: 1
name: java-performance
kind: skill
version: 1.0.0
description: Java performance engineering. Use when diagnosing latency.
license: Apache-2.0
files:
  - SKILL.md
  - skill.yaml
  - references/
dependencies:
  - name: java-basics
    version: ^1.2.0
suggests:
  - flame-graph-analysis
agentOverrides:
  codex:
    interface:
      display_name: Java Performance
`

const goodSkill = `---
name: java-performance
version: 1.0.0
description: Java performance engineering. Use when diagnosing latency.
---
# Java Performance

Read [profiling](references/profiling.md) and [the folder](references/).
`

// pkgFS returns a valid package, with files replaced or added by edits
// (an empty value deletes the file).
func pkgFS(edits map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{
		"skill.yaml":               {Data: []byte(goodManifest)},
		"SKILL.md":                 {Data: []byte(goodSkill)},
		"references/profiling.md":  {Data: []byte("# Profiling\n")},
		"references/regression.md": {Data: []byte("# Regression\n")},
	}
	for name, data := range edits {
		if data == "" {
			delete(fsys, name)
			continue
		}
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

var testOpts = Options{OverrideKeys: map[string][]string{"codex": {"interface"}, "claude-code": {}}}

// render turns diagnostics into "file:line:col severity CODE" strings.
func render(ds format.Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = fmt.Sprintf("%s:%d:%d %s %s", d.File, d.Line, d.Col, d.Severity, d.Code)
	}
	return out
}

func TestDir(t *testing.T) {
	tests := []struct {
		name   string
		edits  map[string]string
		strict bool
		dir    string
		want   []string
	}{
		{name: "valid", want: nil},
		{name: "valid strict", strict: true, want: nil},
		{name: "name too long", dir: strings.Repeat("a", 65),
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "name: java-performance", "name: "+strings.Repeat("a", 65), 1)},
			want:  []string{"SKILL.md:2:7 error ASK_NAME_MISMATCH", "skill.yaml:2:7 error ASK_NAME_INVALID"}},
		{name: "directory mismatch", dir: "java-perf",
			want: []string{"skill.yaml:2:7 error ASK_NAME_MISMATCH"}},
		{name: "unknown kind",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "kind: skill", "kind: agent", 1)},
			want:  []string{"skill.yaml:3:7 error ASK_KIND_UNKNOWN"}},
		{name: "version range",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "version: 1.0.0", "version: ^1.0.0", 1)},
			want:  []string{"SKILL.md:3:10 error ASK_VERSION_MISMATCH", "skill.yaml:4:10 error ASK_VERSION_INVALID"}},
		{name: "version mismatch",
			edits: map[string]string{"SKILL.md": strings.Replace(goodSkill, "version: 1.0.0", "version: 1.0.1", 1)},
			want:  []string{"SKILL.md:3:10 error ASK_VERSION_MISMATCH"}},
		{name: "licence",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "Apache-2.0", "Apache 2", 1)},
			want:  []string{"skill.yaml:6:10 error ASK_LICENSE_INVALID"}},
		// SEE LICENSE IN <file> (npm's form, for Anthropic's "Proprietary.
		// LICENSE.txt has complete terms") needs the file in the package.
		{name: "licence in a shipped file", strict: true,
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "Apache-2.0", "SEE LICENSE IN references/profiling.md", 1)}},
		{name: "licence in a file the package does not ship",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "Apache-2.0", "SEE LICENSE IN LICENSE.txt", 1),
				"LICENSE.txt": "not in files\n"},
			want: []string{"skill.yaml:6:10 error ASK_LICENSE_INVALID"}},
		{name: "traversal in files",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "  - references/\n", "  - references/\n  - ../secret\n  - SKILL.md\n", 1)},
			want:  []string{"skill.yaml:11:5 error ASK_FILES_UNSAFE_PATH", "skill.yaml:12:5 error ASK_FILES_DUPLICATE"}},
		{name: "entrypoint not listed",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "  - SKILL.md\n", "", 1)},
			want:  []string{"skill.yaml:7:1 error ASK_ENTRYPOINT_NOT_LISTED"}},
		{name: "missing required fields",
			edits: map[string]string{"skill.yaml": "name: java-performance\nfiles: [SKILL.md, references/]\n"},
			want:  []string{"skill.yaml:0:0 error ASK_REQUIRED_FIELD", "skill.yaml:0:0 error ASK_REQUIRED_FIELD"}},
		{name: "dependency on itself",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "name: java-basics", "name: java-performance", 1)},
			want:  []string{"skill.yaml:12:11 error ASK_DEPENDENCY_INVALID"}},
		{name: "suggests with range",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "flame-graph-analysis", "flame-graph-analysis@^1", 1)},
			want:  []string{"skill.yaml:15:5 error ASK_SUGGESTS_INVALID"}},
		{name: "override key",
			edits: map[string]string{"skill.yaml": goodManifest + "  gemini:\n    theme: dark\n"},
			want:  []string{"skill.yaml:21:5 error ASK_OVERRIDE_KEY_UNKNOWN"}},
		{name: "unknown top-level key",
			edits: map[string]string{"skill.yaml": goodManifest + "tags: [x]\n"},
			want:  []string{"skill.yaml:20:1 warning ASK_MANIFEST_UNKNOWN_KEY"}},
		{name: "unknown top-level key strict", strict: true,
			edits: map[string]string{"skill.yaml": goodManifest + "tags: [x]\n"},
			want:  []string{"skill.yaml:20:1 error ASK_MANIFEST_UNKNOWN_KEY"}},
		{name: "broken link",
			edits: map[string]string{"SKILL.md": goodSkill + "\nSee [missing](references/missing.md).\n"},
			want:  []string{"SKILL.md:10:5 warning ASK_LINK_BROKEN"}},
		{name: "broken link strict", strict: true,
			edits: map[string]string{"SKILL.md": goodSkill + "\nSee [missing](references/missing.md).\n"},
			want:  []string{"SKILL.md:10:5 error ASK_LINK_BROKEN"}},
		{name: "link to a file files does not list",
			edits: map[string]string{"SKILL.md": goodSkill + "\n![logo](assets/logo.png)\n", "assets/logo.png": "png"},
			want:  []string{"SKILL.md:10:1 warning ASK_LINK_BROKEN"}},
		{name: "links outside the package",
			edits: map[string]string{"SKILL.md": goodSkill + "\n[a](../other/SKILL.md) [b](/etc/passwd)\n"},
			want:  []string{"SKILL.md:10:1 error ASK_LINK_OUTSIDE_PACKAGE", "SKILL.md:10:24 error ASK_LINK_OUTSIDE_PACKAGE"}},
		{name: "front matter rules",
			edits: map[string]string{"SKILL.md": "---\nname: java-performance\ndescription: ''\nbogus: 1\n---\n"},
			want:  []string{"SKILL.md:3:14 error ASK_FRONTMATTER_FIELD_INVALID", "SKILL.md:4:1 warning ASK_FRONTMATTER_UNKNOWN_KEY"}},
		{name: "entrypoint missing is format's",
			edits: map[string]string{"SKILL.md": ""},
			want:  []string{"SKILL.md:0:0 error ASK_ENTRYPOINT_MISSING", "skill.yaml:8:5 error ASK_FILES_MISSING"}},
		{name: "newer schema is not checked further",
			edits: map[string]string{"skill.yaml": "schemaVersion: 2\nname: X\nwhatever: {}\n"},
			want:  []string{"skill.yaml:1:16 error ASK_MANIFEST_SCHEMA_UNSUPPORTED"}},
		{name: "bare skill", edits: map[string]string{"skill.yaml": ""}, want: nil},
		{name: "bare skill strict", strict: true, edits: map[string]string{"skill.yaml": ""},
			want: []string{":0:0 error ASK_MANIFEST_MISSING"}},
		{name: "bare skill name mismatch", dir: "other", edits: map[string]string{"skill.yaml": ""},
			want: []string{"SKILL.md:2:7 error ASK_NAME_MISMATCH"}},
		{name: "bare skill bad version", edits: map[string]string{"skill.yaml": "", "SKILL.md": strings.Replace(goodSkill, "1.0.0", "1.0", 1)},
			want: []string{"SKILL.md:3:10 error ASK_VERSION_INVALID"}},
		{name: "unknown nested key",
			edits: map[string]string{"skill.yaml": strings.Replace(goodManifest, "    version: ^1.2.0\n", "    version: ^1.2.0\n    optional: true\n", 1)},
			want:  []string{"skill.yaml:14:5 warning ASK_MANIFEST_UNKNOWN_KEY"}},
		{name: "agent minVersion",
			edits: map[string]string{"skill.yaml": goodManifest + "compatibility:\n  agents:\n    - id: codex\n      minVersion: 'newest'\n"},
			want:  []string{"skill.yaml:23:19 error ASK_VERSION_INVALID"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = "java-performance"
			}
			opts := testOpts
			opts.Gate = gateFor(tt.strict)
			got := render(Dir(pkgFS(tt.edits), dir, opts))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Dir(%s) =\n%s\nwant\n%s\nfull: %v", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"), Dir(pkgFS(tt.edits), dir, opts))
			}
		})
	}
}

func TestDirEveryDiagnosticHasAFix(t *testing.T) {
	fsys := pkgFS(map[string]string{
		"skill.yaml": strings.NewReplacer("description: Java", "description: ' '\nx: Java", "version: 1.0.0", "version: ^1", "Apache-2.0", "nope",
			"  - SKILL.md\n", "  - ../x\n", "java-basics", "java-performance").Replace(goodManifest) + "tags: []\n",
		"SKILL.md": goodSkill + "[x](nowhere.md) [y](../up.md)\n",
	})
	ds := Dir(fsys, "java-performance", Options{Gate: GateStrict, OverrideKeys: map[string][]string{}})
	if len(ds) < 8 {
		t.Fatalf("Dir(broken) = %d diagnostics, want at least 8: %v", len(ds), ds)
	}
	for _, d := range ds {
		if d.Fix == "" || d.Message == "" || !strings.HasPrefix(d.Code, "ASK_") {
			t.Errorf("Dir(broken) diagnostic %v has no fix, message or code", d)
		}
	}
}

func TestPackageNil(t *testing.T) {
	if got := Package(nil, Options{}); got != nil {
		t.Errorf("Package(nil) = %v, want nil", got)
	}
}

func TestDirWorkflowAndCommand(t *testing.T) {
	command := fstest.MapFS{
		"skill.yaml": {Data: []byte("name: release\nkind: command\nversion: 1.0.0\ndescription: Cut a release.\nlicense: MIT\nfiles: [COMMAND.md]\n")},
		"COMMAND.md": {Data: []byte("---\ndescription: Cut a release.\nargument-hint: '[version]'\n---\nRelease $ARGUMENTS.\n")},
	}
	if got := Dir(command, "release", Options{Gate: GateStrict}); len(got) != 0 {
		t.Errorf("Dir(command) = %v, want none", got)
	}
	workflow := fstest.MapFS{
		"skill.yaml":  {Data: []byte("name: ship-it\nkind: workflow\nversion: 1.0.0\ndescription: Ship it.\nlicense: MIT\nfiles: [WORKFLOW.js]\n")},
		"WORKFLOW.js": {Data: []byte("export const meta = {\n  name: 'ship-it',\n  description: 'Ship it.',\n};\n")},
	}
	if got := Dir(workflow, "ship-it", Options{Gate: GateStrict}); len(got) != 0 {
		t.Errorf("Dir(workflow) = %v, want none", got)
	}
	workflow["WORKFLOW.js"] = &fstest.MapFile{Data: []byte("export const meta = {\n  name: 'other',\n};\n")}
	got := render(Dir(workflow, "ship-it", Options{}))
	want := []string{"WORKFLOW.js:1:1 error ASK_REQUIRED_FIELD", "WORKFLOW.js:2:9 error ASK_NAME_MISMATCH"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Dir(workflow with wrong name) = %v, want %v", got, want)
	}
}

func TestDirWorkflowMetaProblemsComeFromFormat(t *testing.T) {
	workflow := fstest.MapFS{
		"skill.yaml":  {Data: []byte("name: ship-it\nkind: workflow\nversion: 1.0.0\ndescription: Ship it.\nfiles: [WORKFLOW.js]\n")},
		"WORKFLOW.js": {Data: []byte("// Ship it.\n\nexport const meta = {\n  name: 'ship-it',\n  description: run(),\n};\n")},
	}
	got := render(Dir(workflow, "ship-it", Options{}))
	want := []string{"WORKFLOW.js:5:16 error ASK_WORKFLOW_META_INVALID"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Dir(workflow calling a function) = %v, want %v", got, want)
	}
	workflow["WORKFLOW.js"] = &fstest.MapFile{Data: []byte("console.log('no meta')\n")}
	got = render(Dir(workflow, "ship-it", Options{}))
	want = []string{"WORKFLOW.js:0:0 error ASK_WORKFLOW_META_INVALID"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Dir(workflow without meta) = %v, want %v", got, want)
	}
}

func TestShipped(t *testing.T) {
	c := &checker{pkg: &format.Package{Files: []string{"SKILL.md", "references-old/a.md", "references.md", "references/b/c.md", "skill.yaml"}}}
	tests := []struct {
		target string
		want   bool
	}{
		{".", true},
		{"SKILL.md", true},
		{"references", true},
		{"references/b", true},
		{"references/b/c.md", true},
		{"references/c.md", false},
		{"references-old", true},
		{"references-ol", false},
		{"refs", false},
		{"skill.yaml/x", false},
	}
	for _, tt := range tests {
		if got := c.shipped(tt.target); got != tt.want {
			t.Errorf("shipped(%q) = %v, want %v", tt.target, got, tt.want)
		}
	}
}
