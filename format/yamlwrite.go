package format

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EncodeYAML appends to b the document root as a yaml.v3 Encoder set to
// an indent of 2 writes it: through AppendYAML when root is within what
// that writes, by yaml.v3 otherwise.
func EncodeYAML(b []byte, root *yaml.Node) ([]byte, error) {
	if out, ok := AppendYAML(b, root); ok {
		return out, nil
	}
	buf := bytes.NewBuffer(b)
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AppendYAML appends to b the bytes a yaml.v3 Encoder set to an indent of
// 2 writes for the document root, and reports true, when root is within
// what AppendYAML writes itself: a non-empty block mapping of plain keys
// whose values are scalars, non-empty mappings of the same, or non-empty
// sequences of scalars; scalars that are printable ASCII strings (plain,
// single- or double-quoted, as yaml.v3 chooses, or double-quoted by
// request), or booleans, integers and null as their canonical text. That is
// the front matter and skill.yaml almost every package has. For anything
// else — a comment, an anchor, a flow or block style, a float, an empty
// collection, a string that is empty, not printable ASCII or that might
// read as a number or timestamp — it returns b unchanged and false, and
// the caller encodes with yaml.v3.
//
// yaml.v3's emitter allocates several kilobytes per document (an event
// queue it never compacts); an install writes front matter for every
// package and agent root. TestAppendYAMLMatchesEncoder and FuzzAppendYAML
// hold AppendYAML to the Encoder's bytes.
func AppendYAML(b []byte, root *yaml.Node) ([]byte, bool) {
	if root == nil || root.Kind != yaml.MappingNode || !plainNode(root) {
		return b, false
	}
	out, ok := appendMapping(b, root, 0)
	if !ok {
		return b, false
	}
	return out, true
}

// plainNode reports whether n carries nothing AppendYAML leaves to yaml.v3:
// no anchor, alias, comment or style beyond double quotes.
func plainNode(n *yaml.Node) bool {
	return n.Anchor == "" && n.Alias == nil && n.HeadComment == "" && n.LineComment == "" && n.FootComment == "" &&
		(n.Style == 0 || n.Style == yaml.DoubleQuotedStyle && n.Kind == yaml.ScalarNode)
}

// appendMapping appends the pairs of the block mapping n at indent.
func appendMapping(b []byte, n *yaml.Node, indent int) ([]byte, bool) {
	if n.Tag != "" && n.Tag != "!!map" || len(n.Content) == 0 || len(n.Content)%2 != 0 {
		return b, false // an empty mapping is written {}
	}
	var ok bool
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || !plainNode(k) || k.Style != 0 || len(k.Value) > 128 || !plainKey(k) {
			return b, false // a long key is written "? key"; others quoted
		}
		b = appendIndent(b, indent)
		b = append(b, k.Value...)
		b = append(b, ':')
		if b, ok = appendValue(b, v, indent); !ok {
			return b, false
		}
	}
	return b, true
}

// plainKey reports whether the key k is written plain: a string that needs
// no quotes.
func plainKey(k *yaml.Node) bool {
	if k.Tag != "" && k.Tag != "!!str" {
		return false
	}
	if !plainScalar(k.Value) {
		return false
	}
	str, sure := resolvedString(k.Value)
	return str && sure
}

// appendValue appends the value v of a mapping pair whose key was written
// at indent: " scalar\n", or a line break and the nested block.
func appendValue(b []byte, v *yaml.Node, indent int) ([]byte, bool) {
	if !plainNode(v) {
		return b, false
	}
	switch v.Kind {
	case yaml.ScalarNode:
		b = append(b, ' ')
		var ok bool
		if b, ok = appendScalar(b, v); !ok {
			return b, false
		}
		return append(b, '\n'), true
	case yaml.MappingNode:
		b = append(b, '\n')
		return appendMapping(b, v, indent+2)
	case yaml.SequenceNode:
		if v.Tag != "" && v.Tag != "!!seq" || len(v.Content) == 0 {
			return b, false // an empty sequence is written []
		}
		b = append(b, '\n')
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || !plainNode(e) {
				return b, false
			}
			b = appendIndent(b, indent+2)
			b = append(b, "- "...)
			var ok bool
			if b, ok = appendScalar(b, e); !ok {
				return b, false
			}
			b = append(b, '\n')
		}
		return b, true
	}
	return b, false
}

