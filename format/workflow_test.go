package format

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestReadWorkflowMeta(t *testing.T) {
	src := `// A workflow.
import { run } from './lib.js'
const s = "export const meta = { fake: 1 }"; const q = 'it\'s'
const tpl = ` + "`export const meta = ${ { a: `nested ${'}'}` } }`" + `
/* export const meta = {} */
const re = /export const meta = {[}]/g, d = 4 / 2 / 1
export const meta = {
  name: 'review-pr', // trailing comment
  "description": "Reviews a PR.\nTwo lines \u00e9 \u{1F600} \x41 \\ \' \" \
continued",
  version: '1.0.0',
  count: 42, hex: 0xFF, oct: 0o17, bin: 0b101, big: 1_000_000,
  ratio: 1.5e3, neg: -2, negf: -.5, small: 5e-1,
  on: true, off: false, none: null,
  tags: ['a', "b",],
  nested: { deep: [1, [2, { x: 'y' }]] },
  'quoted-key': 1,
  /* block */ 7: 'seven',
};
export default async function main() { return run(meta) }
`
	e, diags := ReadWorkflowMeta([]byte(src), "WORKFLOW.js")
	if len(diags) != 0 {
		t.Fatalf("ReadWorkflowMeta diagnostics = %v, want none", diags)
	}
	want := map[string]any{
		"name":        "review-pr",
		"description": "Reviews a PR.\nTwo lines é 😀 A \\ ' \" continued",
		"version":     "1.0.0",
		"count":       int64(42), "hex": int64(255), "oct": int64(15), "bin": int64(5), "big": int64(1000000),
		"ratio": 1500.0, "neg": int64(-2), "negf": -0.5, "small": 0.5,
		"on": true, "off": false, "none": nil,
		"tags":       []any{"a", "b"},
		"nested":     map[string]any{"deep": []any{int64(1), []any{int64(2), map[string]any{"x": "y"}}}},
		"quoted-key": int64(1),
		"7":          "seven",
	}
	if !reflect.DeepEqual(e.Fields, want) {
		t.Errorf("ReadWorkflowMeta().Fields =\n%#v\nwant\n%#v", e.Fields, want)
	}
	checks := []struct {
		what string
		got  any
		want any
	}{
		{"HasMeta", e.HasMeta, true},
		{"MetaLine", e.MetaLine, 7},
		{"Pos(name)", e.Pos("name"), Pos{8, 9}},
		{"KeyPos(name)", e.KeyPos("name"), Pos{8, 3}},
		{"Pos(tags[1])", e.Pos("tags[1]"), Pos{15, 15}},
		{"Pos(nested.deep[1][1].x)", e.Pos("nested.deep[1][1].x"), Pos{16, 32}},
		{"Text(ratio)", e.Text("ratio"), "1.5e3"},
		{"Text(neg)", e.Text("neg"), "-2"},
		{"Text(name)", e.Text("name"), "review-pr"},
		{"Keys[0]", e.Keys[0], Key{"name", Pos{8, 3}}},
		{"len(Keys)", len(e.Keys), 19},
		{"Kind", e.Kind, KindWorkflow},
		{"Body", e.Body, []byte(nil)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("ReadWorkflowMeta().%s = %v, want %v", c.what, c.got, c.want)
		}
	}
}

