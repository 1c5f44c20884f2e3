package format

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fastYAML parses data into the node tree yaml.v3 gives for it — kinds,
// tags, styles, values, lines and columns; comments, which nothing here
// reads, aside — when data is in a subset of YAML it recognises completely:
// the skill.yaml files synthesised for bare skills and the front matter
// most skills have. yaml.v3's parser takes four times as long and three
// times the allocations (BenchmarkParseFrontMatter), and an install
// decodes a skill.yaml and a front-matter block for every skill. The
// subset:
//
//   - printable ASCII lines, no tab, carriage return or trailing space, no
//     blank line, comment lines only before the first key;
//   - block mappings of plain string keys; a key's value on its line or,
//     after "key:", a more indented mapping or a sequence ("- item") at
//     least as indented as the key;
//   - scalars on one line: plain (any type yaml.v3 resolves, except what
//     might be a timestamp and the merge key), single-quoted, and
//     double-quoted without escapes; as a mapping value also a folded or
//     literal block scalar (">", ">-", "|", "|-") whose lines are all
//     indented alike.
//
// Anything else — flow collections, anchors, aliases, tags, end-of-line
// comments, multi-line plain or quoted scalars, directives, document
// markers, empty values — makes it decline (ok false), and the caller
// parses with yaml.v3, which reports problems with their positions as
// before. FuzzFastYAML holds it to yaml.v3's tree on any input.
func fastYAML(data []byte) (root *yaml.Node, ok bool) {
	p := fastYAMLParser{}
	if !p.split(data) || len(p.lines) == 0 {
		return nil, false
	}
	root, at, ok := p.mapping(0, 0)
	if !ok || at != len(p.lines) {
		return nil, false
	}
	return root, true
}

// fastYAMLParser holds a document's lines.
type fastYAMLParser struct {
	lines []fastLine
	// endsInBreak is whether the last line ends in a line feed, which a
	// block scalar ending the document keeps unless stripped.
	endsInBreak bool
}

// fastLine is one line: its indent, its text after the indent and its
// 1-based number.
type fastLine struct {
	indent int
	text   string
	num    int
}

// split cuts data into lines, skipping the leading comment lines, and
// reports whether every byte is in the subset.
func (p *fastYAMLParser) split(data []byte) bool {
	s := string(data)
	p.endsInBreak = strings.HasSuffix(s, "\n")
	leading := true
	for num := 1; s != ""; num++ {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		for i := 0; i < len(line); i++ {
			if line[i] < ' ' || line[i] > '~' {
				return false
			}
		}
		text := strings.TrimLeft(line, " ")
		switch {
		case text == "" || line[len(line)-1] == ' ':
			return false
		case text[0] == '#':
			if !leading || len(text) != len(line) {
				return false
			}
			continue
		}
		leading = false
		p.lines = append(p.lines, fastLine{indent: len(line) - len(text), text: text, num: num})
	}
	return true
}

// mapping parses the block mapping whose keys are at indent, from line at;
// it returns the line after it.
func (p *fastYAMLParser) mapping(indent, at int) (*yaml.Node, int, bool) {
	first := p.lines[at]
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: first.num, Column: indent + 1}
	for at < len(p.lines) && p.lines[at].indent == indent {
		l := p.lines[at]
		colon := strings.IndexByte(l.text, ':')
		if colon <= 0 || strings.HasPrefix(l.text, "- ") || l.text == "-" {
			return nil, 0, false
		}
		key, rest := l.text[:colon], l.text[colon+1:]
		if len(key) > 128 || !plainScalar(key) || plainTag(key) != "!!str" || strings.Contains(key, " ") {
			return nil, 0, false
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: l.num, Column: indent + 1}
		var v *yaml.Node
		var ok bool
		switch {
		case rest == "":
			at++
			if at >= len(p.lines) {
				return nil, 0, false // an empty value is null
			}
			next := p.lines[at]
			switch {
			case isItem(next.text) && next.indent >= indent:
				v, at, ok = p.sequence(next.indent, at)
			case next.indent > indent:
				v, at, ok = p.mapping(next.indent, at)
			}
		case rest[0] == ' ':
			value := strings.TrimLeft(rest, " ")
			col := indent + colon + 1 + len(rest) - len(value) + 1
			if value[0] == '|' || value[0] == '>' {
				v, at, ok = p.block(value, l.num, col, indent, at+1)
				break
			}
			if v, ok = oneLineScalar(value, l.num, col); ok {
				at++
			}
		}
		if !ok {
			return nil, 0, false
		}
		n.Content = append(n.Content, k, v)
	}
	if at < len(p.lines) && p.lines[at].indent > indent {
		return nil, 0, false // a continuation or a misplaced line
	}
	return n, at, true
}

