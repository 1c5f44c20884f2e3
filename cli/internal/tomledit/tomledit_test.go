package tomledit

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// codexConfig is a config.toml as a user might keep it: comments in and
// between tables, a quoted project key, a trust table, odd spacing.
const codexConfig = `# Codex settings, by hand.
model = "gpt-5"   # the default
approval_policy = "on-request"

[features]
# nothing here yet

# MCP servers
[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

[mcp_servers.docs.env]
TOKEN = "x"
# end of docs

[projects."/home/u/repo"]
trust_level = "trusted"

[hooks.state."/home/u/.codex/hooks.json:session_start:0:0"]
trusted_hash = "sha256:abc"
`

func mustParse(t *testing.T, src string) *Document {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

func TestTables(t *testing.T) {
	d := mustParse(t, codexConfig)
	type row struct {
		path        string
		block, head string
	}
	var got []row
	for _, tb := range d.Tables() {
		got = append(got, row{
			path:  strings.Join(tb.Path, "|"),
			block: codexConfig[tb.Block.Start:tb.Block.End],
			head:  codexConfig[tb.Header.Start:tb.Header.End],
		})
	}
	want := []row{
		{"features", "\n[features]\n# nothing here yet\n", "[features]\n"},
		{"mcp_servers|docs", "\n# MCP servers\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n", "[mcp_servers.docs]\n"},
		{"mcp_servers|docs|env", "\n[mcp_servers.docs.env]\nTOKEN = \"x\"\n# end of docs\n", "[mcp_servers.docs.env]\n"},
		{"projects|/home/u/repo", "\n[projects.\"/home/u/repo\"]\ntrust_level = \"trusted\"\n", "[projects.\"/home/u/repo\"]\n"},
		{"hooks|state|/home/u/.codex/hooks.json:session_start:0:0", "\n[hooks.state.\"/home/u/.codex/hooks.json:session_start:0:0\"]\ntrusted_hash = \"sha256:abc\"\n", "[hooks.state.\"/home/u/.codex/hooks.json:session_start:0:0\"]\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tables() =\n%q\nwant\n%q", got, want)
	}
	if tb := d.Tables()[1]; tb.Line != 9 || tb.Array {
		t.Errorf("Tables()[1] line %d array %v, want line 9, not an array", tb.Line, tb.Array)
	}
}

func TestBlockComments(t *testing.T) {
	// A comment right above a header belongs to it; a comment followed by
	// a blank line stays with the table above; only one blank line goes
	// with a table.
	src := "[a]\nx = 1\n# about a\n\n\n# about b\n# more\n[b]\ny = 2\n"
	d := mustParse(t, src)
	tb := d.Tables()
	if got, want := src[tb[0].Block.Start:tb[0].Block.End], "[a]\nx = 1\n# about a\n\n"; got != want {
		t.Errorf("block of a = %q, want %q", got, want)
	}
	if got, want := src[tb[1].Block.Start:tb[1].Block.End], "\n# about b\n# more\n[b]\ny = 2\n"; got != want {
		t.Errorf("block of b = %q, want %q", got, want)
	}
	if got, want := src[tb[0].Header.Start:tb[0].ContentEnd], "[a]\nx = 1\n# about a\n"; got != want {
		t.Errorf("content of a = %q, want %q", got, want)
	}
}

func TestMultilineStringIsNotAHeader(t *testing.T) {
	src := "[a]\ns = '''\n[b]\n# no\n'''\n[c]\n"
	d := mustParse(t, src)
	var paths []string
	for _, tb := range d.Tables() {
		paths = append(paths, strings.Join(tb.Path, "."))
	}
	if want := []string{"a", "c"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("Tables() paths = %q, want %q", paths, want)
	}
}

func TestGet(t *testing.T) {
	d := mustParse(t, codexConfig+"\n[top]\nsub.k = 1\n")
	got, ok := d.Get([]string{"mcp_servers", "docs"})
	want := map[string]any{"command": "docs-mcp", "args": []any{"--stdio"}, "env": map[string]any{"TOKEN": "x"}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Get(mcp_servers.docs) = %v, %v, want %v, true", got, ok, want)
	}
	if got, ok := d.Get([]string{"top", "sub"}); !ok || got["k"] != int64(1) {
		t.Errorf("Get(top.sub) = %v, %v, want k=1 from the dotted key", got, ok)
	}
	if _, ok := d.Get([]string{"model"}); ok {
		t.Errorf("Get(model) is a table, want false for a string")
	}
	if _, ok := d.Get([]string{"nope"}); ok {
		t.Errorf("Get(nope) found a table")
	}
}

var agentSkills = Body{
	{"command", "/usr/local/bin/agent-skills"},
	{"args", []string{"mcp", "serve"}},
	{"env", map[string]string{"AGENT_SKILLS_HOME": "/h"}},
}

const agentSkillsText = `[mcp_servers.agent-skills]
command = "/usr/local/bin/agent-skills"
args = ["mcp", "serve"]

[mcp_servers.agent-skills.env]
AGENT_SKILLS_HOME = "/h"
`

func TestSetInsertsAfterSiblings(t *testing.T) {
	d := mustParse(t, codexConfig)
	out, err := d.Set([]string{"mcp_servers", "agent-skills"}, agentSkills)
	if err != nil {
		t.Fatalf("Set: %v", err)
	}
	want := strings.Replace(codexConfig, "# end of docs\n", "# end of docs\n\n"+agentSkillsText, 1)
	if string(out) != want {
		t.Errorf("Set =\n%s\nwant\n%s", out, want)
	}
	back, err := mustParse(t, string(out)).Delete([]string{"mcp_servers", "agent-skills"})
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if string(back) != codexConfig {
		t.Errorf("Delete after Set =\n%s\nwant the original\n%s", back, codexConfig)
	}
}

func TestSetAppends(t *testing.T) {
	key := []string{"hooks", "state", `/tmp/x "y".json:session_start:0:0`}
	body := map[string]any{"trusted_hash": "sha256:0123"}
	for _, tc := range []struct{ name, src, want string }{
		{"empty", "", "[hooks.state.\"/tmp/x \\\"y\\\".json:session_start:0:0\"]\ntrusted_hash = \"sha256:0123\"\n"},
		{"no final newline", "model = \"m\"", "model = \"m\"\n\n[hooks.state.\"/tmp/x \\\"y\\\".json:session_start:0:0\"]\ntrusted_hash = \"sha256:0123\"\n"},
		{"crlf", "a = 1\r\n[t]\r\nb = 2\r\n", "a = 1\r\n[t]\r\nb = 2\r\n\r\n[hooks.state.\"/tmp/x \\\"y\\\".json:session_start:0:0\"]\r\ntrusted_hash = \"sha256:0123\"\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := mustParse(t, tc.src).Set(key, body)
			if err != nil {
				t.Fatalf("Set: %v", err)
			}
			if string(out) != tc.want {
				t.Errorf("Set = %q, want %q", out, tc.want)
			}
			back, err := mustParse(t, string(out)).Delete(key)
			if err != nil {
				t.Fatalf("Delete: %v", err)
			}
			want := tc.src
			if want != "" && !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if string(back) != want {
				t.Errorf("Delete after Set = %q, want %q", back, want)
			}
		})
	}
}

