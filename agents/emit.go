package agents

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// emitFast writes the block mapping encodeOrdered would have yaml.v3 write
// for m with its top-level keys in ordered, byte for byte, for the front
// matter almost every skill has: string keys, printable ASCII strings,
// booleans, integers, null and non-empty mappings of those. yaml.v3's
// emitter allocates several kilobytes per document (an event queue that is
// never compacted), and a projection is encoded for every package and every
// agent root of an install. For anything else — a sequence, a float, an
// empty mapping, a string that is empty, not printable ASCII or that yaml
// would read as another type unless quoted (a digit or sign first) — ok is
// false and the caller encodes with yaml.v3. TestEmitFastMatchesYAML and
// FuzzEmitFast hold it to yaml.v3's output.
func emitFast(m map[string]any, ordered []string, style yaml.Style) (out []byte, ok bool) {
	b := make([]byte, 0, 256)
	for _, k := range ordered {
		if b, ok = appendPair(b, 0, k, m[k], style); !ok {
			return nil, false
		}
	}
	return b, true
}

// appendPair appends "key: value\n" at indent, or "key:\n" and the
// mapping value's pairs two spaces deeper, in byte order of their keys.
// style applies to a string value.
func appendPair(b []byte, indent int, k string, v any, style yaml.Style) ([]byte, bool) {
	if len(k) > 128 || !plainString(k) || resolvesOther(k) || numberLike(k) {
		return nil, false // a long key is written "? key"; others quoted
	}
	for range indent {
		b = append(b, ' ')
	}
	b = append(b, k...)
	b = append(b, ':')
	if sub, isMap := v.(map[string]any); isMap {
		if len(sub) == 0 {
			return nil, false // yaml writes {}
		}
		b = append(b, '\n')
		var ok bool
		for _, sk := range sortedKeys(sub) {
			if b, ok = appendPair(b, indent+2, sk, sub[sk], 0); !ok {
				return nil, false
			}
		}
		return b, true
	}
	b = append(b, ' ')
	switch x := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, x)
	case int:
		b = strconv.AppendInt(b, int64(x), 10)
	case int64:
		b = strconv.AppendInt(b, x, 10)
	case uint64:
		b = strconv.AppendUint(b, x, 10)
	case string:
		var ok bool
		if b, ok = appendString(b, x, style); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	return append(b, '\n'), true
}

// appendString appends s as yaml.v3 writes a !!str value in a block
// mapping: double-quoted when style asks for it or when plain it would
// read as a boolean or null, plain when its characters allow, single-quoted
// otherwise. ok is false for what emitFast leaves to yaml.v3.
func appendString(b []byte, s string, style yaml.Style) ([]byte, bool) {
	if !printableASCII(s) || numberLike(s) {
		return nil, false
	}
	switch {
	case style == yaml.DoubleQuotedStyle || style == 0 && resolvesOther(s):
		b = append(b, '"')
		for i := 0; i < len(s); i++ {
			if s[i] == '"' || s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return append(b, '"'), true
	case style != 0:
		return nil, false
	case plainString(s):
		return append(b, s...), true
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

// numberLike reports whether the non-empty s starts as a number, a
// timestamp or ".inf" may: with a digit, a sign or a dot. Whether yaml
// reads it as one is left to yaml.v3.
func numberLike(s string) bool {
	return s[0] == '+' || s[0] == '-' || s[0] == '.' || s[0] >= '0' && s[0] <= '9'
}

// resolvesOther reports whether the printable ASCII s, written plain,
// would be read as something other than a string, for the s that
// appendString writes: the booleans, nulls and merge key of yaml.v3's
// resolve table (its numbers all start with a digit, sign or dot, which
// appendString leaves to yaml.v3).
func resolvesOther(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL", "<<":
		return true
	}
	return false
}

// plainString reports whether yaml.v3's emitter allows the printable
// ASCII s plain in block context (yaml_emitter_analyze_scalar's
// block_plain_allowed): no leading or trailing space, no "---" or "..."
// first, no indicator first, no ": " or " #" inside, no ":" last.
func plainString(s string) bool {
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
