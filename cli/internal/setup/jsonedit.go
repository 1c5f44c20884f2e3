package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// emptyObject is the content of a JSON settings file that does not exist
// yet.
const emptyObject = "{}\n"

// maxDepth bounds the nesting of a settings file before it is parsed: the
// parser recurses once per level, and no host's file comes near it.
const maxDepth = 200

// jsonDoc is a JSON or JSON-with-comments settings file, held as hujson's
// tree so that every byte outside the members setup adds or removes
// (comments, whitespace, order, trailing commas) is written back as it was.
type jsonDoc struct {
	root hujson.Value
	// strict says the host reads plain JSON only (Claude Code): a file
	// with a comment or a trailing comma is refused, never edited.
	strict bool
}

// openJSON parses data as the settings file name. Empty data (a file
// that does not exist yet) is an empty object. The error is a
// *FileError with the line and column when the parser gives them.
func openJSON(name string, data []byte, strict bool) (*jsonDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte(emptyObject)
	}
	if d := depth(data); d > maxDepth {
		return nil, &FileError{File: name, Reason: fmt.Sprintf("it nests %d levels deep or more (at most %d are read)", d, maxDepth)}
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, &FileError{File: name, Reason: strings.TrimPrefix(err.Error(), "hujson: ")}
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, &FileError{File: name, Reason: "its top level is not a JSON object"}
	}
	if strict && !v.IsStandard() {
		return nil, &FileError{File: name, Reason: "it holds a comment or a trailing comma, and the host reads strict JSON only (it ignores such a file)"}
	}
	if err := checkStandard(v); err != nil {
		return nil, &FileError{File: name, Reason: err.Error()}
	}
	return &jsonDoc{root: v, strict: strict}, nil
}

// checkStandard decodes the file's plain-JSON form, which finds what the
// tolerant parser let through (invalid escapes, duplicate-free decoding
// is not required), so that what setup reads is what the host reads.
func checkStandard(v hujson.Value) error {
	c := v.Clone()
	c.Standardize()
	var x any
	if err := json.Unmarshal(c.Pack(), &x); err != nil {
		return err
	}
	return nil
}

// depth returns how deeply data nests objects and arrays, outside strings
// and comments, stopping early past maxDepth.
func depth(data []byte) int {
	d, most := 0, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return most
			}
			i += end + 3
		case c == '{' || c == '[':
			d++
			if d > most {
				most = d
				if most > maxDepth {
					return most
				}
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// Bytes returns the file as it now is.
func (d *jsonDoc) Bytes() []byte { return d.root.Pack() }

// lookup walks path from the root through object members. It returns
// the value at path, or nil with the number of leading path elements that
// exist; notObject names the first element that is there but is not an
// object (nothing can be added below it).
func (d *jsonDoc) lookup(path []string) (v *hujson.Value, found int, notObject string) {
	cur := &d.root
	for i, name := range path {
		obj, ok := cur.Value.(*hujson.Object)
		if !ok {
			return nil, i, strings.Join(path[:i], ".")
		}
		j := memberIndex(obj, name)
		if j < 0 {
			return nil, i, ""
		}
		cur = &obj.Members[j].Value
	}
	return cur, len(path), ""
}

// memberIndex returns the index of the last member called name (the one
// a JSON reader keeps), or -1.
func memberIndex(obj *hujson.Object, name string) int {
	idx := -1
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			idx = i
		}
	}
	return idx
}

// canonical returns v as canonical JSON: no comments, no whitespace,
// object keys sorted.
func canonical(v hujson.Value) (json.RawMessage, error) {
	c := v.Clone()
	c.Standardize()
	var x any
	if err := json.Unmarshal(c.Pack(), &x); err != nil {
		return nil, err
	}
	return marshal(x)
}

// marshal encodes x without HTML escaping; maps come out sorted.
func marshal(x any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Canonical returns raw as canonical JSON (see canonical), or raw itself
// when it does not parse.
func Canonical(raw json.RawMessage) json.RawMessage {
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return raw
	}
	b, err := marshal(x)
	if err != nil {
		return raw
	}
	return b
}

// layout is how a container lays out its members: the indentation of
// its members and of its closing bracket, and one level of indentation;
// compact says the members sit on one line.
type layout struct {
	inner, outer, unit string
	compact            bool
}

// layoutOf works out the layout of a container whose own line is
// indented by outer, from its first element; an empty container gets
// outer plus unit.
func layoutOf(first *hujson.Value, outer, unit string) layout {
	if first == nil {
		return layout{inner: outer + unit, outer: outer, unit: unit}
	}
	before := string(first.BeforeExtra)
	nl := strings.LastIndexByte(before, '\n')
	if nl < 0 {
		return layout{outer: outer, unit: unit, compact: true}
	}
	inner := before[nl+1:]
	if !isBlank(inner) {
		inner = outer + unit
	}
	return layout{inner: inner, outer: outer, unit: unit}
}

