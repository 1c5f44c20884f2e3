package format

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// encodeYAML is what AppendYAML stands in for: yaml.v3's Encoder with an
// indent of 2.
func encodeYAML(t *testing.T, root *yaml.Node) ([]byte, bool) {
	t.Helper()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, false
	}
	if err := enc.Close(); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// checkAppendYAML compares AppendYAML with the Encoder: byte-identical
// whenever AppendYAML writes root. It returns whether it did.
func checkAppendYAML(t *testing.T, root *yaml.Node) bool {
	t.Helper()
	got, ok := AppendYAML([]byte("prefix\n"), root)
	if !ok {
		if string(got) != "prefix\n" {
			t.Fatalf("AppendYAML declined but changed b to %q", got)
		}
		return false
	}
	want, encoded := encodeYAML(t, root)
	if !encoded {
		t.Fatalf("AppendYAML wrote %q where yaml.v3 fails", got)
	}
	if got := got[len("prefix\n"):]; !bytes.Equal(got, want) {
		t.Fatalf("AppendYAML =\n%s\nwant (yaml.v3)\n%s", got, want)
	}
	checkFastYAML(t, string(want)) // and what it writes reads back as yaml.v3 reads it
	return true
}

// scalarNode, mapNode and seqNode build trees as the callers do.
func scalarNode(tag, v string, style yaml.Style) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v, Style: style}
}

func mapNode(kv ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: kv}
}

func seqNode(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func str(s string) *yaml.Node { return scalarNode("!!str", s, 0) }

// pairs maps each key to a !!str value.
func pairs(kv ...string) *yaml.Node {
	m := mapNode()
	for i := 0; i < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i]), str(kv[i+1]))
	}
	return m
}

func TestAppendYAMLMatchesEncoder(t *testing.T) {
	written := []*yaml.Node{
		pairs("name", "bench-kotlin-006", "description", "Help a kotlin developer structure coroutines, with the checks a reviewer makes. Use when asked.", "license", "Apache-2.0"),
		pairs("a", "say: hi", "b", "a #tag", "c", "ends:", "d", "#first", "e", "- item", "f", "?q", "g", "? q", "h", ":x", "i", ": x", "j", "it's"),
		pairs("k", "'quoted'", "l", `"dq"`, "m", `back\slash`, "n", " lead", "o", "trail ", "p", "---y", "q", "a...", "r", "a,b[c]{d}", "s", "@at", "t", "`tick`"),
		pairs("v", "true", "w", "Null", "x", "~", "y", "<<", "yes", "yes", "on", "off", "z", "y"),
		pairs("a", "1.0", "b", "0x1F", "c", "+1", "d", ".inf", "e", "1e5", "f", "...", "g", "- x", "h", "0b101", "i", "-0o17", "j", "1_000", "k", "+.5e-3", "l", "0.0.0-20260102030405-0123456789ab", "m", "1.", "n", "12345678901234567890123"),
		pairs("version", "0.0.0-local-954fc45045ec", "w", "1.2.3-rc.1+build", "x", "-dash", "y", "1/2", "z", ".hidden"),
		mapNode(str("deep"), mapNode(str("b"), mapNode(str("c"), str("d")), str("a"), scalarNode("!!bool", "true", 0))),
		mapNode(str("files"), seqNode(str("SKILL.md"), str("references/"), str("x - y"), str("a: b"), str("#c"))),
		mapNode(scalarNode("", "schemaVersion", 0), scalarNode("!!int", "1", 0), scalarNode("", "n", 0), scalarNode("!!int", "-42", 0),
			str("z"), scalarNode("!!null", "null", 0), str("f"), scalarNode("!!bool", "false", 0)),
		mapNode(str("display_name"), scalarNode("!!str", `Bench "Kotlin" 006`, yaml.DoubleQuotedStyle), str("t"), scalarNode("!!str", "true", yaml.DoubleQuotedStyle),
			str("q"), scalarNode("!!str", `a\b 'c' d: e #f`, yaml.DoubleQuotedStyle)),
	}
	for _, root := range written {
		if !checkAppendYAML(t, root) {
			t.Errorf("AppendYAML(%v) left it to yaml.v3, want it written", render(root))
		}
	}
	declined := []*yaml.Node{
		mapNode(),
		pairs("a", ""),
		pairs("a", "2026-12-01"),
		pairs("a", "tab\there"),
		pairs("a", "line\nbreak"),
		pairs("a", "caf\u00e9"),
		pairs("true", "x"),
		pairs("a b: c", "x"),
		pairs("12", "x"),
		pairs(strings.Repeat("k", 129), "x"),
		mapNode(str("a"), mapNode()),
		mapNode(str("a"), seqNode()),
		mapNode(str("a"), seqNode(pairs("b", "c"))),
		mapNode(str("a"), scalarNode("!!float", "1.5", 0)),
		mapNode(str("a"), scalarNode("!!int", "007", 0)),
		mapNode(str("a"), scalarNode("!!str", "x", yaml.LiteralStyle)),
		mapNode(str("a"), &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str("b"), str("c")}}),
		mapNode(str("a"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x", LineComment: "# c"}),
		mapNode(scalarNode("", "a", 0), scalarNode("", "true", 0)),
		str("not a mapping"),
	}
	for _, root := range declined {
		if checkAppendYAML(t, root) {
			t.Errorf("AppendYAML(%v) wrote it, want it left to yaml.v3", render(root))
		}
	}
}

// render is root as yaml.v3 writes it, for messages.
func render(root *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	if err := enc.Encode(root); err != nil {
		return err.Error()
	}
	return b.String()
}

// FuzzAppendYAML holds AppendYAML to yaml.v3's Encoder for trees built
// from arbitrary keys and scalars: at the top level, nested, in a
// sequence, plain and double-quoted, with every tag the callers use.
func FuzzAppendYAML(f *testing.F) {
	for _, s := range [][2]string{
		{"name", "a-skill"}, {"description", "Does x: y. Use when #z."}, {"k", `'q' "d" \`},
		{"x", "true"}, {"- a", "? b"}, {"a:", ":b"}, {"...", "---"}, {"k", " sp "}, {"y", "caf\u00e9"},
		{"202", "A00"}, {"v", "0.0.0-local-9a"}, {"v", "1_000"}, {"t", "2001-12-14t21:59:43.10-05:00"}, {"n", "-0b101"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, k, v string) {
		for _, tag := range []string{"", "!!str", "!!int", "!!bool", "!!null"} {
			for _, style := range []yaml.Style{0, yaml.DoubleQuotedStyle} {
				val := scalarNode(tag, v, style)
				checkAppendYAML(t, mapNode(scalarNode(tag, k, 0), val))
				checkAppendYAML(t, mapNode(str("name"), val, str(k), mapNode(str(v), str(k), str("z"), val)))
				checkAppendYAML(t, mapNode(str(k), seqNode(val, str(k))))
			}
		}
	})
}