// isItem reports whether text opens a sequence item.
func isItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// sequence parses the block sequence of scalars whose dashes are at
// indent, from line at.
func (p *fastYAMLParser) sequence(indent, at int) (*yaml.Node, int, bool) {
	first := p.lines[at]
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first.num, Column: indent + 1}
	for at < len(p.lines) && p.lines[at].indent == indent && isItem(p.lines[at].text) {
		l := p.lines[at]
		value := strings.TrimLeft(l.text[1:], " ")
		if value == "" {
			return nil, 0, false
		}
		v, ok := oneLineScalar(value, l.num, indent+len(l.text)-len(value)+1)
		if !ok {
			return nil, 0, false
		}
		n.Content = append(n.Content, v)
		at++
	}
	if at < len(p.lines) && p.lines[at].indent > indent {
		return nil, 0, false
	}
	return n, at, true
}

// block parses a block scalar whose header (">", ">-", "|" or "|-") is at
// line num, column col, as the value of a key at indent; its lines start
// at line at.
func (p *fastYAMLParser) block(header string, num, col, indent, at int) (*yaml.Node, int, bool) {
	style := yaml.LiteralStyle
	if header[0] == '>' {
		style = yaml.FoldedStyle
	}
	strip := false
	switch header[1:] {
	case "":
	case "-":
		strip = true
	default:
		return nil, 0, false
	}
	if at >= len(p.lines) || p.lines[at].indent <= indent {
		return nil, 0, false // an empty block scalar
	}
	inner := p.lines[at].indent
	var b strings.Builder
	for ; at < len(p.lines) && p.lines[at].indent > indent; at++ {
		l := p.lines[at]
		if l.indent != inner || l.num != p.lines[at-1].num+1 {
			return nil, 0, false // more indented, or a comment line between
		}
		if b.Len() > 0 {
			if style == yaml.FoldedStyle {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l.text)
	}
	if !strip && (at < len(p.lines) || p.endsInBreak) {
		b.WriteByte('\n')
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: b.String(), Line: num, Column: col}, at, true
}

// oneLineScalar parses the one-line scalar s at line num, column col: single-
// or double-quoted (without escapes) to its end, or plain.
func oneLineScalar(s string, num, col int) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: num, Column: col}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return nil, false
		}
		inner := s[1 : len(s)-1]
		for i := 0; i < len(inner); i++ {
			if inner[i] == '\'' {
				if i+1 >= len(inner) || inner[i+1] != '\'' {
					return nil, false
				}
				i++
			}
		}
		n.Style, n.Tag, n.Value = yaml.SingleQuotedStyle, "!!str", strings.ReplaceAll(inner, "''", "'")
		return n, true
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return nil, false
		}
		inner := s[1 : len(s)-1]
		if strings.ContainsAny(inner, "\"\\") {
			return nil, false
		}
		n.Style, n.Tag, n.Value = yaml.DoubleQuotedStyle, "!!str", inner
		return n, true
	}
	if !plainScalar(s) {
		return nil, false
	}
	tag := plainTag(s)
	if tag == "" {
		return nil, false
	}
	n.Tag, n.Value = tag, s
	return n, true
}

// plainTag returns the tag yaml.v3's resolver gives the plain scalar s,
// or "" when fastYAML leaves it to yaml.v3 (what might be a timestamp, the
// merge key).
func plainTag(s string) string {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	case "<<":
		return ""
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "!!float"
		}
		return "!!str"
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	default:
		return "!!str"
	}
	if len(s) > 4 && allDigits(s[:4]) && s[4] == '-' {
		return "" // maybe a timestamp
	}
	plain := strings.ReplaceAll(s, "_", "")
	if yamlNumber(plain) {
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return "!!int"
		}
		if yamlStyleFloat(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return "!!float"
			}
		}
		return "!!int" // 0b, 0o
	}
	return "!!str"
}