// appendIndent appends n spaces.
func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// appendScalar appends the scalar n as yaml.v3 writes it in block context.
func appendScalar(b []byte, n *yaml.Node) ([]byte, bool) {
	s := n.Value
	switch n.Tag {
	case "!!bool":
		if n.Style == 0 && (s == "true" || s == "false") {
			return append(b, s...), true
		}
		return b, false
	case "!!null":
		if n.Style == 0 && s == "null" {
			return append(b, s...), true
		}
		return b, false
	case "!!int":
		if n.Style == 0 && canonicalInt(s) {
			return append(b, s...), true
		}
		return b, false
	case "", "!!str":
	default:
		return b, false
	}
	if !printableASCII(s) {
		return b, false
	}
	str, sure := resolvedString(s)
	switch {
	case n.Style == yaml.DoubleQuotedStyle || sure && !str && n.Tag == "!!str":
		// Asked for, or a !!str that plain would read as another type.
		b = append(b, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return append(b, '"'), true
	case !sure:
		return b, false
	case plainScalar(s) && str:
		return append(b, s...), true
	case n.Tag == "":
		return b, false
	}
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			b = append(b, '\'')
		}
		b = append(b, s[i])
	}
	return append(b, '\''), true
}

// canonicalInt reports whether s is a decimal integer as strconv writes
// one: an optional minus, then digits without a leading zero (or "0").
func canonicalInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 18 || d[0] == '0' && len(d) > 1 || s == "-0" {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// printableASCII reports whether s is not empty and only of the bytes
// ' ' to '~': no tab, line break or character yaml.v3 would escape or
// analyse as Unicode.
func printableASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// resolvedString reports, for the printable ASCII s, whether yaml.v3's
// resolver reads it written plain as a string (str), and whether
// AppendYAML can tell (sure): what might be a timestamp ("2006-1-2…") is
// left to yaml.v3. It follows resolve() in yaml.v3's resolve.go: the
// booleans, nulls, infinities and the merge key of its table, then for a
// dot a float, for a sign or digit an integer (0x, 0o, 0b, underscores)
// or a float.
func resolvedString(s string) (str, sure bool) {
	if resolvesOther(s) {
		return false, true
	}
	switch c := s[0]; {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil, true
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	default:
		return true, true
	}
	if len(s) > 4 && allDigits(s[:4]) && s[4] == '-' {
		return false, false
	}
	return !yamlNumber(strings.ReplaceAll(s, "_", "")), true
}

// yamlNumber reports whether yaml.v3's resolver reads plain, a
// sign-or-digit scalar without its underscores, as an integer or float.
func yamlNumber(plain string) bool {
	parses := func(s string, base int) bool {
		if _, err := strconv.ParseInt(s, base, 64); err == nil {
			return true
		}
		_, err := strconv.ParseUint(s, base, 64)
		return err == nil
	}
	switch {
	case parses(plain, 0):
		return true
	case yamlStyleFloat(plain):
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	for _, p := range []struct {
		prefix string
		base   int
	}{{"0b", 2}, {"0o", 8}} {
		if rest, ok := strings.CutPrefix(plain, p.prefix); ok {
			return parses(rest, p.base)
		}
		if rest, ok := strings.CutPrefix(plain, "-"+p.prefix); ok {
			_, err := strconv.ParseInt("-"+rest, p.base, 64)
			return err == nil
		}
	}
	return false
}

// yamlStyleFloat is yaml.v3's ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// allDigits reports whether s is only ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// resolvesOther reports whether s is in yaml.v3's resolver table as a
// boolean, null, infinity, not-a-number or the merge key.
func resolvesOther(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL", "<<",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	return false
}

// plainScalar reports whether yaml.v3's emitter allows the printable
// ASCII s plain in block context (yaml_emitter_analyze_scalar's
// block_plain_allowed): no leading or trailing space, no "---" or "..."
// first, no indicator first, no ": " or " #" inside, no ":" last.
func plainScalar(s string) bool {
	if !printableASCII(s) || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") {
		return false
	}
	blankAfter := func(i int) bool { return i+1 >= len(s) || s[i+1] == ' ' }
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if blankAfter(0) {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ':':
			if blankAfter(i) {
				return false
			}
		case '#':
			if s[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}
