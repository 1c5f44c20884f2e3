package scaffold

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// mapFS turns generated files into an in-memory package folder.
func mapFS(files []File) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, f := range files {
		fsys[f.Path] = &fstest.MapFile{Data: f.Data, Mode: f.Mode}
	}
	return fsys
}

// paths lists the paths of files in order.
func paths(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// errCode returns the ASK_* code of err, or "" when err is not an *Error.
func errCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.ErrorCode()
	}
	return ""
}

func TestNewFiles(t *testing.T) {
	tests := []struct {
		kind format.Kind
		want []string
	}{
		{"", []string{"SKILL.md", "references/REFERENCE.md", "skill.yaml"}},
		{format.KindSkill, []string{"SKILL.md", "references/REFERENCE.md", "skill.yaml"}},
		{format.KindCommand, []string{"COMMAND.md", "skill.yaml"}},
		{format.KindWorkflow, []string{"WORKFLOW.js", "skill.yaml"}},
	}
	for _, tt := range tests {
		files, err := New(Options{Name: "code-review", Kind: tt.kind})
		if err != nil {
			t.Fatalf("New(%q) error: %v", tt.kind, err)
		}
		if got := paths(files); !slices.Equal(got, tt.want) {
			t.Errorf("New(%q) paths = %v, want %v", tt.kind, got, tt.want)
		}
		for _, f := range files {
			if f.Mode != 0o644 {
				t.Errorf("New(%q) %s mode = %v, want %v", tt.kind, f.Path, f.Mode, fs.FileMode(0o644))
			}
			if len(f.Data) == 0 || f.Data[len(f.Data)-1] != '\n' {
				t.Errorf("New(%q) %s does not end with a newline", tt.kind, f.Path)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	long := strings.Repeat("x", MaxDescriptionLen+1)
	tests := []struct {
		name string
		opts Options
		code string
		msg  string // substring of the message
	}{
		{"empty name", Options{}, "ASK_NAME_INVALID", "is empty"},
		{"65 chars", Options{Name: strings.Repeat("a", 65)}, "ASK_NAME_INVALID", "is 65 characters; the limit is 64"},
		{"uppercase", Options{Name: "Java"}, "ASK_NAME_INVALID", "uppercase"},
		{"double hyphen", Options{Name: "a--b"}, "ASK_NAME_INVALID", `"--"`},
		{"leading hyphen", Options{Name: "-ab"}, "ASK_NAME_INVALID", "starts with a hyphen"},
		{"trailing hyphen", Options{Name: "ab-"}, "ASK_NAME_INVALID", "ends with a hyphen"},
		{"scope", Options{Name: "@org/x"}, "ASK_NAME_INVALID", "reserved"},
		{"underscore", Options{Name: "a_b"}, "ASK_NAME_INVALID", `'_'`},
		{"unknown kind", Options{Name: "ab", Kind: "agent"}, "ASK_USAGE", `kind "agent" is unknown`},
		{"newline", Options{Name: "ab", Description: "one\ntwo"}, "ASK_USAGE", "U+000A"},
		{"tab", Options{Name: "ab", Description: "one\ttwo"}, "ASK_USAGE", "U+0009"},
		{"line separator", Options{Name: "ab", Description: "one\u2028two"}, "ASK_USAGE", "U+2028"},
		{"bidi override", Options{Name: "ab", Description: "safe \u202etxt.exe"}, "ASK_USAGE", "U+202E"},
		{"invalid utf-8", Options{Name: "ab", Description: "caf\xe9"}, "ASK_USAGE", "UTF-8"},
		{"too long", Options{Name: "ab", Description: long}, "ASK_USAGE", "is 1025 characters; the limit is 1024"},
		{"bad licence", Options{Name: "ab", License: "Apache 2"}, "ASK_LICENSE_INVALID", "not a valid SPDX"},
		{"deprecated licence", Options{Name: "ab", License: "GPL-2.0"}, "ASK_LICENSE_INVALID", "deprecated"},
		{"range version", Options{Name: "ab", Version: "^1.0.0"}, "ASK_VERSION_INVALID", `version "^1.0.0" is a range`},
		{"short version", Options{Name: "ab", Version: "1.0"}, "ASK_VERSION_INVALID", "strict semver needs MAJOR.MINOR.PATCH"},
		{"v prefix", Options{Name: "ab", Version: "v1.0.0"}, "ASK_VERSION_INVALID", `starts with "v"`},
		{"bad email", Options{Name: "ab", Author: "Jane <not-an-email>"}, "ASK_USAGE", "not an email address"},
		{"bad url", Options{Name: "ab", Author: "Jane (ftp://x)"}, "ASK_USAGE", "not an http or https URL"},
		{"no author name", Options{Name: "ab", Author: "<jane@example.com>"}, "ASK_USAGE", "name is empty"},
		{"stray bracket", Options{Name: "ab", Author: "Jane <jane@example.com"}, "ASK_USAGE", "Name <email> (url)"},
		{"author newline", Options{Name: "ab", Author: "Jane\nDoe"}, "ASK_USAGE", "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := New(tt.opts)
			if files != nil {
				t.Errorf("New(%+v) returned %d files with an error", tt.opts, len(files))
			}
			if got := errCode(err); got != tt.code {
				t.Fatalf("New(%+v) code = %q (err %v), want %q", tt.opts, got, err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("New(%+v) message = %q, want it to contain %q", tt.opts, err.Error(), tt.msg)
			}
			var e *Error
			errors.As(err, &e)
			if len(e.ErrorTry()) == 0 || e.ErrorTry()[0] == "" || strings.HasPrefix(e.ErrorTry()[0], "Try:") {
				t.Errorf("New(%+v) hints = %q, want a next action", tt.opts, e.ErrorTry())
			}
			if e.Error() != e.Message {
				t.Errorf("New(%+v).Error() = %q, want the message %q alone", tt.opts, e.Error(), e.Message)
			}
		})
	}
}

func TestNewAccepts(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"max description", Options{Name: "ab", Description: strings.Repeat("é", MaxDescriptionLen)}},
		{"64-char name", Options{Name: strings.Repeat("a", 64)}},
		{"one-char name", Options{Name: "a"}},
		{"digits", Options{Name: "2d"}},
		{"unlicensed", Options{Name: "ab", License: "UNLICENSED"}},
		{"licence ref", Options{Name: "ab", License: "LicenseRef-Acme"}},
		{"expression", Options{Name: "ab", License: "GPL-2.0-only WITH Classpath-exception-2.0"}},
		{"prerelease", Options{Name: "ab", Version: "1.0.0-rc.1+build.5"}},
		{"author name only", Options{Name: "ab", Author: "Jane Doe"}},
		{"author full", Options{Name: "ab", Author: " Jane Doe <jane@example.com> (https://example.com/jane) "}},
		{"spaces trimmed", Options{Name: "ab", Description: "  Covers x. Use when y.  "}},
	}
	for _, tt := range tests {
		if _, err := New(tt.opts); err != nil {
			t.Errorf("New(%+v) error: %v, want none", tt.opts, err)
		}
	}
}

func TestNewDescription(t *testing.T) {
	tests := []struct {
		kind  format.Kind
		given string
		want  string
	}{
		{format.KindSkill, "", "Guidance for java performance: the steps to follow and the rules to respect. " +
			"Use when a task involves java performance or the user asks for help with it."},
		{format.KindCommand, "", "Runs the review diff procedure on the files or topic given as arguments. " +
			"Use when you want a repeatable review diff pass over specific input."},
		{format.KindWorkflow, "", "Coordinates migrate tests in phases: plan, carry out and verify. " +
			"Use when migrate tests needs several steps that should run the same way every time."},
		{format.KindSkill, "  Covers x. Use when y. ", "Covers x. Use when y."},
	}
	names := map[format.Kind]string{
		format.KindSkill: "java-performance", format.KindCommand: "review-diff", format.KindWorkflow: "migrate-tests",
	}
	for _, tt := range tests {
		s, err := Options{Name: names[tt.kind], Kind: tt.kind, Description: tt.given}.resolve()
		if err != nil {
			t.Fatalf("resolve(%q, %q) error: %v", tt.kind, tt.given, err)
		}
		if s.description != tt.want {
			t.Errorf("resolve(%q, %q).description = %q, want %q", tt.kind, tt.given, s.description, tt.want)
		}
		if strings.Contains(tt.want, "Use when") && !strings.Contains(s.description, "Use when") {
			t.Errorf("description %q does not say when to use the package", s.description)
		}
	}
}

func TestSkillStructure(t *testing.T) {
	files, err := New(Options{Name: "java-performance"})
	if err != nil {
		t.Fatal(err)
	}
	fsys := mapFS(files)
	skill := string(fsys["SKILL.md"].Data)
	var last int
	for _, heading := range []string{"\n# Java Performance\n", "\n## Purpose\n", "\n## Workflow\n", "\n1. ", "\n2. ", "\n## Rules\n", "\n## References\n", "(references/REFERENCE.md)"} {
		i := strings.Index(skill, heading)
		if i < 0 {
			t.Fatalf("SKILL.md lacks %q:\n%s", heading, skill)
		}
		if i < last {
			t.Errorf("SKILL.md has %q out of order", heading)
		}
		last = i
	}
	if _, ok := fsys["references/REFERENCE.md"]; !ok {
		t.Errorf("the linked reference file is not generated")
	}
}

func TestCommandAndWorkflowContent(t *testing.T) {
	cmd, err := New(Options{Name: "review-diff", Kind: format.KindCommand})
	if err != nil {
		t.Fatal(err)
	}
	c := mapFS(cmd)
	for _, want := range []string{"$ARGUMENTS", "argument-hint: '[files or topic]'", "description: "} {
		if !strings.Contains(string(c["COMMAND.md"].Data), want) {
			t.Errorf("COMMAND.md lacks %q", want)
		}
	}
	if !strings.Contains(string(c["skill.yaml"].Data), "- id: claude-code") {
		t.Errorf("command skill.yaml lacks claude-code compatibility:\n%s", c["skill.yaml"].Data)
	}
	wf, err := New(Options{Name: "migrate-tests", Kind: format.KindWorkflow, Version: "2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	w := string(mapFS(wf)["WORKFLOW.js"].Data)
	for _, want := range []string{"export const meta = {", "name: 'migrate-tests',", "version: '2.0.0',", "export default async function run("} {
		if !strings.Contains(w, want) {
			t.Errorf("WORKFLOW.js lacks %q", want)
		}
	}
}

func TestKeywordsFromName(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"java-performance", []string{"java", "performance"}},
		{"tips-for-the-road", []string{"tips", "road"}},
		{"go-go-go", []string{"go"}},
		{"of-the", []string{"of-the"}},
		{"k8s", []string{"k8s"}},
	}
	for _, tt := range tests {
		if got := keywordsFromName(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("keywordsFromName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTitleFromName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"java-performance", "Java Performance"},
		{"k8s", "K8s"},
		{"2d-graphics", "2d Graphics"},
	}
	for _, tt := range tests {
		if got := titleFromName(tt.name); got != tt.want {
			t.Errorf("titleFromName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSuggestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Java Performance", "java-performance"},
		{"a--b", "a-b"},
		{"-x-", "x"},
		{"@@", "my-skill"},
		{"@org/tool", "org-tool"},
		{strings.Repeat("ab-", 30), strings.TrimRight(strings.Repeat("ab-", 30)[:64], "-")},
	}
	for _, tt := range tests {
		got := suggestName(tt.in)
		if got != tt.want {
			t.Errorf("suggestName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if err := checkName(got); err != nil {
			t.Errorf("checkName(suggestName(%q)) = %v, want nil", tt.in, err)
		}
	}
}

func TestJSString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `'plain'`},
		{`it's`, `'it\'s'`},
		{`"q"`, `'"q"'`},
		{`C:\dir`, `'C:\\dir'`},
		{"a\nb\r\tc", `'a\nb\r\tc'`},
		{"\x00\x7f", `'\u0000\u007f'`},
		{"x\u2028y\u2029", `'x\u2028y\u2029'`},
		{"café ✓", `'café ✓'`},
		{"${x} `t`", "'${x} `t`'"},
	}
	for _, tt := range tests {
		if got := jsString(tt.in); got != tt.want {
			t.Errorf("jsString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestFoldedEntry(t *testing.T) {
	long := strings.Repeat("word ", 40) + "end"
	tests := []struct {
		value  string
		folded bool
	}{
		{long, true},
		{strings.Repeat("x", 200), true}, // one unbreakable word still folds exactly
		{"two  spaces " + long, false},
		{" leading " + long, false},
		{long + "\n", false},
		{"", false},
	}
	for _, tt := range tests {
		out, ok := foldedEntry("description", tt.value)
		if ok != tt.folded {
			t.Errorf("foldedEntry(%q) ok = %v, want %v", tt.value, ok, tt.folded)
			continue
		}
		if !ok {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")[1:] {
			if len(line) > foldWidth && strings.Contains(strings.TrimSpace(line), " ") {
				t.Errorf("foldedEntry(%q) line %q is longer than %d", tt.value, line, foldWidth)
			}
		}
	}
}

func TestWrapMarkdown(t *testing.T) {
	long := "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
	tests := []struct{ in, want string }{
		{"# Heading that is long " + long + "\n", "# Heading that is long " + long + "\n"},
		{"short\nlines joined\n", "short lines joined\n"},
		{long + "\n", "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi\nomicron pi rho\n"},
		{"- " + long + "\n", "- alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi\n  omicron pi rho\n"},
		{"12. " + long + " " + long + "\n", "12. alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi\n    omicron pi rho alpha beta gamma delta epsilon zeta eta theta iota kappa\n    lambda mu nu xi omicron pi rho\n"},
		{"a\n\nb\n", "a\n\nb\n"},
		{"- one\n- two\n", "- one\n- two\n"},
	}
	for _, tt := range tests {
		if got := wrapMarkdown(tt.in); got != tt.want {
			t.Errorf("wrapMarkdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
