package tomledit

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// KV is one key and its value in a Body.
type KV struct {
	Key   string
	Value any
}

// Body is a table body whose keys keep the order given, where a map's
// keys are sorted: [mcp_servers.x] reads command, args, env in that order.
type Body []KV

// Render returns the TOML text of the table at path holding body, and of
// its sub-tables, with "\n" line endings. body is a Body, a
// map[string]any or a map[string]string. Within it:
//
//   - a string is a basic string ("…" with \" \\ \b \t \n \f \r and
//     \uXXXX escapes for other control characters);
//   - bool, the integer types and float64/float32 are TOML scalars;
//   - a slice or array is an inline array, on one line;
//   - a Body or map directly in the body is a sub-table, rendered after
//     the table's own keys, separated by one blank line; inside an array
//     it is an inline table.
//
// Map keys are sorted, so the same value always renders the same text.
// Keys that are not bare (A-Z a-z 0-9 _ -) are quoted. Any other type, a
// nil, an integer beyond int64 or a string that is not UTF-8 is an error.
func Render(path []string, body any) (string, error) {
	if len(path) == 0 {
		return "", fmt.Errorf("an empty table path")
	}
	kvs, ok := asBody(body)
	if !ok {
		return "", fmt.Errorf("a table body must be a tomledit.Body or a map with string keys, not %T", body)
	}
	var b strings.Builder
	if err := renderTable(&b, path, kvs); err != nil {
		return "", err
	}
	return b.String(), nil
}

// renderTable writes [path], its scalar keys, then its sub-tables.
func renderTable(b *strings.Builder, path []string, kvs Body) error {
	b.WriteString("[" + headerKey(path) + "]\n")
	var subs []KV
	for _, kv := range kvs {
		if !utf8.ValidString(kv.Key) {
			return fmt.Errorf("key %q is not UTF-8", kv.Key)
		}
		if sub, ok := asBody(kv.Value); ok {
			subs = append(subs, KV{Key: kv.Key, Value: sub})
			continue
		}
		v, err := renderValue(kv.Value, 0)
		if err != nil {
			return fmt.Errorf("key %s: %w", renderKey(kv.Key), err)
		}
		b.WriteString(renderKey(kv.Key) + " = " + v + "\n")
	}
	for _, s := range subs {
		b.WriteString("\n")
		if err := renderTable(b, append(slices.Clip(path), s.Key), s.Value.(Body)); err != nil {
			return err
		}
	}
	return nil
}

// maxDepth bounds the nesting of arrays and inline tables Render writes.
const maxDepth = 32

// renderValue returns the inline TOML text of v.
func renderValue(v any, depth int) (string, error) {
	if depth > maxDepth {
		return "", fmt.Errorf("values nested more than %d deep", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		return "", fmt.Errorf("a nil value")
	case string:
		return quote(x)
	case bool:
		return strconv.FormatBool(x), nil
	case float64:
		return renderFloat(x), nil
	case float32:
		return renderFloat(float64(x)), nil
	}
	if kvs, ok := asBody(v); ok {
		parts := make([]string, 0, len(kvs))
		for _, kv := range kvs {
			if !utf8.ValidString(kv.Key) {
				return "", fmt.Errorf("key %q is not UTF-8", kv.Key)
			}
			s, err := renderValue(kv.Value, depth+1)
			if err != nil {
				return "", err
			}
			parts = append(parts, renderKey(kv.Key)+" = "+s)
		}
		if len(parts) == 0 {
			return "{}", nil
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return "", fmt.Errorf("integer %d does not fit TOML's 64-bit signed integers", u)
		}
		return strconv.FormatUint(u, 10), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return "[]", nil
		}
		parts := make([]string, rv.Len())
		for i := range rv.Len() {
			s, err := renderValue(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	return "", fmt.Errorf("a value of type %T, which has no TOML form here", v)
}

// asBody returns v as an ordered body when it is a Body or a map with
// string keys (sorted).
func asBody(v any) (Body, bool) {
	switch x := v.(type) {
	case Body:
		return x, true
	case map[string]any:
		out := make(Body, 0, len(x))
		for _, k := range sortedKeys(x) {
			out = append(out, KV{Key: k, Value: x[k]})
		}
		return out, true
	case map[string]string:
		out := make(Body, 0, len(x))
		for _, k := range sortedKeys(x) {
			out = append(out, KV{Key: k, Value: x[k]})
		}
		return out, true
	}
	return nil, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// renderFloat writes a float so that TOML reads it back as a float.
func renderFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// renderKey returns a key as written in TOML: bare when it can be, a
// basic string otherwise.
func renderKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	}) < 0 {
		return k
	}
	s, err := quote(k)
	if err != nil {
		// Not UTF-8: callers check keys before rendering; quote the
		// bytes so the message still shows them.
		return strconv.Quote(k)
	}
	return s
}

// quote returns s as a TOML basic string.
func quote(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("string %q is not UTF-8", s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}