func TestSetReplacesInPlace(t *testing.T) {
	src := "[mcp_servers.agent-skills]\ncommand = \"old\" # mine\n\n[x]\n\n[mcp_servers.agent-skills.env]\nA = \"1\"\n\n# tail\n"
	out, err := mustParse(t, src).Set([]string{"mcp_servers", "agent-skills"}, Body{{"command", "new"}})
	if err != nil {
		t.Fatalf("Set: %v", err)
	}
	// The comment after the blank line is in the body of [...env], which
	// goes with it.
	want := "[mcp_servers.agent-skills]\ncommand = \"new\"\n\n[x]\n"
	if string(out) != want {
		t.Errorf("Set = %q, want %q", out, want)
	}
}

func TestDelete(t *testing.T) {
	d := mustParse(t, codexConfig)
	out, err := d.Delete([]string{"mcp_servers", "docs"})
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	want := strings.Replace(codexConfig, "\n# MCP servers\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n\n[mcp_servers.docs.env]\nTOKEN = \"x\"\n# end of docs\n", "", 1)
	if string(out) != want {
		t.Errorf("Delete =\n%s\nwant\n%s", out, want)
	}
	out, err = d.Delete([]string{"hooks", "state", "/home/u/.codex/hooks.json:session_start:0:0"})
	if err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if want := strings.TrimSuffix(codexConfig, "\n[hooks.state.\"/home/u/.codex/hooks.json:session_start:0:0\"]\ntrusted_hash = \"sha256:abc\"\n"); string(out) != want {
		t.Errorf("Delete(hooks.state.k) =\n%s\nwant\n%s", out, want)
	}
	same, err := d.Delete([]string{"mcp_servers", "absent"})
	if err != nil || string(same) != codexConfig {
		t.Errorf("Delete(absent) = %q, %v, want the document unchanged", same, err)
	}
	first, err := mustParse(t, "[a]\nx = 1\n\n[b]\n").Delete([]string{"a"})
	if err != nil || string(first) != "[b]\n" {
		t.Errorf("Delete(first table) = %q, %v, want %q", first, err, "[b]\n")
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		path      []string
		want      string
	}{
		{"root dotted key", "mcp_servers.agent-skills.command = \"x\"\n", []string{"mcp_servers", "agent-skills"}, "line 1 defines it with the dotted key mcp_servers.agent-skills.command in the root table"},
		{"dotted key in parent", "[mcp_servers]\nagent-skills.command = \"x\"\n", []string{"mcp_servers", "agent-skills"}, "line 2 defines it with the dotted key agent-skills.command in [mcp_servers]"},
		{"inline table", "mcp_servers = { agent-skills = { command = \"x\" } }\n", []string{"mcp_servers", "agent-skills"}, "line 1 makes mcp_servers an inline table in the root table"},
		{"inline member", "[mcp_servers]\nagent-skills = { command = \"x\" }\n", []string{"mcp_servers", "agent-skills"}, "line 2 defines it with the key agent-skills in [mcp_servers]"},
		{"scalar parent", "hooks = 1\n", []string{"hooks", "state", "k"}, "line 1 makes hooks a value"},
		{"array of tables", "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = \"x\"\n", []string{"hooks", "SessionStart"}, "it is an array of tables (line 1)"},
		{"inside array", "[[a]]\n[a.b]\n", []string{"a", "b"}, "it is inside the array of tables [[a]] (line 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.src)
			_, err := d.Set(tc.path, Body{{"command", "y"}})
			var ee *EditError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Set(%q) error = %v, want an *EditError containing %q", tc.path, err, tc.want)
			}
			if tc.name == "array of tables" {
				return // Delete removes a whole array of tables.
			}
			_, err = d.Delete(tc.path)
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Delete(%q) error = %v, want an *EditError containing %q", tc.path, err, tc.want)
			}
		})
	}
}

