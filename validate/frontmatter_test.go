package validate

import (
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// decode decodes an entrypoint for a test, failing on decode errors.
func decode(t *testing.T, kind format.Kind, src string) *format.Entrypoint {
	t.Helper()
	e, diags := format.DecodeEntrypoint([]byte(src), format.EntrypointFor(kind), kind)
	if diags.HasErrors() || e == nil {
		t.Fatalf("DecodeEntrypoint(%q) = %v", src, diags)
	}
	return e
}

func TestCheckEntrypoint(t *testing.T) {
	long := strings.Repeat("x", 1025)
	tests := []struct {
		name   string
		kind   format.Kind
		strict bool
		src    string
		want   []string // "field CODE severity: message substring"
	}{
		{"valid skill", format.KindSkill, true,
			"---\nname: my-skill\ndescription: Does things. Use when needed.\nlicense: MIT\ncompatibility: Needs git\nmetadata:\n  short-description: Things\nallowed-tools: Read Grep\nversion: 1.0.0\n---\n# Body\n", nil},
		{"no front matter", format.KindSkill, false, "# Just a body\n",
			[]string{" ASK_REQUIRED_FIELD error: has no front matter"}},
		{"missing name and description", format.KindSkill, false, "---\nlicense: MIT\n---\n",
			[]string{" ASK_REQUIRED_FIELD error: has no name", " ASK_REQUIRED_FIELD error: has no description"}},
		{"bad name", format.KindSkill, false, "---\nname: My--Skill-\ndescription: x\n---\n",
			[]string{`name ASK_FRONTMATTER_FIELD_INVALID error: front matter name "My--Skill-" contains uppercase letters ("M", "S"); names are lowercase; ends with a hyphen; contains "--"`}},
		{"one-character name is allowed by the spec", format.KindSkill, false, "---\nname: a\ndescription: x\n---\n", nil},
		{"numeric name", format.KindSkill, false, "---\nname: 42\ndescription: x\n---\n",
			[]string{"name ASK_FRONTMATTER_FIELD_INVALID error: name is a number; it must be a string"}},
		{"empty description", format.KindSkill, false, "---\nname: ab\ndescription: '  '\n---\n",
			[]string{"description ASK_FRONTMATTER_FIELD_INVALID error: description is empty"}},
		{"long description", format.KindSkill, false, "---\nname: ab\ndescription: " + long + "\n---\n",
			[]string{"description ASK_FRONTMATTER_FIELD_INVALID error: description is 1025 characters; the limit is 1024"}},
		{"long compatibility", format.KindSkill, false, "---\nname: ab\ndescription: x\ncompatibility: " + strings.Repeat("y", 501) + "\n---\n",
			[]string{"compatibility ASK_FRONTMATTER_FIELD_INVALID error: compatibility is 501 characters; the limit is 500"}},
		{"compatibility mapping", format.KindSkill, false, "---\nname: ab\ndescription: x\ncompatibility:\n  agents: [codex]\n---\n",
			[]string{"compatibility ASK_FRONTMATTER_FIELD_INVALID error: compatibility is a mapping"}},
		{"metadata values", format.KindSkill, false, "---\nname: ab\ndescription: x\nmetadata:\n  version: 1.0\n  tags: [a]\n  ok: yes-it-is\n---\n",
			[]string{"metadata.tags ASK_FRONTMATTER_FIELD_INVALID error: metadata.tags is a list",
				"metadata.version ASK_FRONTMATTER_FIELD_INVALID error: metadata.version is a number"}},
		{"metadata list", format.KindSkill, false, "---\nname: ab\ndescription: x\nmetadata: [a]\n---\n",
			[]string{"metadata ASK_FRONTMATTER_FIELD_INVALID error: metadata is a list; it must be a mapping"}},
		{"allowed-tools list", format.KindSkill, false, "---\nname: ab\ndescription: x\nallowed-tools: [Read, Grep]\n---\n",
			[]string{"allowed-tools ASK_FRONTMATTER_FIELD_INVALID warning: allowed-tools is a list"}},
		{"allowed-tools list strict", format.KindSkill, true, "---\nname: ab\ndescription: x\nallowed-tools: [Read, Grep]\n---\n",
			[]string{"allowed-tools ASK_FRONTMATTER_FIELD_INVALID error: allowed-tools is a list"}},
		{"allowed-tools bool", format.KindSkill, false, "---\nname: ab\ndescription: x\nallowed-tools: true\n---\n",
			[]string{"allowed-tools ASK_FRONTMATTER_FIELD_INVALID error: allowed-tools is a boolean"}},
		{"license number", format.KindSkill, false, "---\nname: ab\ndescription: x\nlicense: 2\n---\n",
			[]string{"license ASK_FRONTMATTER_FIELD_INVALID error: license is a number"}},
		{"unknown key", format.KindSkill, false, "---\nname: ab\ndescription: x\ntags: [a]\n---\n",
			[]string{`tags ASK_FRONTMATTER_UNKNOWN_KEY warning: unknown front-matter key "tags"`}},
		{"unknown key strict", format.KindSkill, true, "---\nname: ab\ndescription: x\ntags: [a]\n---\n",
			[]string{`tags ASK_FRONTMATTER_UNKNOWN_KEY error: unknown front-matter key "tags"`}},
		{"claude key", format.KindSkill, false, "---\nname: ab\ndescription: x\nargument-hint: '[file]'\n---\n", nil},
		{"claude key strict", format.KindSkill, true, "---\nname: ab\ndescription: x\nargument-hint: '[file]'\n---\n",
			[]string{`argument-hint ASK_FRONTMATTER_UNKNOWN_KEY warning: "argument-hint" is a claude-code key`}},
		{"command without name", format.KindCommand, true, "---\ndescription: Run the release.\nargument-hint: '[version]'\nmodel: haiku\n---\nRelease $ARGUMENTS.\n", nil},
		{"command without description", format.KindCommand, false, "---\nargument-hint: x\n---\n",
			[]string{" ASK_REQUIRED_FIELD warning: has no description"}},
		{"command without front matter", format.KindCommand, false, "Release it.\n",
			[]string{" ASK_REQUIRED_FIELD warning: has no front matter"}},
		{"command with bad name", format.KindCommand, false, "---\nname: Bad\ndescription: x\n---\n",
			[]string{"name ASK_FRONTMATTER_FIELD_INVALID error: uppercase"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := decode(t, tt.kind, tt.src)
			got := CheckEntrypoint(e, DefaultAgentFrontMatterKeys(), gateFor(tt.strict))
			if len(got) != len(tt.want) {
				t.Fatalf("CheckEntrypoint(%q) = %v, want %d problems %q", tt.src, describe(got), len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				head, msg, _ := strings.Cut(w, ": ")
				g := got[i]
				if gh := g.Field + " " + g.Code + " " + g.severity().String(); gh != head || !strings.Contains(g.Message, msg) || g.Fix == "" {
					t.Errorf("CheckEntrypoint(%q)[%d] = %s: %s (fix %q), want %s: …%s…", tt.src, i, gh, g.Message, g.Fix, head, msg)
				}
			}
		})
	}
}

func TestCheckEntrypointNil(t *testing.T) {
	if got := CheckEntrypoint(nil, nil, GateStrict); got != nil {
		t.Errorf("CheckEntrypoint(nil) = %v, want nil", got)
	}
}

// describe renders field problems for failure messages.
func describe(ps []FieldProblem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Field + " " + p.Code + " " + p.severity().String() + ": " + p.Message
	}
	return out
}

// gateFor is GateStrict when strict, else GateDefault: the two gates the
// table-driven tests above were written for.
func gateFor(strict bool) Gate {
	if strict {
		return GateStrict
	}
	return GateDefault
}

// TestMetadataFixKeepsTheData: the fix for a metadata value that is not a
// string writes the same data as a string, never an empty one.
func TestMetadataFixKeepsTheData(t *testing.T) {
	e := decode(t, format.KindSkill, "---\nname: ab\ndescription: x\nmetadata:\n  version: 1.0\n  tags:\n    - a\n    - b\n  nested:\n    k: v\n  on: true\n  none:\n  'odd key': 7\n---\n")
	want := map[string]string{
		"metadata.version": `quote the value, e.g. version: "1.0"`,
		"metadata.tags":    `write it as one string, e.g. tags: "a, b"`,
		"metadata.nested":  `write it as one string, e.g. nested: "k: v"`,
		"metadata.on":      `quote the value, e.g. on: "true"`,
		"metadata.none":    `quote the value, e.g. none: ""`,
		"metadata.odd key": `quote the value, e.g. "odd key": "7"`,
	}
	got := CheckEntrypoint(e, nil, GateDefault)
	if len(got) != len(want) {
		t.Fatalf("CheckEntrypoint() = %v, want %d problems", describe(got), len(want))
	}
	for _, p := range got {
		if w, ok := want[p.Field]; !ok || p.Fix != w {
			t.Errorf("CheckEntrypoint() %s fix = %q, want %q", p.Field, p.Fix, w)
		}
		if p.Warning {
			t.Errorf("CheckEntrypoint() %s is a warning at GateDefault, want an error", p.Field)
		}
	}
	for _, p := range CheckEntrypoint(e, nil, GateInstall) {
		if !p.Warning {
			t.Errorf("CheckEntrypoint(GateInstall) %s is an error, want a warning", p.Field)
		}
	}
}
