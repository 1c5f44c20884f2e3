package agents

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// checkEmitFast compares emitFast with yaml.v3 (encodeNodes) for m in
// byte order of its keys: byte-identical whenever emitFast writes it. It
// returns whether emitFast wrote it.
func checkEmitFast(t *testing.T, m map[string]any, style yaml.Style) bool {
	t.Helper()
	ordered := sortedKeys(m)
	got, ok := emitFast(m, ordered, style)
	want, err := encodeNodes(m, ordered, style)
	if err != nil {
		if ok {
			t.Fatalf("emitFast(%#v) wrote %q where yaml.v3 fails: %v", m, got, err)
		}
		return false
	}
	if ok && !bytes.Equal(got, want) {
		t.Fatalf("emitFast(%#v, style %v) =\n%s\nwant (yaml.v3)\n%s", m, style, got, want)
	}
	return ok
}

func TestEmitFastMatchesYAML(t *testing.T) {
	fast := []map[string]any{
		{"name": "bench-kotlin-006", "description": "Help a kotlin developer structure coroutines step by step, with the checks a careful reviewer would make. Use when asked to review.", "license": "Apache-2.0",
			"metadata": map[string]any{"short-description": "structure coroutines for kotlin"}},
		{"name": "x", "description": "Reviews code: finds bugs", "user-invocable": false, "n": int64(-3), "u": uint64(7), "i": 4, "z": nil},
		{"description": "it's #1 here", "a": "say: hi", "b": "a #tag", "c": "ends:", "d": "#first", "g": "?q", "h": "? q", "i": ":x", "j": ": x"},
		{"k": "'quoted'", "l": "\"dq\"", "m": "back\\slash", "n": " lead", "o": "trail ", "p": "x---", "q": "a...", "r": "a,b[c]{d}", "s": "@at", "t": "`tick`", "u": "%pct"},
		{"v": "true", "w": "Null", "x": "~", "y": "<<", "yes": "yes", "on": "off", "z": "y"},
		{"deep": map[string]any{"b": map[string]any{"c": "d", "a": true}, "a": "x: y"}},
		{"allowed-tools": "Read Write Bash(git:*)", "argument-hint": "[file]", "model": "opus"},
	}
	for _, m := range fast {
		if !checkEmitFast(t, m, 0) {
			t.Errorf("emitFast(%#v) left it to yaml.v3, want it written", m)
		}
	}
	quoted := map[string]any{"display_name": "Bench \"Kotlin\" 006", "short_description": `a\b 'c' d: e #f`, "t": "true"}
	if !checkEmitFast(t, quoted, yaml.DoubleQuotedStyle) {
		t.Errorf("emitFast(%#v, double-quoted) left it to yaml.v3, want it written", quoted)
	}
	slow := []map[string]any{
		{"a": []any{"x"}},
		{"a": 1.5},
		{"a": map[string]any{}},
		{"a": ""},
		{"a": "1.0"},
		{"a": "+1"},
		{"a": ".5"},
		{"a": "- item"},
		{"a": "-dash"},
		{"a": "..."},
		{"a": "2026-12-01"},
		{"a": "tab\there"},
		{"a": "line\nbreak"},
		{"a": "caf\u00e9"},
		{"true": "x"},
		{"a b: c": "x"},
		{strings.Repeat("k", 129): "x"},
		{"a": map[string]any{"b": []any{1}}},
	}
	for _, m := range slow {
		if checkEmitFast(t, m, 0) {
			t.Errorf("emitFast(%#v) wrote it, want it left to yaml.v3", m)
		}
	}
}

// FuzzEmitFast holds emitFast to yaml.v3's bytes for front matter built
// from arbitrary keys and strings, at the top level and nested, plain and
// double-quoted.
func FuzzEmitFast(f *testing.F) {
	for _, s := range [][2]string{
		{"name", "a-skill"}, {"description", "Does x: y. Use when #z."}, {"k", "'q' \"d\" \\"},
		{"x", "true"}, {"- a", "? b"}, {"a:", ":b"}, {"...", "---"}, {"k", " sp "}, {"y", "caf\u00e9"},
	} {
		f.Add(s[0], s[1], true, int64(1))
	}
	f.Fuzz(func(t *testing.T, k, v string, b bool, n int64) {
		maps := []map[string]any{
			{k: v},
			{"name": v, k: b, "n": n, "z": nil},
			{"metadata": map[string]any{k: v, "x": map[string]any{v: k}}},
			{k: map[string]any{"a": v}, "b": v},
		}
		for _, m := range maps {
			for _, style := range []yaml.Style{0, yaml.DoubleQuotedStyle} {
				checkEmitFast(t, m, style)
			}
		}
	})
}
