package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"
)

// decodeIndexYAML decodes a YAML index through a yaml.Node tree so that
// every problem carries its line and column. Aliases are refused (an
// index never needs them and they are the usual decompression bomb).
func decodeIndexYAML(data []byte, lim IndexLimits) (*Index, problems) {
	var errs problems
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		errs.add(yamlErrPos(err), "", "YAML syntax: "+err.Error())
		return nil, errs
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		errs.add(pos{int32(extra.Line), int32(extra.Column)}, "", "more than one YAML document")
		return nil, errs
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		errs.add(nodePos(root), "", "the index must be a mapping")
		return nil, errs
	}
	idx := &Index{SchemaVersion: 1}
	d := &yamlDecoder{errs: &errs, lim: lim}
	d.fields(root, "", func(key string, v *yaml.Node, path string) {
		switch key {
		case "schemaVersion":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil {
				d.typeErr(v, path, "an integer")
				return
			}
			idx.SchemaVersion = n
		case "name":
			idx.Name = d.str(v, path)
		case "updatedAt":
			idx.UpdatedAt = d.str(v, path)
		case "skills":
			idx.Skills = d.skills(v, path)
		}
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return idx, nil
}

// yamlDecoder walks an index node tree, filling structs and recording
// type problems.
type yamlDecoder struct {
	errs      *problems
	lim       IndexLimits
	nVersions int
}

// fields calls f for each key of mapping m in order, reporting aliases,
// non-scalar keys and duplicate keys.
func (d *yamlDecoder) fields(m *yaml.Node, path string, f func(key string, v *yaml.Node, path string)) {
	var seen [16]string
	n := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errs.add(nodePos(k), path, "keys must be plain strings")
			continue
		}
		kp := k.Value
		if path != "" {
			kp = path + "." + k.Value
		}
		if v.Kind == yaml.AliasNode || k.Kind == yaml.AliasNode {
			d.errs.add(nodePos(v), kp, "YAML aliases are not allowed in an index")
			continue
		}
		if slices.Contains(seen[:n], k.Value) {
			d.errs.add(nodePos(k), kp, "duplicate key")
			continue
		}
		if n < len(seen) {
			seen[n] = k.Value
			n++
		}
		f(k.Value, v, kp)
	}
}

// str returns the value of a scalar string node.
func (d *yamlDecoder) str(v *yaml.Node, path string) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		d.typeErr(v, path, "a string")
		return ""
	}
	if len(v.Value) > d.lim.MaxStringBytes {
		d.errs.add(nodePos(v), path, fmt.Sprintf("longer than %d bytes", d.lim.MaxStringBytes))
		return ""
	}
	return v.Value
}

// typeErr records a wrong node kind.
func (d *yamlDecoder) typeErr(v *yaml.Node, path, want string) {
	d.errs.add(nodePos(v), path, "must be "+want+", found "+nodeKind(v))
}

// skills decodes the skills sequence.
func (d *yamlDecoder) skills(v *yaml.Node, path string) []*Skill {
	if v.Kind != yaml.SequenceNode {
		d.typeErr(v, path, "a list")
		return nil
	}
	if len(v.Content) > d.lim.MaxSkills {
		d.errs.add(nodePos(v), path, fmt.Sprintf("%d skills; the limit is %d", len(v.Content), d.lim.MaxSkills))
		return nil
	}
	out := make([]*Skill, 0, len(v.Content))
	for i, n := range v.Content {
		if d.errs.full() {
			break
		}
		sp := path + "[" + strconv.Itoa(i) + "]"
		if n.Kind != yaml.MappingNode {
			d.typeErr(n, sp, "a mapping")
			continue
		}
		s := &Skill{pos: nodePos(n)}
		d.fields(n, sp, func(key string, v *yaml.Node, p string) {
			switch key {
			case "name":
				s.Name = d.str(v, p)
			case "description":
				s.Description = d.str(v, p)
			case "latest":
				s.Latest = d.str(v, p)
			case "keywords":
				s.Keywords = d.strings(v, p)
			case "versions":
				s.Versions = d.versions(v, p)
			}
		})
		out = append(out, s)
	}
	return out
}