// isBlank reports whether s is only spaces and tabs.
func isBlank(s string) bool { return strings.Trim(s, " \t") == "" }

// unit guesses the file's indentation step from the root's first member,
// else two spaces.
func (d *jsonDoc) unit() string {
	if obj, ok := d.root.Value.(*hujson.Object); ok && len(obj.Members) > 0 {
		l := layoutOf(&obj.Members[0].Name, "", "")
		if !l.compact && l.inner != "" {
			return l.inner
		}
	}
	return "  "
}

// render turns x into a hujson value laid out for a member or element
// indented by l.inner.
func render(x json.RawMessage, l layout) (hujson.Value, error) {
	var b []byte
	if l.compact {
		b = append(b, x...)
	} else {
		var buf bytes.Buffer
		if err := json.Indent(&buf, x, l.inner, l.unit); err != nil {
			return hujson.Value{}, err
		}
		b = buf.Bytes()
	}
	return hujson.Parse(b)
}

// firstOf returns the first member name or element of a container, or
// nil when it is empty or not a container.
func firstOf(v *hujson.Value) *hujson.Value {
	switch c := v.Value.(type) {
	case *hujson.Object:
		if len(c.Members) > 0 {
			return &c.Members[0].Name
		}
	case *hujson.Array:
		if len(c.Elements) > 0 {
			return &c.Elements[0]
		}
	}
	return nil
}

// walk follows path through object members from the root. It returns the
// deepest value reached, the indentation of its line, and how many path
// elements exist. It fails when a value on the way is not an object.
func (d *jsonDoc) walk(path []string) (cur *hujson.Value, outer string, n int, err error) {
	cur, unit := &d.root, d.unit()
	for i, name := range path {
		obj, ok := cur.Value.(*hujson.Object)
		if !ok {
			return cur, outer, i, fmt.Errorf("%s is not an object", strings.Join(path[:i], "."))
		}
		j := memberIndex(obj, name)
		if j < 0 {
			return cur, outer, i, nil
		}
		outer = layoutOf(firstOf(cur), outer, unit).inner
		cur = &obj.Members[j].Value
	}
	return cur, outer, len(path), nil
}

// nest wraps x in one object per name, innermost last.
func nest(names []string, x json.RawMessage) json.RawMessage {
	for i := len(names) - 1; i >= 0; i-- {
		k, _ := marshal(names[i])
		x = json.RawMessage(`{` + string(k) + `:` + string(x) + `}`)
	}
	return x
}

// addMember adds the member path (its last element the member's name)
// with value x, creating the objects on the way that are missing. It
// returns the path of the first member it created. The member must not
// exist.
func (d *jsonDoc) addMember(path []string, x json.RawMessage) ([]string, error) {
	cur, outer, n, err := d.walk(path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	rest := path[n:]
	if err := insertMember(cur, outer, d.unit(), rest[0], nest(rest[1:], x)); err != nil {
		return nil, err
	}
	if len(rest) == 1 {
		// Only the member itself is new.
		return nil, nil
	}
	return slicesClone(path[:n+1]), nil
}

// addElement appends x to the array at path, creating the array and the
// objects on the way that are missing. It returns the path of the first
// member it created, nil when the array was there.
func (d *jsonDoc) addElement(path []string, x json.RawMessage) ([]string, error) {
	cur, outer, n, err := d.walk(path)
	if err != nil {
		return nil, err
	}
	if n < len(path) {
		rest := path[n:]
		inner := nest(rest[1:], json.RawMessage("["+string(x)+"]"))
		if err := insertMember(cur, outer, d.unit(), rest[0], inner); err != nil {
			return nil, err
		}
		return slicesClone(path[:n+1]), nil
	}
	arr, ok := cur.Value.(*hujson.Array)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", strings.Join(path, "."))
	}
	l := layoutOf(firstOf(cur), outer, d.unit())
	v, err := render(x, l)
	if err != nil {
		return nil, err
	}
	arr.Elements = append(arr.Elements, hujson.Value{})
	insertLast(len(arr.Elements)-1, func(i int) *hujson.Value { return &arr.Elements[i] }, func(i int) *hujson.Value { return &arr.Elements[i] }, &arr.AfterExtra, v, l, outer)
	return nil, nil
}

// insertMember appends the member name: x to the object cur, whose line
// is indented by outer.
func insertMember(cur *hujson.Value, outer, unit, name string, x json.RawMessage) error {
	obj, ok := cur.Value.(*hujson.Object)
	if !ok {
		return errors.New("not an object")
	}
	l := layoutOf(firstOf(cur), outer, unit)
	v, err := render(x, l)
	if err != nil {
		return err
	}
	obj.Members = append(obj.Members, hujson.ObjectMember{Name: hujson.Value{Value: hujson.String(name)}})
	last := len(obj.Members) - 1
	insertLast(last, func(i int) *hujson.Value { return &obj.Members[i].Name }, func(i int) *hujson.Value { return &obj.Members[i].Value }, &obj.AfterExtra, v, l, outer)
	if l.compact {
		obj.Members[last].Value.BeforeExtra = copyExtra(obj.Members[0].Value.BeforeExtra)
	} else {
		obj.Members[last].Value.BeforeExtra = hujson.Extra(" ")
	}
	return nil
}

