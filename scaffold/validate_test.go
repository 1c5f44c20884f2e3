package scaffold

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// strictDiagnostics loads a generated package from memory and validates it
// strictly, returning every diagnostic from both steps.
func strictDiagnostics(t *testing.T, files []File, dirName string) (*format.Package, format.Diagnostics) {
	t.Helper()
	pkg, diags := format.Load(mapFS(files), format.LoadOptions{})
	if pkg == nil {
		return nil, diags
	}
	return pkg, append(diags, validate.Package(pkg, validate.Options{Gate: validate.GateStrict, DirName: dirName})...)
}

// TestNewPassesStrictValidation is the scaffold's contract: every kind,
// with or without the optional fields, validates strictly with no
// diagnostic at all, errors or warnings.
func TestNewPassesStrictValidation(t *testing.T) {
	names := []string{"java-performance", "ab", "k8s", "a1-b2-c3", strings.Repeat("long-", 12) + "name"}
	variants := []Options{
		{},
		{Description: "Reviews Go code for: errors, naming & tests (\"strict\"). Use when a PR touches *.go files #review."},
		{License: "MIT OR Apache-2.0", Version: "1.0.0-beta.1", Author: "Jane Doe <jane@example.com> (https://example.com)"},
		{License: "UNLICENSED", Author: "Jane Doe"},
		{Description: strings.Repeat("Covers a lot of ground. ", 42) + "Use when asked."},
	}
	for _, kind := range format.Kinds() {
		for _, name := range names {
			for i, v := range variants {
				opts := v
				opts.Name, opts.Kind = name, kind
				files, err := New(opts)
				if err != nil {
					t.Fatalf("New(%+v) error: %v", opts, err)
				}
				pkg, diags := strictDiagnostics(t, files, name)
				for _, d := range diags {
					t.Errorf("%s %s variant %d: %s (fix: %s)", kind, name, i, d, d.Fix)
				}
				if pkg == nil {
					continue
				}
				if got, want := pkg.Files, paths(files); !slices.Equal(got, want) {
					t.Errorf("%s %s: Load files = %v, want every generated file %v", kind, name, got, want)
				}
				if pkg.Kind != kind {
					t.Errorf("%s %s: Load kind = %q, want %q", kind, name, pkg.Kind, kind)
				}
			}
		}
	}
}

// TestNewRoundTrip checks that hostile descriptions survive every encoding
// (YAML manifest, YAML front matter, JavaScript literal) unchanged, and that
// the manifest and the entrypoint agree on name, description and version.
func TestNewRoundTrip(t *testing.T) {
	descs := []string{
		`Has a colon: and a # hash. Use when: always.`,
		`"Double" and 'single' quotes, a backslash \ and C:\path\n.`,
		`- starts like a list item`,
		`[starts like a flow sequence]`,
		`{starts: like a mapping}`,
		`*alias &anchor !tag %directive @at ` + "`tick`",
		`true`,
		`null`,
		`1.0`,
		`0o17`,
		`yes`,
		`---`,
		`... end of document`,
		`${template} and </script> and \u0041 literally`,
		`Unicode: café, 日本語, emoji 🚀, NBSP` + "\u00a0" + `here.`,
		`'`,
		`\`,
		strings.Repeat("word ", 200) + "end.",
		strings.Repeat("x", 300),
	}
	for _, kind := range format.Kinds() {
		for _, desc := range descs {
			opts := Options{Name: "round-trip", Kind: kind, Description: desc, Version: "3.1.4"}
			files, err := New(opts)
			if err != nil {
				t.Fatalf("New(%q, %q) error: %v", kind, desc, err)
			}
			pkg, diags := format.Load(mapFS(files), format.LoadOptions{})
			if diags.HasErrors() || pkg == nil {
				t.Fatalf("Load(New(%q, %q)) = %v", kind, desc, diags)
			}
			if got := pkg.Manifest.Description; got != desc {
				t.Errorf("New(%q, %q) manifest description = %q", kind, desc, got)
			}
			if got, _ := pkg.Entrypoint.String("description"); got != desc {
				t.Errorf("New(%q, %q) entrypoint description = %q", kind, desc, got)
			}
			if pkg.Manifest.Name != "round-trip" || pkg.Manifest.Version != "3.1.4" {
				t.Errorf("New(%q, %q) manifest name, version = %q, %q", kind, desc, pkg.Manifest.Name, pkg.Manifest.Version)
			}
			if kind != format.KindCommand {
				if got, _ := pkg.Entrypoint.String("name"); got != "round-trip" {
					t.Errorf("New(%q, %q) entrypoint name = %q", kind, desc, got)
				}
			}
			if kind == format.KindWorkflow {
				if got, _ := pkg.Entrypoint.String("version"); got != "3.1.4" {
					t.Errorf("New(%q, %q) meta version = %q", kind, desc, got)
				}
			}
		}
	}
}

// TestStrictValidationDetectsBreakage guards the test above against
// passing vacuously: the same checks must report each deliberate defect.
func TestStrictValidationDetectsBreakage(t *testing.T) {
	tests := []struct {
		name    string
		breakFn func(fs map[string][]byte)
		code    string
	}{
		{"missing reference", func(fs map[string][]byte) { delete(fs, "references/REFERENCE.md") }, "ASK_LINK_BROKEN"},
		{"renamed entrypoint", func(fs map[string][]byte) {
			fs["SKILL.md"] = []byte(strings.Replace(string(fs["SKILL.md"]), "name: code-review", "name: code-audit", 1))
		}, "ASK_NAME_MISMATCH"},
		{"unknown manifest key", func(fs map[string][]byte) {
			fs["skill.yaml"] = append(fs["skill.yaml"], "colour: blue\n"...)
		}, "ASK_MANIFEST_UNKNOWN_KEY"},
	}
	for _, tt := range tests {
		files, err := New(Options{Name: "code-review"})
		if err != nil {
			t.Fatal(err)
		}
		contents := map[string][]byte{}
		for _, f := range files {
			contents[f.Path] = f.Data
		}
		tt.breakFn(contents)
		var broken []File
		for _, f := range files {
			if data, ok := contents[f.Path]; ok {
				broken = append(broken, File{Path: f.Path, Data: data, Mode: f.Mode})
			}
		}
		_, diags := strictDiagnostics(t, broken, "code-review")
		if !slices.ContainsFunc(diags, func(d format.Diagnostic) bool { return d.Code == tt.code }) {
			t.Errorf("%s: strict validation = %v, want a %s diagnostic", tt.name, diags, tt.code)
		}
	}
}

// TestNewAcceptsTheNamesValidateAccepts: New refuses a name exactly when
// validate.CheckName does, so a scaffold never produces a package that
// validation rejects for its name, and never refuses one it would accept.
func TestNewAcceptsTheNamesValidateAccepts(t *testing.T) {
	names := []string{
		"", "a", "ab", "a-b", "a--b", "-ab", "ab-", "AB", "a_b", "a.b", "a b", "@a/b", "a/b",
		"0", "00", "9-9", "k8s", strings.Repeat("a", 64), strings.Repeat("a", 65), "é-x", "ab\n",
	}
	for _, name := range names {
		_, err := New(Options{Name: name})
		mine, theirs := err == nil, validate.CheckName(name) == nil
		if mine != theirs {
			t.Errorf("New(%q) succeeded = %v (err %v), validate.CheckName valid = %v", name, mine, err, theirs)
		}
		if err != nil && errCode(err) != "ASK_NAME_INVALID" {
			t.Errorf("New(%q) code = %q, want ASK_NAME_INVALID", name, errCode(err))
		}
	}
}
