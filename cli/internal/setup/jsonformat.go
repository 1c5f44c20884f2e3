package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/tailscale/hujson"
)

// jsonFormat is a JSON settings file edited in place. Strict files
// (Claude Code's) must be plain JSON; the others may hold comments and
// trailing commas, which are kept.
type jsonFormat struct{ strict bool }

// JSON returns the format of plain JSON files, which must hold no
// comment.
func JSON() Format { return jsonFormat{strict: true} }

// JSONC returns the format of JSON files that may hold comments.
func JSONC() Format { return jsonFormat{} }

func (f jsonFormat) Name() string {
	if f.strict {
		return "json"
	}
	return "jsonc"
}

func (f jsonFormat) Open(file string, data []byte) (Document, error) {
	return openJSON(file, data, f.strict)
}

// Find looks the entry up by key (a member) or by content (an element).
func (d *jsonDoc) Find(e Entry) (State, json.RawMessage) {
	switch e.Kind {
	case Member:
		v, n, _ := d.lookup(e.Path)
		if n < len(e.Path) || v == nil {
			return Absent, nil
		}
		got, err := canonical(*v)
		if err != nil {
			return Different, nil
		}
		if bytes.Equal(got, Canonical(e.Value)) {
			return Same, got
		}
		return Different, got
	case Element:
		arr, ok := d.list(e.Path)
		if !ok {
			return Absent, nil
		}
		want := Canonical(e.Value)
		var changed json.RawMessage
		for _, el := range arr.Elements {
			got, err := canonical(el)
			if err != nil {
				continue
			}
			if bytes.Equal(got, want) {
				return Same, got
			}
			if e.Marker != "" && changed == nil && bytes.Contains(got, []byte(e.Marker)) {
				changed = got
			}
		}
		if changed != nil {
			return Different, changed
		}
	}
	return Absent, nil
}

// list returns the array at path, if there is one.
func (d *jsonDoc) list(path []string) (*hujson.Array, bool) {
	v, n, _ := d.lookup(path)
	if n < len(path) || v == nil {
		return nil, false
	}
	arr, ok := v.Value.(*hujson.Array)
	return arr, ok
}

func (d *jsonDoc) Add(e Entry) ([]string, error) {
	switch e.Kind {
	case Member:
		return d.addMember(e.Path, compact(e.Value))
	case Element:
		return d.addElement(e.Path, compact(e.Value))
	}
	return nil, errors.New("a JSON settings file holds members and elements only")
}

func (d *jsonDoc) Remove(e Entry, created []string) error {
	want := Canonical(e.Value)
	switch e.Kind {
	case Member:
		parent, _, n, err := d.walk(e.Path[:len(e.Path)-1])
		if err != nil || n < len(e.Path)-1 {
			return errors.New("the entry is not there")
		}
		obj := parent.Value.(*hujson.Object)
		i := memberIndex(obj, e.Path[len(e.Path)-1])
		if i < 0 {
			return errors.New("the entry is not there")
		}
		removeAt(parent, i)
		d.prune(e.Path[:len(e.Path)-1], created)
		return nil
	case Element:
		v, _, n, err := d.walk(e.Path)
		if err != nil || n < len(e.Path) {
			return errors.New("the entry is not there")
		}
		arr, ok := v.Value.(*hujson.Array)
		if !ok {
			return errors.New("the entry is not there")
		}
		for i, el := range arr.Elements {
			if got, err := canonical(el); err == nil && bytes.Equal(got, want) {
				removeAt(v, i)
				d.prune(e.Path, created)
				return nil
			}
		}
		return errors.New("the entry is not there")
	}
	return errors.New("a JSON settings file holds members and elements only")
}

// prune removes the containers from path up to created (a prefix of
// path that Add created) that are now empty, deepest first.
func (d *jsonDoc) prune(path, created []string) {
	if len(created) == 0 || len(created) > len(path) || !slices.Equal(path[:len(created)], created) {
		return
	}
	for n := len(path); n >= len(created); n-- {
		v, _, got, err := d.walk(path[:n])
		if err != nil || got < n || !empty(v) {
			return
		}
		parent, _, _, _ := d.walk(path[:n-1])
		obj, ok := parent.Value.(*hujson.Object)
		if !ok {
			return
		}
		i := memberIndex(obj, path[n-1])
		if i < 0 {
			return
		}
		removeAt(parent, i)
	}
}

// empty reports whether v is an empty object or list.
func empty(v *hujson.Value) bool {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return len(c.Members) == 0
	case *hujson.Array:
		return len(c.Elements) == 0
	}
	return false
}

// compact returns raw without insignificant whitespace, its member order
// kept.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}
