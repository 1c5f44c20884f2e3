package scaffold

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The helpers below build YAML documents as yaml.Node trees, so that every
// value is emitted by the encoder with whatever quoting it needs: a
// description containing ": ", " #", quotes or a leading "-" or "[" can never
// change the document's structure.

// yamlString is a scalar that always decodes as a string.
func yamlString(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

// yamlInt is an integer scalar.
func yamlInt(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
}

// yamlStrings is a block sequence of strings.
func yamlStrings(vs ...string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, v := range vs {
		n.Content = append(n.Content, yamlString(v))
	}
	return n
}

// yamlMap is a block mapping under construction, keys kept in insertion
// order.
type yamlMap struct{ node *yaml.Node }

func newYAMLMap() yamlMap {
	return yamlMap{node: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}}
}

// set appends key: value, with comment (if not empty) as a comment line
// above the key.
func (m yamlMap) set(key string, value *yaml.Node, comment string) {
	k := yamlString(key)
	k.HeadComment = comment
	m.node.Content = append(m.node.Content, k, value)
}

// foldWidth is the line length long prose is wrapped at in a folded block
// scalar.
const foldWidth = 78

// yamlText is a string scalar for prose. Long text is marked for folding:
// encode writes it as a ">-" block wrapped at foldWidth, the way
// people write descriptions by hand, when that represents the value exactly.
func yamlText(v string) *yaml.Node {
	n := yamlString(v)
	if len(v) > foldWidth-4 {
		n.Style = yaml.FoldedStyle
	}
	return n
}

// foldedEntry writes `key: >-` followed by value wrapped at foldWidth, and
// reports whether that is an exact representation. Lines are broken only at
// a single space between two non-space characters, which folding turns
// back into that space; anything else (control characters, runs of spaces,
// leading or trailing space) is left to the encoder. The result is decoded
// again as a final check.
func foldedEntry(key, value string) ([]byte, bool) {
	if value == "" || strings.TrimSpace(value) != value ||
		strings.ContainsFunc(value, unicode.IsControl) ||
		strings.Contains(value, "  ") || !utf8.ValidString(value) ||
		strings.ContainsRune(value, '\ufeff') {
		return nil, false
	}
	const indent = "  "
	var b strings.Builder
	b.WriteString(key)
	b.WriteString(": >-\n")
	line := 0
	for i, word := range strings.Split(value, " ") {
		switch {
		case i == 0:
			b.WriteString(indent)
			line = len(indent)
		case line+1+len(word) > foldWidth:
			b.WriteString("\n" + indent)
			line = len(indent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	b.WriteByte('\n')
	out := []byte(b.String())
	var check map[string]string
	if err := yaml.Unmarshal(out, &check); err != nil || len(check) != 1 || check[key] != value {
		return nil, false
	}
	return out, true
}

// encode renders the mapping, with a blank line between its top-level
// entries when spaced is true. Each entry is encoded on its own, so a blank
// line never lands inside a value.
func (m yamlMap) encode(spaced bool) ([]byte, error) {
	var out []byte
	for i := 0; i+1 < len(m.node.Content); i += 2 {
		if i > 0 && spaced {
			out = append(out, '\n')
		}
		k, v := m.node.Content[i], m.node.Content[i+1]
		if k.HeadComment == "" && v.Kind == yaml.ScalarNode && v.Style == yaml.FoldedStyle {
			if data, ok := foldedEntry(k.Value, v.Value); ok {
				out = append(out, data...)
				continue
			}
			plain := *v
			plain.Style = 0
			v = &plain
		}
		one := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, v}}
		data, err := encodeYAML(one)
		if err != nil {
			return nil, err
		}
		out = append(out, data...)
	}
	return out, nil
}

// encodeYAML renders node as a YAML document with two-space indentation.
func encodeYAML(node *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
