package tomledit

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Set returns the document with the table at path, and its sub-tables,
// replaced by the rendering of body (see Render and the package
// documentation for where it goes). The Document itself is not changed.
func (d *Document) Set(path []string, body any) ([]byte, error) {
	if err := d.editable(path, false); err != nil {
		return nil, err
	}
	text, err := Render(path, body)
	if err != nil {
		return nil, &EditError{Path: path, Message: err.Error()}
	}
	rendered, err := decode([]byte(text))
	if err != nil {
		return nil, &EditError{Path: path, Message: "the rendered table does not parse (a bug): " + err.Error(), bug: true}
	}
	value, _ := lookup(rendered, path)
	if d.eol != "\n" {
		text = strings.ReplaceAll(text, "\n", d.eol)
	}

	var edits []edit
	if family := d.family(path); len(family) > 0 {
		first := d.tables[family[0]]
		edits = append(edits, edit{start: first.Header.Start, end: first.ContentEnd, text: text})
		for _, i := range family[1:] {
			edits = append(edits, edit{start: d.tables[i].Block.Start, end: d.tables[i].Block.End})
		}
	} else {
		edits = append(edits, d.insertion(path, text))
	}
	out := apply(d.src, edits)

	want := clone(d.root).(map[string]any)
	if !setPath(want, path, value) {
		return nil, &EditError{Path: path, Message: "a value, not a table, is at one of its parents"}
	}
	if err := d.check(out, path, want); err != nil {
		return nil, err
	}
	return out, nil
}

// Delete returns the document without the table at path and its
// sub-tables. A table that is not there leaves the document unchanged.
// The Document itself is not changed.
func (d *Document) Delete(path []string) ([]byte, error) {
	if err := d.editable(path, true); err != nil {
		return nil, err
	}
	family := d.family(path)
	if len(family) == 0 {
		if d.Has(path) {
			return nil, &EditError{Path: path, Message: "it is a value, not a table"}
		}
		return bytes.Clone(d.src), nil
	}
	var edits []edit
	atStart := false
	for _, i := range family {
		b := d.tables[i].Block
		edits = append(edits, edit{start: b.Start, end: b.End})
		atStart = atStart || b.Start == 0
	}
	out := apply(d.src, edits)
	if atStart {
		// The first table went: do not leave the blank lines that
		// separated it from the next one at the top of the file.
		out = trimLeadingBlankLines(out)
	}

	want := clone(d.root).(map[string]any)
	deletePath(want, path)
	if err := d.check(out, path, want); err != nil {
		return nil, err
	}
	return out, nil
}

// editable refuses a path whose table is not only defined by headers of
// its own, so that replacing spans would not be the whole edit.
func (d *Document) editable(path []string, deleting bool) error {
	if len(path) == 0 {
		return &EditError{Path: path, Message: "the root table is not a table that can be replaced"}
	}
	for _, t := range d.tables {
		if !t.Array || !hasPrefix(path, t.Path) {
			continue
		}
		if len(t.Path) < len(path) {
			return &EditError{Path: path, Message: fmt.Sprintf("it is inside the array of tables [[%s]] (line %d)", headerKey(t.Path), t.Line)}
		}
		if !deleting {
			return &EditError{Path: path, Message: fmt.Sprintf("it is an array of tables (line %d)", t.Line)}
		}
	}
	for _, k := range d.keys {
		full := append(slices.Clip(k.table), k.key...)
		switch {
		case len(k.table) < len(path) && hasPrefix(full, path):
			how := "the dotted key"
			if len(full) == len(path) {
				how = "the key"
			}
			return &EditError{Path: path, Message: fmt.Sprintf("line %d defines it with %s %s%s; edit that line by hand or rewrite it as a [%s] table", k.line, how, headerKey(k.key), inTable(k.table), headerKey(path))}
		case len(full) < len(path) && hasPrefix(path, full):
			what := "a value"
			if k.inline {
				what = "an inline table"
			}
			return &EditError{Path: path, Message: fmt.Sprintf("line %d makes %s %s%s, so the table is not a header of its own", k.line, headerKey(k.key), what, inTable(k.table))}
		}
	}
	return nil
}