func TestReadWorkflowMetaRefusals(t *testing.T) {
	tests := []struct {
		name string
		in   string
		pos  Pos
		msg  string
	}{
		{"missing", "export const other = {}\n", Pos{}, "no `export const meta"},
		{"only in string", "const s = 'export const meta = {}'\n", Pos{}, "no `export const meta"},
		{"only in comment", "// export const meta = {}\n", Pos{}, "no `export const meta"},
		{"not object", "export const meta = 'x'\n", Pos{1, 21}, "must be an object literal"},
		{"let", "export let meta = {}\n", Pos{}, "no `export const meta"},
		{"template", "export const meta = { name: `x` }\n", Pos{1, 29}, "template strings"},
		{"identifier", "export const meta = { name: NAME }\n", Pos{1, 29}, "identifier NAME"},
		{"call", "export const meta = {\n  name: make('x') }\n", Pos{2, 9}, "function call make(…)"},
		{"call after string", "export const meta = { name: 'a'.toUpperCase() }\n", Pos{1, 32}, "member access"},
		{"operator", "export const meta = { name: 'a' + 'b' }\n", Pos{1, 33}, `operator "+"`},
		{"ternary", "export const meta = { n: 1 ? 2 : 3 }\n", Pos{1, 28}, `operator "?"`},
		{"spread", "export const meta = { ...base }\n", Pos{1, 23}, "spread"},
		{"spread in array", "export const meta = { a: [...x] }\n", Pos{1, 27}, "spread"},
		{"computed key", "export const meta = { [k]: 1 }\n", Pos{1, 23}, "computed keys"},
		{"shorthand", "export const meta = { name }\n", Pos{1, 23}, "shorthand property name"},
		{"method", "export const meta = { name() { return 1 } }\n", Pos{1, 23}, "method name()"},
		{"getter", "export const meta = { get name() { return 1 } }\n", Pos{1, 23}, "accessor or method get name"},
		{"undefined", "export const meta = { a: undefined }\n", Pos{1, 26}, "undefined is not allowed"},
		{"new", "export const meta = { a: new Date() }\n", Pos{1, 26}, "expression starting with new"},
		{"arrow", "export const meta = { a: () => 1 }\n", Pos{1, 26}, `operator "("`},
		{"regexp", "export const meta = { a: /x/ }\n", Pos{1, 26}, "regular expressions"},
		{"hole", "export const meta = { a: [1,,2] }\n", Pos{1, 29}, "array holes"},
		{"unary plus", "export const meta = { a: +1 }\n", Pos{1, 26}, `operator "+"`},
		{"minus string", "export const meta = { a: -'1' }\n", Pos{1, 26}, "may only precede a number"},
		{"bigint", "export const meta = { a: 1n }\n", Pos{1, 26}, "BigInt"},
		{"legacy octal", "export const meta = { a: 017 }\n", Pos{1, 26}, "not a valid number"},
		{"bad separator", "export const meta = { a: 1__0 }\n", Pos{1, 26}, "not a valid number"},
		{"bad exponent", "export const meta = { a: 1e }\n", Pos{1, 26}, "not a valid number"},
		{"empty hex", "export const meta = { a: 0x }\n", Pos{1, 26}, "not a valid number"},
		{"octal escape", "export const meta = { a: '\\1' }\n", Pos{1, 27}, "octal escape"},
		{"bad hex escape", "export const meta = { a: '\\xZZ' }\n", Pos{1, 27}, "\\x must be followed"},
		{"bad unicode escape", "export const meta = { a: '\\u12' }\n", Pos{1, 27}, "\\u must be followed"},
		{"unicode beyond", "export const meta = { a: '\\u{110000}' }\n", Pos{1, 27}, "beyond the last Unicode"},
		{"unclosed string", "export const meta = { a: 'abc }\n", Pos{1, 26}, "never closed"},
		{"unclosed object", "export const meta = { a: 1,\n", Pos{2, 1}, "expected a key"},
		{"missing comma", "export const meta = { a: 1 b: 2 }\n", Pos{1, 28}, `expected "," or "}"`},
		{"missing colon", "export const meta = { a 1 }\n", Pos{1, 25}, `expected ":" after the key a`},
		{"followed by operator", "export const meta = { a: 1 } + x\n", Pos{1, 30}, "followed by"},
		{"followed by member", "export const meta = { a: 1 }.a\n", Pos{1, 29}, "followed by"},
		{"unclosed comment", "/* export const meta = {}\n", Pos{1, 1}, "never closed with */"},
		{"unclosed comment inside", "export const meta = { a: 1 /* }\n", Pos{1, 28}, "never closed with */"},
		{"unclosed template before", "const x = `abc\nexport const meta = {}\n", Pos{1, 11}, "template string starting here is never closed"},
		{"unclosed substitution", "const x = `${ a \nexport const meta = {}\n", Pos{3, 1}, "substitution ${ is never closed"},
		{"deep nesting", "export const meta = { a: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + " }\n", Pos{1, 89}, "nests deeper than 64"},
		{"deep template nesting", "const x = " + strings.Repeat("`${", 100) + "\n", Pos{1, 11 + 3*65}, "nests deeper than 64"},
		{"invalid utf8", "export const meta = { a: 1 \xff }\n", Pos{1, 28}, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, diags := ReadWorkflowMeta([]byte(tt.in), "WORKFLOW.js")
			if e != nil || len(diags) != 1 {
				t.Fatalf("ReadWorkflowMeta(%q) = %v, %v; want nil and one diagnostic", tt.in, e, diags)
			}
			d := diags[0]
			if d.Code != "ASK_WORKFLOW_META_INVALID" || d.Pos != tt.pos || !strings.Contains(d.Message, tt.msg) || d.File != "WORKFLOW.js" || d.Fix == "" {
				t.Errorf("ReadWorkflowMeta(%q) = %v, want ASK_WORKFLOW_META_INVALID at %v containing %q", tt.in, d, tt.pos, tt.msg)
			}
		})
	}
}

func TestReadWorkflowMetaAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		key  string
		want any
	}{
		{"no semicolon then code", "export const meta = { a: 1 }\nfoo()\n", "a", int64(1)},
		{"several declarators", "export const meta = { a: 1 }, other = 2\n", "a", int64(1)},
		{"crlf and bom", "\ufeffexport const meta = {\r\n  a: 'x',\r\n}\r\n", "a", "x"},
		{"continuation crlf", "export const meta = { a: 'x\\\r\ny' }\n", "a", "xy"},
		{"surrogate pair", "export const meta = { a: '\\uD83D\\uDE00' }\n", "a", "😀"},
		{"lone surrogate", "export const meta = { a: '\\uD83D' }\n", "a", "\uFFFD"},
		{"null escape", "export const meta = { a: '\\0' }\n", "a", "\x00"},
		{"identity escape", "export const meta = { a: '\\q' }\n", "a", "q"},
		{"division not regex", "const a = 4 / 2; const b = (1) / 2 / 3\nexport const meta = { a: 1 }\n", "a", int64(1)},
		{"regex with slash in class", "const r = /[/]export const meta = {/\nexport const meta = { a: 2 }\n", "a", int64(2)},
		{"nested meta ignored", "function f() { const meta = { a: 0 } }\nexport const meta = { a: 3 }\n", "a", int64(3)},
		{"big int becomes float", "export const meta = { a: 99999999999999999999 }\n", "a", 1e20},
		{"min int", "export const meta = { a: -9223372036854775808 }\n", "a", float64(math.MinInt64)},
		{"hex uint", "export const meta = { a: 0xFFFFFFFFFFFFFFFF }\n", "a", float64(math.MaxUint64)},
		{"unicode identifier key", "export const meta = { naïve: 1 }\n", "naïve", int64(1)},
		{"empty object", "export const meta = {}\n", "", nil},
		{"keyword key", "export const meta = { default: 1, new: 2 }\n", "default", int64(1)},
		{"hashbang", "#!/usr/bin/env node\nexport const meta = { a: 1 }\n", "a", int64(1)},
		{"comment between", "export /* x */ const // y\n meta /* z */ = { a: 1 }\n", "a", int64(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, diags := ReadWorkflowMeta([]byte(tt.in), "WORKFLOW.js")
			if e == nil || len(diags) != 0 {
				t.Fatalf("ReadWorkflowMeta(%q) = %v, %v; want an entrypoint", tt.in, e, diags)
			}
			if tt.key == "" {
				if len(e.Fields) != 0 {
					t.Errorf("ReadWorkflowMeta(%q).Fields = %v, want empty", tt.in, e.Fields)
				}
				return
			}
			if got := e.Fields[tt.key]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ReadWorkflowMeta(%q).Fields[%q] = %#v, want %#v", tt.in, tt.key, got, tt.want)
			}
		})
	}
}

func TestReadWorkflowMetaDuplicateKey(t *testing.T) {
	e, diags := ReadWorkflowMeta([]byte("export const meta = {\n  name: 'a',\n  'name': 'b',\n}\n"), "WORKFLOW.js")
	if e == nil || len(diags) != 1 || diags[0].Pos != (Pos{3, 3}) || e.Fields["name"] != "b" {
		t.Errorf("ReadWorkflowMeta(duplicate) = %v, %v; want the entrypoint and one diagnostic at 3:3", e, diags)
	}
}

func TestReadWorkflowMetaTooLarge(t *testing.T) {
	in := "export const meta = { a: 1 }\n" + strings.Repeat("//\n", 1<<19)
	if e, diags := ReadWorkflowMeta([]byte(in), "WORKFLOW.js"); e != nil || len(diags) != 1 || diags[0].Code != "ASK_PACKAGE_TOO_LARGE" {
		t.Errorf("ReadWorkflowMeta(1.5 MiB) = %v, %v; want ASK_PACKAGE_TOO_LARGE", e, diags)
	}
}

// TestReadWorkflowMetaLinearTime guards against positions being computed by
// rescanning the line: an 800 KB single-line literal once took minutes.
func TestReadWorkflowMetaLinearTime(t *testing.T) {
	in := []byte("export const meta = { a: [" + strings.Repeat("'x',", 200_000) + "] }")
	start := time.Now()
	e, diags := ReadWorkflowMeta(in, "WORKFLOW.js")
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("ReadWorkflowMeta(800 KB on one line) took %v, want well under 10s", elapsed)
	}
	if len(diags) != 0 || len(e.Fields["a"].([]any)) != 200_000 {
		t.Errorf("ReadWorkflowMeta(800 KB on one line) = %d diagnostics, want none and 200000 items", len(diags))
	}
	if got := e.Pos("a[199999]"); got != (Pos{1, 27 + 4*199_999}) {
		t.Errorf("ReadWorkflowMeta().Pos(a[199999]) = %v, want %v", got, Pos{1, 27 + 4*199_999})
	}
}
