package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxYAMLDepth caps how deeply mappings and sequences may nest in a
// manifest or front-matter block. Real manifests nest four levels at most.
const maxYAMLDepth = 64

// yamlSource names the document being parsed, for messages, and says where
// its first line sits inside the enclosing file.
type yamlSource struct {
	file string
	what string // "manifest" or "front matter"
	code string // diagnostic code for every problem found
	fix  string // generic fix for syntax problems
	// lineOffset is added to every line yaml reports; 0 for a whole file,
	// the front matter's first line minus one for a front-matter block.
	lineOffset int
}

func (s yamlSource) pos(n *yaml.Node) Pos {
	if n == nil || n.Line == 0 {
		return Pos{}
	}
	return Pos{Line: n.Line + s.lineOffset, Col: n.Column}
}

func (s yamlSource) errorAt(p Pos, msg, fix string) Diagnostic {
	return Diagnostic{File: s.file, Pos: p, Severity: SeverityError, Code: s.code, Message: msg, Fix: fix}
}

// parseYAML decodes data as exactly one YAML document and returns its root
// content node, or nil when the document is empty. It then checks the whole
// tree for what this package never accepts: aliases, merge keys, non-scalar
// or duplicate mapping keys and excessive nesting. Every problem found is
// reported, not just the first.
func parseYAML(data []byte, src yamlSource) (*yaml.Node, Diagnostics) {
	if root, ok := fastYAML(data); ok {
		return root, src.checkTree(root, 1)
	}
	return parseYAMLv3(data, src)
}

// parseYAMLv3 is parseYAML by yaml.v3 alone.
func parseYAMLv3(data []byte, src yamlSource) (*yaml.Node, Diagnostics) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, Diagnostics{src.syntaxError(err)}
	}
	var diags Diagnostics
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		diags = append(diags, src.errorAt(src.pos(&next),
			fmt.Sprintf("the %s holds more than one YAML document", src.what),
			"remove the \"---\" separator and everything after it"))
	case !errors.Is(err, io.EOF):
		diags = append(diags, src.syntaxError(err))
	}
	if len(doc.Content) == 0 {
		return nil, diags
	}
	root := doc.Content[0]
	diags = append(diags, src.checkTree(root, 1)...)
	return root, diags
}

// syntaxError turns a yaml.v3 error into a diagnostic carrying the line it
// names.
func (s yamlSource) syntaxError(err error) Diagnostic {
	// yaml.v3 writes "yaml: line 3: did not find expected key".
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var p Pos
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, text, found := strings.Cut(rest, ": "); found {
			if line, convErr := strconv.Atoi(num); convErr == nil {
				p = Pos{Line: line + s.lineOffset, Col: 1}
				msg = text
			}
		}
	}
	return s.errorAt(p, fmt.Sprintf("the %s is not valid YAML: %s", s.what, msg), s.fix)
}

// checkTree walks n and reports aliases, merge keys, non-scalar keys,
// duplicate keys and nesting deeper than maxYAMLDepth.
func (s yamlSource) checkTree(n *yaml.Node, depth int) Diagnostics {
	if depth > maxYAMLDepth {
		return Diagnostics{s.errorAt(s.pos(n),
			fmt.Sprintf("the %s nests deeper than %d levels", s.what, maxYAMLDepth),
			"flatten the structure")}
	}
	var diags Diagnostics
	switch n.Kind {
	case yaml.AliasNode:
		diags = append(diags, s.errorAt(s.pos(n),
			fmt.Sprintf("the %s uses the YAML alias *%s; aliases are not supported", s.what, n.Value),
			"write the value out in full instead of using an anchor and alias"))
	case yaml.SequenceNode:
		for _, c := range n.Content {
			diags = append(diags, s.checkTree(c, depth+1)...)
		}
	case yaml.MappingNode:
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case k.Kind != yaml.ScalarNode:
				diags = append(diags, s.errorAt(s.pos(k),
					fmt.Sprintf("the %s has a %s used as a mapping key; keys must be plain strings", s.what, kindName(k)),
					"use a plain string key"))
			case k.Tag == "!!merge":
				diags = append(diags, s.errorAt(s.pos(k),
					fmt.Sprintf("the %s uses the YAML merge key \"<<\"; merge keys are not supported", s.what),
					"write the merged keys out in full"))
			default:
				if first, dup := seen[k.Value]; dup {
					diags = append(diags, s.errorAt(s.pos(k),
						fmt.Sprintf("key %q appears twice in the %s (first on line %d)", k.Value, s.what, s.pos(first).Line),
						"keep one of the two entries"))
				} else {
					seen[k.Value] = k
				}
			}
			diags = append(diags, s.checkTree(v, depth+1)...)
		}
	}
	return diags
}

// kindName describes a node's shape for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!bool":
			return "boolean"
		case "!!int", "!!float":
			return "number"
		}
		return "string"
	}
	return "document"
}

// nodeValue converts a checked YAML node into plain Go values: string,
// int64, float64, bool, nil, []any or map[string]any. Scalars whose tag has
// no plain Go counterpart (timestamps, binary, custom tags) stay strings,
// exactly as written. Aliases, which checkTree already reported, become nil.
func nodeValue(n *yaml.Node) any {
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return n.Value
			}
			switch x := v.(type) {
			case int:
				return int64(x)
			case uint64:
				return float64(x)
			}
			return v
		}
		return n.Value
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, nodeValue(c))
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = nodeValue(n.Content[i+1])
		}
		return out
	}
	return nil
}

// recordPositions stores, under path, the position of n and of every node
// below it, using the field-path syntax of Manifest.Pos.
func (s yamlSource) recordPositions(pos map[string]Pos, path string, n *yaml.Node) {
	pos[path] = s.pos(n)
	switch n.Kind {
	case yaml.SequenceNode:
		for i, c := range n.Content {
			s.recordPositions(pos, indexPath(path, i), c)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			s.recordPositions(pos, keyPath(path, n.Content[i].Value), n.Content[i+1])
		}
	}
}

// keyPath joins a parent path and a mapping key: "a" + "b" = "a.b".
func keyPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// indexPath joins a parent path and a sequence index: "files" + 2 = "files[2]".
func indexPath(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}
