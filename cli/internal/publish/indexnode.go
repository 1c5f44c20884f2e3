package publish

import (
	"slices"

	"go.yaml.in/yaml/v3"
)

// patchNodes makes the edit on the yaml.Node tree and re-encodes it. It
// keeps comments, key order and the order of skills, but the encoder may
// re-wrap long strings; patchIndex uses it only when patchText cannot.
func patchNodes(src []byte, e *indexEdit) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errShape
	}
	root := doc.Content[0]
	if e.updatedAt != "" {
		if _, v := entry(root, "updatedAt"); v != nil {
			*v = *scalarLike(v, e.updatedAt)
		}
	}
	_, skills := entry(root, "skills")
	if skills == nil {
		skills = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "skills"}, skills)
	}
	if skills.Kind != yaml.SequenceNode {
		return nil, errShape
	}
	if len(skills.Content) == 0 {
		skills.Style = 0
	}
	if e.skill != nil {
		n, err := skillNode(e.skill, keywordStyle(skills))
		if err != nil {
			return nil, err
		}
		skills.Content = slices.Insert(skills.Content, skillPos(skills, e.skill.Name), n)
		return encodeNode(&doc)
	}
	s := findSkill(skills, e.name)
	if s == nil {
		return nil, errShape
	}
	_, versions := entry(s, "versions")
	if versions == nil || versions.Kind != yaml.SequenceNode {
		return nil, errShape
	}
	kept := versions.Content[:0:0]
	for _, item := range versions.Content {
		_, vv := entry(item, "version")
		if vv == nil {
			return nil, errShape
		}
		if slices.Contains(e.drop, vv.Value) {
			continue
		}
		if t, ok := e.tarball[vv.Value]; ok {
			k, pv := entry(item, "path")
			if k == nil {
				return nil, errShape
			}
			k.Value = "tarball"
			*pv = *scalarLike(pv, t)
		}
		kept = append(kept, item)
	}
	versions.Content = kept
	var vn yaml.Node
	if err := vn.Encode(e.add); err != nil {
		return nil, err
	}
	versions.Content = slices.Insert(versions.Content, versionPos(versions, e.add.Version), &vn)
	if e.latest != "" {
		if _, v := entry(s, "latest"); v != nil {
			*v = *scalarLike(v, e.latest)
		}
	}
	if e.setFields {
		setEntry(s, "description", scalarLike(nil, e.description), e.description == "")
		style := yaml.FlowStyle
		if _, k := entry(s, "keywords"); k != nil {
			style = k.Style & yaml.FlowStyle
		}
		setEntry(s, "keywords", stringSeq(e.keywords, style), len(e.keywords) == 0)
	}
	return encodeNode(&doc)
}

// setEntry sets key of mapping m to value (after name when the key is
// new), or removes the key when remove is true.
func setEntry(m *yaml.Node, key string, value *yaml.Node, remove bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		if remove {
			m.Content = slices.Delete(m.Content, i, i+2)
		} else {
			value.LineComment = m.Content[i+1].LineComment
			m.Content[i+1] = value
		}
		return
	}
	if remove {
		return
	}
	at := 0
	if k, _ := entry(m, "name"); k != nil {
		at = slices.Index(m.Content, k) + 2
	}
	m.Content = slices.Insert(m.Content, at, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, value)
}