func TestDeleteArrayOfTables(t *testing.T) {
	src := "a = 1\n\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = \"x\"\n\n[other]\n"
	out, err := mustParse(t, src).Delete([]string{"hooks", "SessionStart"})
	if err != nil || string(out) != "a = 1\n\n[other]\n" {
		t.Errorf("Delete(hooks.SessionStart) = %q, %v, want %q", out, err, "a = 1\n\n[other]\n")
	}
}

func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		src          string
		line, column int
	}{
		{"a = 1\nb = \n", 2, 5},
		{"[a]\nx = 1\n[a]\n", 3, 2},
		{"a = 1\na = 2\n", 2, 1},
	} {
		_, err := Parse([]byte(tc.src))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.column {
			t.Errorf("Parse(%q) = %v, want a *ParseError at %d:%d", tc.src, err, tc.line, tc.column)
		}
	}
	_, err := Parse(make([]byte, MaxSize+1))
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "more than") {
		t.Errorf("Parse(too large) = %v, want a *ParseError about the size", err)
	}
}

func TestRender(t *testing.T) {
	got, err := Render([]string{"t", "a b"}, map[string]any{
		"s":     "q\"\\\b\t\n\f\r\x01\x7fé",
		"i":     int64(-3),
		"u":     uint8(7),
		"f":     1.0,
		"g":     math.Inf(-1),
		"b":     true,
		"arr":   []any{"x", 2, []int{3}, map[string]any{"k v": "w"}},
		"empty": []string{},
		"sub":   map[string]string{"z": "1", "a": "2"},
	})
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	want := `[t."a b"]
arr = ["x", 2, [3], { "k v" = "w" }]
b = true
empty = []
f = 1.0
g = -inf
i = -3
s = "q\"\\\b\t\n\f\r\u0001\u007Fé"
u = 7

[t."a b".sub]
a = "2"
z = "1"
`
	if got != want {
		t.Errorf("Render =\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []any{
		map[string]any{"x": nil},
		map[string]any{"x": uint64(math.MaxUint64)},
		map[string]any{"x": "\xff"},
		map[string]any{"x": struct{}{}},
		"not a table",
	} {
		if _, err := Render([]string{"t"}, bad); err == nil {
			t.Errorf("Render(%#v) succeeded, want an error", bad)
		}
	}
}

func TestEditNearTheLimit(t *testing.T) {
	// A document just under MaxSize still takes an edit whose result is
	// over it: the limit is for what is read, not for what Set returns.
	var b strings.Builder
	for i := 0; b.Len() < MaxSize-20; i++ {
		fmt.Fprintf(&b, "[t%d]\nk = 1\n\n", i)
	}
	out, err := mustParse(t, b.String()).Set([]string{"mcp_servers", "agent-skills"}, agentSkills)
	if err != nil {
		t.Fatalf("Set on a %d-byte document: %v", b.Len(), err)
	}
	if len(out) <= MaxSize || !strings.HasSuffix(string(out), agentSkillsText) {
		t.Errorf("Set returned %d bytes ending %q, want more than MaxSize ending with the table", len(out), out[len(out)-40:])
	}
}