// insertLast lays out the container's new last item (head is where its
// leading extra goes, tail the value that carries a trailing comma) after
// the items before it: on a line of its own indented like its siblings,
// or compactly; a comment that sat after the old last item stays on that
// item's line.
func insertLast(i int, head, tail func(int) *hujson.Value, after *hujson.Extra, v hujson.Value, l layout, outer string) {
	h := head(i)
	if h != tail(i) {
		// An object member: v is the value, the name is already set.
		*tail(i) = hujson.Value{Value: v.Value}
	} else {
		*h = hujson.Value{Value: v.Value}
	}
	trailing := i > 0 && tail(i-1).AfterExtra != nil
	if trailing {
		tail(i).AfterExtra = hujson.Extra{}
	}
	if l.compact {
		if i > 0 {
			h.BeforeExtra = leadingSpace(head(0).BeforeExtra)
			if h.BeforeExtra == nil || len(h.BeforeExtra) == 0 {
				h.BeforeExtra = hujson.Extra(" ")
			}
		}
		return
	}
	before := "\n" + l.inner
	if i > 0 && !trailing {
		// The text after the old last item up to the line's end belongs
		// to that item: keep it on its line, after the new comma.
		a := string(*after)
		if nl := strings.IndexByte(a, '\n'); nl > 0 && !isBlank(a[:nl]) {
			before = a[:nl] + before
			*after = hujson.Extra(a[nl:])
		}
	}
	h.BeforeExtra = hujson.Extra(before)
	if i == 0 && !strings.Contains(string(*after), "\n") {
		*after = hujson.Extra("\n" + outer)
	}
}

// leadingSpace returns the whitespace of an extra when it holds no
// comment, else a single space.
func leadingSpace(e hujson.Extra) hujson.Extra {
	if isBlank(string(e)) {
		return copyExtra(e)
	}
	return hujson.Extra(" ")
}

// copyExtra copies e.
func copyExtra(e hujson.Extra) hujson.Extra { return append(hujson.Extra(nil), e...) }

// removeAt removes the member or element i of the container c. Text
// other than whitespace before it (a comment the user wrote there) moves
// to the next item, or before the closing bracket.
func removeAt(c *hujson.Value, i int) {
	var before hujson.Extra
	var next *hujson.Extra
	switch x := c.Value.(type) {
	case *hujson.Object:
		before = x.Members[i].Name.BeforeExtra
		trailing := x.Members[len(x.Members)-1].Value.AfterExtra != nil
		x.Members = append(x.Members[:i], x.Members[i+1:]...)
		next = &x.AfterExtra
		if i < len(x.Members) {
			next = &x.Members[i].Name.BeforeExtra
		} else if len(x.Members) > 0 {
			setTrailing(&x.Members[len(x.Members)-1].Value, trailing)
		}
		defer emptied(len(x.Members) == 0, &x.AfterExtra)
	case *hujson.Array:
		before = x.Elements[i].BeforeExtra
		trailing := x.Elements[len(x.Elements)-1].AfterExtra != nil
		x.Elements = append(x.Elements[:i], x.Elements[i+1:]...)
		next = &x.AfterExtra
		if i < len(x.Elements) {
			next = &x.Elements[i].BeforeExtra
		} else if len(x.Elements) > 0 {
			setTrailing(&x.Elements[len(x.Elements)-1], trailing)
		}
		defer emptied(len(x.Elements) == 0, &x.AfterExtra)
	default:
		return
	}
	b := string(before)
	if nl := strings.LastIndexByte(b, '\n'); nl >= 0 && !isBlank(strings.ReplaceAll(b[:nl], "\n", "")) {
		*next = hujson.Extra(b[:nl] + string(*next))
	}
}

// setTrailing gives the new last item of a container the trailing comma
// the removed last item had, or takes it away.
func setTrailing(last *hujson.Value, trailing bool) {
	switch {
	case trailing && last.AfterExtra == nil:
		last.AfterExtra = hujson.Extra{}
	case !trailing:
		last.AfterExtra = nil
	}
}

// emptied clears the whitespace left inside a container that has become
// empty, so that removing the only item gives back "{}" or "[]".
func emptied(empty bool, after *hujson.Extra) {
	if empty && isBlank(strings.ReplaceAll(string(*after), "\n", "")) {
		*after = hujson.Extra{}
	}
}

// slicesClone copies s.
func slicesClone(s []string) []string { return append([]string(nil), s...) }
