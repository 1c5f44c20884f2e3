package catalog

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// ChangeKind says how a skill differs between a committed catalog and the
// collection.
type ChangeKind string

// The kinds of change Diff reports.
const (
	// Added: the collection has a package the catalog lacks.
	Added ChangeKind = "added"
	// Removed: the catalog lists a package the collection no longer has.
	Removed ChangeKind = "removed"
	// Changed: both have the package, with different fields.
	Changed ChangeKind = "changed"
	// Unreadable: the committed file is missing or not a valid catalog.
	Unreadable ChangeKind = "unreadable"
	// Noncanonical: same content, but not in canonical bytes.
	Noncanonical ChangeKind = "noncanonical"
)

// Change is one difference between a committed catalog and a fresh build.
type Change struct {
	// Kind says what differs.
	Kind ChangeKind `json:"kind"`
	// Name is the skill; empty for file-level changes.
	Name string `json:"name,omitempty"`
	// Path is the package folder.
	Path string `json:"path,omitempty"`
	// Fields lists the fields that differ, for Changed.
	Fields []string `json:"fields,omitempty"`
	// Detail explains a file-level change.
	Detail string `json:"detail,omitempty"`
}

// String renders the change as one line, e.g.
// "changed: java-basics (skills/java-basics): description, digest".
func (c Change) String() string {
	switch c.Kind {
	case Changed:
		return fmt.Sprintf("changed: %s (%s): %s", c.Name, c.Path, strings.Join(c.Fields, ", "))
	case Added, Removed:
		return fmt.Sprintf("%s: %s (%s)", c.Kind, c.Name, c.Path)
	}
	return fmt.Sprintf("%s: %s", c.Kind, c.Detail)
}

// Check compares the committed catalog bytes (nil when the file does not
// exist) with the fresh catalog and returns every difference; none means
// the committed file is byte-for-byte what Build writes.
func Check(committed []byte, fresh *Catalog) []Change {
	want := fresh.Encode()
	if committed != nil && bytes.Equal(committed, want) {
		return nil
	}
	if committed == nil {
		return []Change{{Kind: Unreadable, Detail: FileName + " does not exist"}}
	}
	old, err := Decode(committed)
	if err != nil {
		return []Change{{Kind: Unreadable, Detail: err.Error()}}
	}
	ch := Diff(old, fresh)
	if len(ch) == 0 {
		ch = []Change{{Kind: Noncanonical, Detail: FileName + " has the right content but not the canonical bytes"}}
	}
	return ch
}

// Diff names every skill added, removed or changed from old to new, with
// the fields that changed, sorted by name then path. Entries are matched by
// name and path, so a package moved to another folder is one removal and one
// addition.
func Diff(old, new *Catalog) []Change {
	type key struct{ name, path string }
	idx := func(c *Catalog) map[key]Entry {
		m := make(map[key]Entry, len(c.Skills))
		for _, e := range c.Skills {
			m[key{e.Name, e.Path}] = e
		}
		return m
	}
	om, nm := idx(old), idx(new)
	var out []Change
	for k, o := range om {
		n, ok := nm[k]
		if !ok {
			out = append(out, Change{Kind: Removed, Name: k.name, Path: k.path})
			continue
		}
		if f := fieldsChanged(o, n); len(f) > 0 {
			out = append(out, Change{Kind: Changed, Name: k.name, Path: k.path, Fields: f})
		}
	}
	for k := range nm {
		if _, ok := om[k]; !ok {
			out = append(out, Change{Kind: Added, Name: k.name, Path: k.path})
		}
	}
	slices.SortFunc(out, func(a, b Change) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	})
	return out
}

// fieldsChanged lists the fields that differ between two entries.
func fieldsChanged(a, b Entry) []string {
	var f []string
	if a.Description != b.Description {
		f = append(f, "description")
	}
	if a.Digest != b.Digest {
		f = append(f, "digest")
	}
	if !slices.Equal(a.Keywords, b.Keywords) && (len(a.Keywords) > 0 || len(b.Keywords) > 0) {
		f = append(f, "keywords")
	}
	if a.Kind != b.Kind {
		f = append(f, "kind")
	}
	if a.Version != b.Version {
		f = append(f, "version")
	}
	return f
}