// strings decodes a list of strings.
func (d *yamlDecoder) strings(v *yaml.Node, path string) []string {
	if v.Kind != yaml.SequenceNode {
		d.typeErr(v, path, "a list of strings")
		return nil
	}
	if len(v.Content) > d.lim.MaxKeywords {
		d.errs.add(nodePos(v), path, fmt.Sprintf("%d entries; the limit is %d", len(v.Content), d.lim.MaxKeywords))
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, n := range v.Content {
		out = append(out, d.str(n, path+"["+strconv.Itoa(i)+"]"))
	}
	return out
}

// versions decodes a versions sequence.
func (d *yamlDecoder) versions(v *yaml.Node, path string) []*Version {
	if v.Kind != yaml.SequenceNode {
		d.typeErr(v, path, "a list")
		return nil
	}
	d.nVersions += len(v.Content)
	if len(v.Content) > d.lim.MaxVersionsPerSkill || d.nVersions > d.lim.MaxVersions {
		d.errs.add(nodePos(v), path, "too many versions")
		return nil
	}
	out := make([]*Version, 0, len(v.Content))
	for i, n := range v.Content {
		vp := path + "[" + strconv.Itoa(i) + "]"
		if n.Kind != yaml.MappingNode {
			d.typeErr(n, vp, "a mapping")
			continue
		}
		ver := &Version{pos: nodePos(n)}
		d.fields(n, vp, func(key string, v *yaml.Node, p string) {
			switch key {
			case "version":
				ver.Version = d.str(v, p)
			case "path":
				ver.Path = d.str(v, p)
			case "tarball":
				ver.Tarball = d.str(v, p)
			case "manifest":
				ver.Manifest = d.str(v, p)
			case "integrity":
				ver.Integrity = d.str(v, p)
			case "publishedAt":
				ver.PublishedAt = d.str(v, p)
			case "deprecationReason":
				ver.DeprecationReason = d.str(v, p)
			case "signatures":
				ver.Signatures = d.strings(v, p)
			case "deprecated":
				if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
					d.typeErr(v, p, "true or false")
					return
				}
				ver.Deprecated = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
			}
		})
		out = append(out, ver)
	}
	return out
}

// nodePos returns the position of n.
func nodePos(n *yaml.Node) pos { return pos{int32(n.Line), int32(n.Column)} }

// nodeKind names a node's kind for messages.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	}
	return strconv.Quote(n.Value)
}

// yamlErrPos extracts "line N" from a yaml.v3 error when present.
func yamlErrPos(err error) pos {
	var line int
	if _, e := fmt.Sscanf(err.Error(), "yaml: line %d:", &line); e == nil {
		return pos{int32(line), 0}
	}
	return pos{}
}

// EncodeYAML renders the index as registry/skills.yaml: keys in schema
// order, skills sorted by name, versions newest first, defaults omitted.
// The same index always gives the same bytes.
func (x *Index) EncodeYAML() []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(x.canonical()); err != nil {
		// Encoding plain strings, ints and bools into a buffer cannot fail.
		panic("registry: encoding index: " + err.Error())
	}
	_ = enc.Close()
	return b.Bytes()
}

// EncodeJSON renders the index as index.json with the same ordering as
// EncodeYAML, indented, with a trailing newline.
func (x *Index) EncodeJSON() []byte {
	b, err := json.MarshalIndent(x.canonical(), "", "  ")
	if err != nil {
		panic("registry: encoding index: " + err.Error())
	}
	return append(b, '\n')
}

// canonical returns a copy with skills sorted by name and versions newest
// first.
func (x *Index) canonical() *Index {
	c := &Index{SchemaVersion: max(x.SchemaVersion, 1), Name: x.Name, UpdatedAt: x.UpdatedAt}
	for _, s := range x.Skills {
		cs := *s
		cs.Versions = s.Sorted()
		c.Skills = append(c.Skills, &cs)
	}
	slices.SortFunc(c.Skills, func(a, b *Skill) int { return compareStrings(a.Name, b.Name) })
	return c
}

// compareStrings is a byte-order comparison.
func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortVersionsDesc sorts versions newest first; unparsable versions last,
// by string.
func sortVersionsDesc(vs []*Version) {
	if len(vs) < 2 {
		return // sorted; and nothing to parse
	}
	type parsed struct {
		v  *Version
		sv *semver.Version
	}
	ps := make([]parsed, len(vs))
	for i, v := range vs {
		ps[i] = parsed{v, v.Semver()}
	}
	slices.SortStableFunc(ps, func(a, b parsed) int {
		switch {
		case a.sv == nil && b.sv == nil:
			return compareStrings(a.v.Version, b.v.Version)
		case a.sv == nil:
			return 1
		case b.sv == nil:
			return -1
		}
		return b.sv.Compare(a.sv)
	})
	for i := range ps {
		vs[i] = ps[i].v
	}
}
