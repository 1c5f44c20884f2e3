package format

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Entrypoint is the decoded identity of a package's entrypoint: the YAML
// front matter of SKILL.md or COMMAND.md, or the static
// `export const meta = { … }` literal of WORKFLOW.js. All keys are kept
// with raw values and positions; package validate applies the Agent Skills
// specification's rules to them.
type Entrypoint struct {
	// File is the name the entrypoint was decoded under, used in
	// diagnostics.
	File string
	// Kind is the kind of package the entrypoint belongs to.
	Kind Kind
	// HasMeta reports whether the file has a front-matter block (SKILL.md,
	// COMMAND.md) or a meta export (WORKFLOW.js). A Markdown entrypoint
	// without front matter has HasMeta false and no Fields.
	HasMeta bool
	// MetaLine is the 1-based line on which the front matter's YAML, or
	// the meta object literal, starts; 0 when HasMeta is false.
	MetaLine int
	// Fields holds every top-level key with its raw value: string, int64,
	// float64, bool, nil, []any or map[string]any.
	Fields map[string]any
	// Keys lists the top-level keys in source order with their positions.
	Keys []Key
	// Body is the Markdown after the front matter (the whole file when
	// there is none); nil for WORKFLOW.js.
	Body []byte
	// BodyLine is the 1-based file line on which Body starts, so that a
	// line n of Body is file line BodyLine+n-1; 0 for WORKFLOW.js.
	BodyLine int

	positions map[string]Pos
	keys      map[string]Pos
	texts     map[string]string
}

// Pos returns the file position of the value at a field path such as
// "name", "metadata.author" or "allowed-tools[0]", or the zero Pos when
// the path is not present.
func (e *Entrypoint) Pos(path string) Pos { return e.positions[path] }

// KeyPos returns the file position of the key that introduces the value
// at path, or the zero Pos when the path is not a mapping entry.
func (e *Entrypoint) KeyPos(path string) Pos { return e.keys[path] }

// Has reports whether the entrypoint writes a value at path.
func (e *Entrypoint) Has(path string) bool {
	_, ok := e.positions[path]
	return ok
}

// Text returns the scalar at path as written in the source, without quotes
// and with escapes resolved: `version: 1.0` gives "1.0" although Fields
// holds the number 1. It returns "" for absent paths and non-scalars.
func (e *Entrypoint) Text(path string) string { return e.texts[path] }

// String returns the top-level field key when it is a string.
func (e *Entrypoint) String(key string) (string, bool) {
	s, ok := e.Fields[key].(string)
	return s, ok
}

// newEntrypoint returns an empty entrypoint with its maps allocated.
func newEntrypoint(file string, kind Kind) *Entrypoint {
	return &Entrypoint{
		File: file, Kind: kind, Fields: map[string]any{},
		positions: map[string]Pos{}, keys: map[string]Pos{}, texts: map[string]string{},
	}
}

// DecodeEntrypoint decodes an entrypoint of the given kind. For KindSkill
// and KindCommand it splits the YAML front matter from the Markdown body and
// decodes the front matter; for KindWorkflow it calls ReadWorkflowMeta.
// file names the entrypoint in diagnostics.
//
// An unclosed block, a YAML syntax error or front matter that is not a
// mapping is ASK_FRONTMATTER_INVALID with the file line, and the returned
// Entrypoint is nil because nothing about it can be trusted. Duplicate keys,
// aliases and merge keys are ASK_FRONTMATTER_INVALID too, but the
// Entrypoint is still returned. A file over 1 MiB is ASK_PACKAGE_TOO_LARGE.
func DecodeEntrypoint(data []byte, file string, kind Kind) (*Entrypoint, Diagnostics) {
	return decodeEntrypoint(data, file, kind, DefaultMaxEntrypointSize)
}

func decodeEntrypoint(data []byte, file string, kind Kind, limit int64) (*Entrypoint, Diagnostics) {
	if int64(len(data)) > limit {
		return nil, Diagnostics{tooLarge(file, "the entrypoint", limit, "bytes")}
	}
	if kind == KindWorkflow {
		return ReadWorkflowMeta(data, file)
	}
	src := yamlSource{file: file, what: "front matter", code: CodeFrontMatterInvalid,
		fix: "fix the YAML between the two `---` lines"}
	fm, err := SplitFrontMatter(data)
	if err != nil {
		fe := &FrontMatterError{Line: 1, Message: err.Error()}
		errors.As(err, &fe)
		return nil, Diagnostics{src.errorAt(Pos{Line: fe.Line, Col: 1}, fe.Message,
			"close the front matter with a line holding only `---`")}
	}
	e := newEntrypoint(file, kind)
	e.Body, e.BodyLine = fm.Body, fm.BodyLine
	if !fm.Present {
		return e, nil
	}
	e.HasMeta, e.MetaLine = true, fm.Line
	src.lineOffset = fm.Line - 1
	root, diags := parseYAML(fm.Data, src)
	if diags.HasErrors() && root == nil {
		return nil, diags
	}
	if root == nil {
		return e, diags // empty front matter
	}
	if root.Kind != yaml.MappingNode {
		return nil, append(diags, src.errorAt(src.pos(root),
			fmt.Sprintf("the front matter must be a mapping of keys to values, found a %s", kindName(root)),
			"write the front matter as `key: value` lines, such as `name: my-skill`"))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		e.Keys = append(e.Keys, Key{Name: k.Value, Pos: src.pos(k)})
		e.Fields[k.Value] = nodeValue(v)
		e.keys[k.Value] = src.pos(k)
		e.recordYAML(src, k.Value, v)
	}
	return e, diags
}

// recordYAML stores positions, key positions and scalar texts for the
// node tree at path.
func (e *Entrypoint) recordYAML(src yamlSource, path string, n *yaml.Node) {
	e.positions[path] = src.pos(n)
	switch n.Kind {
	case yaml.ScalarNode:
		e.texts[path] = n.Value
	case yaml.SequenceNode:
		for i, c := range n.Content {
			e.recordYAML(src, indexPath(path, i), c)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := keyPath(path, n.Content[i].Value)
			e.keys[p] = src.pos(n.Content[i])
			e.recordYAML(src, p, n.Content[i+1])
		}
	}
}
