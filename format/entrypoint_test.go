package format

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeEntrypoint(t *testing.T) {
	in := "---\nname: my-skill\ndescription: >\n  Does things.\nversion: 1.0\nmetadata:\n  author: jane\nallowed-tools: [Read, Grep]\nuser-invocable: true\n---\n\n# My skill\n\nSee [ref](references/a.md).\n"
	e, diags := DecodeEntrypoint([]byte(in), "SKILL.md", KindSkill)
	if len(diags) != 0 {
		t.Fatalf("DecodeEntrypoint diagnostics = %v, want none", diags)
	}
	wantFields := map[string]any{
		"name": "my-skill", "description": "Does things.\n", "version": 1.0,
		"metadata": map[string]any{"author": "jane"}, "allowed-tools": []any{"Read", "Grep"},
		"user-invocable": true,
	}
	if !reflect.DeepEqual(e.Fields, wantFields) {
		t.Errorf("DecodeEntrypoint().Fields = %#v, want %#v", e.Fields, wantFields)
	}
	checks := []struct {
		what string
		got  any
		want any
	}{
		{"HasMeta", e.HasMeta, true},
		{"MetaLine", e.MetaLine, 2},
		{"BodyLine", e.BodyLine, 11},
		{"Body", string(e.Body), "\n# My skill\n\nSee [ref](references/a.md).\n"},
		{"Text(version)", e.Text("version"), "1.0"},
		{"Pos(name)", e.Pos("name"), Pos{2, 7}},
		{"KeyPos(name)", e.KeyPos("name"), Pos{2, 1}},
		{"Pos(metadata.author)", e.Pos("metadata.author"), Pos{7, 11}},
		{"Pos(allowed-tools[1])", e.Pos("allowed-tools[1]"), Pos{8, 23}},
		{"Has(metadata.author)", e.Has("metadata.author"), true},
		{"Has(license)", e.Has("license"), false},
		{"Keys[0]", e.Keys[0], Key{"name", Pos{2, 1}}},
		{"len(Keys)", len(e.Keys), 6},
		{"Kind", e.Kind, KindSkill},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("DecodeEntrypoint().%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if s, ok := e.String("name"); !ok || s != "my-skill" {
		t.Errorf("Entrypoint.String(name) = %q, %v, want my-skill, true", s, ok)
	}
	if _, ok := e.String("version"); ok {
		t.Errorf("Entrypoint.String(version) ok = true, want false for a number")
	}
}

func TestDecodeEntrypointNoFrontMatter(t *testing.T) {
	e, diags := DecodeEntrypoint([]byte("# Just markdown\n"), "COMMAND.md", KindCommand)
	if len(diags) != 0 || e == nil || e.HasMeta || len(e.Fields) != 0 || e.BodyLine != 1 {
		t.Errorf("DecodeEntrypoint(no front matter) = %+v, %v; want HasMeta false, no fields, body line 1", e, diags)
	}
}

func TestDecodeEntrypointEmptyFrontMatter(t *testing.T) {
	e, diags := DecodeEntrypoint([]byte("---\n---\nbody\n"), "SKILL.md", KindSkill)
	if len(diags) != 0 || e == nil || !e.HasMeta || len(e.Fields) != 0 || e.BodyLine != 3 {
		t.Errorf("DecodeEntrypoint(empty front matter) = %+v, %v; want HasMeta, no fields, body line 3", e, diags)
	}
}

func TestDecodeEntrypointProblems(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantNil bool
		msg     string
	}{
		{"unclosed", "---\nname: a\n", []string{"1:1 ASK_FRONTMATTER_INVALID"}, true, "never closed"},
		{"bad yaml", "---\nname: a\ndescription: [\n---\n", []string{"3:1 ASK_FRONTMATTER_INVALID"}, true, "not valid YAML"},
		{"bad yaml offset by bom and crlf", "\ufeff---\r\nname: a\r\n b: c\r\n---\r\n", []string{"3:1 ASK_FRONTMATTER_INVALID"}, true, "not valid YAML"},
		{"list", "---\n- a\n---\n", []string{"2:1 ASK_FRONTMATTER_INVALID"}, true, "must be a mapping"},
		{"scalar", "---\nhello\n---\n", []string{"2:1 ASK_FRONTMATTER_INVALID"}, true, "found a string"},
		{"duplicate", "---\nname: a\nname: b\n---\n", []string{"3:1 ASK_FRONTMATTER_INVALID"}, false, "appears twice"},
		{"alias", "---\na: &x 1\nb: *x\n---\n", []string{"3:4 ASK_FRONTMATTER_INVALID"}, false, "alias"},
		{"too large", "---\na: 1\n---\n" + strings.Repeat("x", 1<<20), []string{"0:0 ASK_PACKAGE_TOO_LARGE"}, true, "1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, diags := DecodeEntrypoint([]byte(tt.in), "SKILL.md", KindSkill)
			if got := diagSummary(diags); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecodeEntrypoint(%q) = %v, want %v", tt.in, diags, tt.want)
			}
			if (e == nil) != tt.wantNil {
				t.Errorf("DecodeEntrypoint(%q) entrypoint nil = %v, want %v", tt.in, e == nil, tt.wantNil)
			}
			if len(diags) > 0 && (!strings.Contains(diags[0].Message, tt.msg) || diags[0].File != "SKILL.md" || diags[0].Fix == "") {
				t.Errorf("DecodeEntrypoint(%q) = %+v, want file SKILL.md, a fix and a message containing %q", tt.in, diags[0], tt.msg)
			}
		})
	}
}

func TestDecodeEntrypointWorkflowDelegates(t *testing.T) {
	e, diags := DecodeEntrypoint([]byte("export const meta = { name: 'w', description: 'd' };\n"), "WORKFLOW.js", KindWorkflow)
	if len(diags) != 0 || e == nil || e.Fields["name"] != "w" || e.Kind != KindWorkflow {
		t.Errorf("DecodeEntrypoint(workflow) = %+v, %v; want name w", e, diags)
	}
}