// inTable names the table a key is in, for messages.
func inTable(path []string) string {
	if len(path) == 0 {
		return " in the root table"
	}
	return " in [" + headerKey(path) + "]"
}

// family returns the indexes of the tables at path or under it, in
// document order.
func (d *Document) family(path []string) []int {
	var out []int
	for i, t := range d.tables {
		if hasPrefix(t.Path, path) {
			out = append(out, i)
		}
	}
	return out
}

// insertion returns where a new table goes: after the last table under
// the same parent, or at the end of the document, one blank line above it.
func (d *Document) insertion(path []string, text string) edit {
	if len(path) > 1 {
		last := -1
		for i, t := range d.tables {
			if hasPrefix(t.Path, path[:len(path)-1]) {
				last = i
			}
		}
		if last >= 0 && last+1 < len(d.tables) {
			at := d.tables[last+1].Block.Start
			return edit{start: at, end: at, text: d.eol + text}
		}
	}
	var prefix string
	if n := len(d.src); n > 0 {
		if d.src[n-1] != '\n' {
			prefix = d.eol
		}
		prefix += d.eol
	}
	return edit{start: len(d.src), end: len(d.src), text: prefix + text}
}

// check parses out and compares its decoded value with want.
func (d *Document) check(out []byte, path []string, want map[string]any) error {
	nd, err := parse(out, 0)
	if err != nil {
		return &EditError{Path: path, Message: "the edited document does not parse (a bug; nothing was written): " + err.Error(), bug: true}
	}
	pruneEmpty(want, nd.root, path)
	if !equal(want, nd.root) {
		return &EditError{Path: path, Message: "the edited document differs from the original outside the table (a bug; nothing was written)", bug: true}
	}
	return nil
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply makes non-overlapping edits.
func apply(src []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes()
}

// trimLeadingBlankLines drops whole lines of spaces and tabs at the start.
func trimLeadingBlankLines(b []byte) []byte {
	for {
		j := bytes.IndexByte(b, '\n')
		if j < 0 || len(bytes.Trim(b[:j], " \t\r")) > 0 {
			return b
		}
		b = b[j+1:]
	}
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// clone copies decoded maps and slices deeply.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = clone(e)
		}
		return s
	}
	return v
}

// setPath sets root[path] = v, making the tables on the way; false when
// a non-table is in the way.
func setPath(root map[string]any, path []string, v any) bool {
	m := root
	for _, k := range path[:len(path)-1] {
		next, ok := m[k]
		if !ok {
			nm := map[string]any{}
			m[k] = nm
			m = nm
			continue
		}
		if m, ok = next.(map[string]any); !ok {
			return false
		}
	}
	m[path[len(path)-1]] = v
	return true
}

// deletePath removes root[path].
func deletePath(root map[string]any, path []string) {
	m := root
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, path[len(path)-1])
}

// pruneEmpty removes from want the parents of path that are empty tables
// in want and absent from got: the implicit tables ([hooks] and
// [hooks.state] above [hooks.state."k"]) that went with a deleted table.
func pruneEmpty(want, got map[string]any, path []string) {
	for n := len(path) - 1; n >= 1; n-- {
		parent, ok := lookup(want, path[:n])
		if !ok {
			continue
		}
		if m, ok := parent.(map[string]any); !ok || len(m) > 0 {
			return
		}
		if _, ok := lookup(got, path[:n]); ok {
			return
		}
		deletePath(want, path[:n])
	}
}

// equal compares decoded values; unlike reflect.DeepEqual it holds NaN
// equal to NaN and compares times as instants with their offset.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && (x == y && math.Signbit(x) == math.Signbit(y) || math.IsNaN(x) && math.IsNaN(y))
	case time.Time:
		y, ok := b.(time.Time)
		if !ok {
			return false
		}
		_, xo := x.Zone()
		_, yo := y.Zone()
		return x.Equal(y) && xo == yo
	}
	return reflect.DeepEqual(a, b)
}
