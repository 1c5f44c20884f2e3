package publish

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/registry"
)

// errShape reports a document shape the text patch does not handle; the
// yaml.Node patch takes over.
var errShape = errors.New("the index layout cannot be patched as text")

// textDoc is a document as lines, with pending line-range replacements.
type textDoc struct {
	lines []string // each with its line end, the last maybe without
	eol   string
	edits []textEdit
}

// textEdit replaces lines [start, end) with repl.
type textEdit struct {
	start, end int
	repl       []string
}

// newTextDoc splits src into lines, keeping their ends.
func newTextDoc(src []byte) *textDoc {
	d := &textDoc{eol: "\n"}
	if bytes.Contains(src, []byte("\r\n")) {
		d.eol = "\r\n"
	}
	s := string(src)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			d.lines = append(d.lines, s)
			break
		}
		d.lines = append(d.lines, s[:i+1])
		s = s[i+1:]
	}
	return d
}

// bytes applies the edits, later lines first, and joins the lines.
func (d *textDoc) bytes() []byte {
	edits := slices.Clone(d.edits)
	slices.SortStableFunc(edits, func(a, b textEdit) int {
		if a.start != b.start {
			return b.start - a.start
		}
		return b.end - a.end
	})
	lines := slices.Clone(d.lines)
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += d.eol
	}
	for _, e := range edits {
		lines = slices.Replace(lines, e.start, e.end, e.repl...)
	}
	return []byte(strings.Join(lines, ""))
}

// content returns line i without its line end.
func (d *textDoc) content(i int) string {
	return strings.TrimRight(d.lines[i], "\r\n")
}

// blankOrComment reports whether line i holds no YAML content.
func (d *textDoc) blankOrComment(i int) bool {
	t := strings.TrimSpace(d.content(i))
	return t == "" || strings.HasPrefix(t, "#")
}

// indent returns the number of leading spaces of line i.
func (d *textDoc) indent(i int) int {
	c := d.content(i)
	return len(c) - len(strings.TrimLeft(c, " "))
}

// offset converts a 1-based yaml column on line i to a byte offset.
func (d *textDoc) offset(i, column int) int {
	c := d.content(i)
	off := 0
	for n := 1; n < column && off < len(c); n++ {
		_, size := utf8.DecodeRuneInString(c[off:])
		off += size
	}
	return off
}

// blockEnd returns the last line of the block that starts on line first
// at byte column col: following lines belong to it while they are blank,
// comments, indented deeper than col, or — when seq — sequence items at
// col. Trailing blank and comment lines are left out.
func (d *textDoc) blockEnd(first, col int, seq bool) int {
	last := first
	for i := first + 1; i < len(d.lines); i++ {
		if d.blankOrComment(i) {
			continue
		}
		ind := d.indent(i)
		rest := strings.TrimLeft(d.content(i), " ")
		if ind > col || (seq && ind == col && (rest == "-" || strings.HasPrefix(rest, "- "))) {
			last = i
			continue
		}
		break
	}
	return last
}

// item locates a block sequence item: the line of its dash, the dash's
// byte column, and the first line of the comments directly above it.
func (d *textDoc) item(n *yaml.Node) (dash, col, start int, err error) {
	dash = n.Line - 1
	if dash < 0 || dash >= len(d.lines) {
		return 0, 0, 0, errShape
	}
	prefix := d.content(dash)[:d.offset(dash, n.Column)]
	if strings.TrimSpace(prefix) != "-" {
		return 0, 0, 0, errShape
	}
	col = strings.IndexByte(prefix, '-')
	start = dash
	for start > 0 && d.blankOrComment(start-1) && strings.TrimSpace(d.content(start-1)) != "" {
		start--
	}
	return dash, col, start, nil
}

// itemEnd returns the last line of a sequence item whose dash is on line
// dash at column col.
func (d *textDoc) itemEnd(dash, col int) int {
	return d.blockEnd(dash, col, false)
}

// insertLines queues text, re-indented by col spaces, before line at.
func (d *textDoc) insertLines(at, col int, text []byte) {
	d.edits = append(d.edits, textEdit{start: at, end: at, repl: d.indented(text, strings.Repeat(" ", col), strings.Repeat(" ", col))})
}

// indented splits rendered YAML into lines with the document's line end,
// the first prefixed with first and the others with rest.
func (d *textDoc) indented(text []byte, first, rest string) []string {
	var out []string
	for i, l := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			p = ""
		}
		out = append(out, p+l+d.eol)
	}
	return out
}

// replaceEntry queues the replacement of the entry key of mapping m —
// from its key to the end of its value — by newKey: value, keeping what
// precedes the key on its line (a sequence dash) and a line comment.
func (d *textDoc) replaceEntry(m *yaml.Node, key, newKey string, value *yaml.Node) error {
	k, v := entry(m, key)
	if k == nil {
		return errShape
	}
	line := k.Line - 1
	if line < 0 || line >= len(d.lines) {
		return errShape
	}
	col := d.offset(line, k.Column)
	end := d.blockEnd(line, col, v.Kind == yaml.SequenceNode)
	text, err := renderEntry(newKey, value)
	if err != nil {
		return err
	}
	repl := d.indented(text, d.content(line)[:col], strings.Repeat(" ", col))
	comment := v.LineComment
	if comment == "" {
		comment = k.LineComment
	}
	if comment != "" && len(repl) == 1 && end == line {
		repl[0] = strings.TrimSuffix(repl[0], d.eol) + " " + comment + d.eol
	}
	d.edits = append(d.edits, textEdit{start: line, end: end + 1, repl: repl})
	return nil
}

// deleteItem queues the removal of a sequence item with the comments
// directly above it.
func (d *textDoc) deleteItem(n *yaml.Node) error {
	dash, col, start, err := d.item(n)
	if err != nil {
		return err
	}
	d.edits = append(d.edits, textEdit{start: start, end: d.itemEnd(dash, col) + 1})
	return nil
}

// insertItem queues text as a new item of the block sequence seq at
// position pos (len(seq.Content) appends).
func (d *textDoc) insertItem(seq *yaml.Node, pos int, text []byte) error {
	if seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 || len(seq.Content) == 0 {
		return errShape
	}
	ref := seq.Content[min(pos, len(seq.Content)-1)]
	dash, col, start, err := d.item(ref)
	if err != nil {
		return err
	}
	at := start
	if pos >= len(seq.Content) {
		at = d.itemEnd(dash, col) + 1
	}
	d.insertLines(at, col, text)
	return nil
}

// patchText makes the edit on the document's text at the positions the
// yaml.Node tree reports, so that every other byte stays as it was.
func patchText(src []byte, e *indexEdit) ([]byte, error) {
	root, err := parseRoot(src)
	if err != nil {
		return nil, err
	}
	d := newTextDoc(src)
	if e.updatedAt != "" {
		if k, v := entry(root, "updatedAt"); k != nil {
			if err := d.replaceEntry(root, "updatedAt", "updatedAt", scalarLike(v, e.updatedAt)); err != nil {
				return nil, err
			}
		}
	}
	_, skills := entry(root, "skills")
	if skills == nil {
		return nil, errShape
	}
	if e.skill != nil {
		text, err := renderSkill(e.skill, keywordStyle(skills))
		if err != nil {
			return nil, err
		}
		if err := d.insertItem(skills, skillPos(skills, e.skill.Name), text); err != nil {
			return nil, err
		}
		return d.bytes(), nil
	}
	s := findSkill(skills, e.name)
	if s == nil {
		return nil, errShape
	}
	_, versions := entry(s, "versions")
	if versions == nil || versions.Kind != yaml.SequenceNode {
		return nil, errShape
	}
	for _, item := range versions.Content {
		_, vv := entry(item, "version")
		if vv == nil {
			return nil, errShape
		}
		if slices.Contains(e.drop, vv.Value) {
			if err := d.deleteItem(item); err != nil {
				return nil, err
			}
		} else if t, ok := e.tarball[vv.Value]; ok {
			_, pv := entry(item, "path")
			if pv == nil {
				return nil, errShape
			}
			if err := d.replaceEntry(item, "path", "tarball", scalarLike(pv, t)); err != nil {
				return nil, err
			}
		}
	}
	text, err := renderVersion(e.add)
	if err != nil {
		return nil, err
	}
	if err := d.insertItem(versions, versionPos(versions, e.add.Version), text); err != nil {
		return nil, err
	}
	if e.latest != "" {
		if k, v := entry(s, "latest"); k != nil {
			if err := d.replaceEntry(s, "latest", "latest", scalarLike(v, e.latest)); err != nil {
				return nil, err
			}
		}
	}
	if e.setFields {
		if err := d.refreshFields(s, e); err != nil {
			return nil, err
		}
	}
	return d.bytes(), nil
}

// refreshFields rewrites description and keywords when they changed.
func (d *textDoc) refreshFields(s *yaml.Node, e *indexEdit) error {
	k, v := entry(s, "description")
	switch {
	case k != nil && v.Value != e.description:
		if err := d.replaceEntry(s, "description", "description", scalarLike(v, e.description)); err != nil {
			return err
		}
	case k == nil && e.description != "":
		return errShape
	}
	k, v = entry(s, "keywords")
	switch {
	case k != nil && !slices.Equal(nodeStrings(v), e.keywords):
		if len(e.keywords) == 0 {
			return errShape
		}
		if err := d.replaceEntry(s, "keywords", "keywords", stringSeq(e.keywords, v.Style&yaml.FlowStyle)); err != nil {
			return err
		}
	case k == nil && len(e.keywords) > 0:
		return errShape
	}
	return nil
}

// parseRoot decodes src into a yaml.Node tree and returns its root
// mapping.
func parseRoot(src []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errShape
	}
	return doc.Content[0], nil
}

// entry returns the key and value nodes of key in mapping m.
func entry(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// findSkill returns the skills[] item called name.
func findSkill(skills *yaml.Node, name string) *yaml.Node {
	for _, s := range skills.Content {
		if _, n := entry(s, "name"); n != nil && n.Value == name {
			return s
		}
	}
	return nil
}

// skillPos returns where a new skill goes: before the first skill whose
// name sorts after it.
func skillPos(skills *yaml.Node, name string) int {
	for i, s := range skills.Content {
		if _, n := entry(s, "name"); n != nil && n.Value > name {
			return i
		}
	}
	return len(skills.Content)
}

// versionPos returns where a new version goes in the document's own order:
// newest first, unless the list is in ascending order.
func versionPos(versions *yaml.Node, version string) int {
	nv, err := semver.StrictNewVersion(version)
	if err != nil {
		return 0
	}
	var vs []*semver.Version
	for _, item := range versions.Content {
		_, v := entry(item, "version")
		if v == nil {
			return 0
		}
		sv, err := semver.StrictNewVersion(v.Value)
		if err != nil {
			return 0
		}
		vs = append(vs, sv)
	}
	ascending := len(vs) >= 2 && slices.IsSortedFunc(vs, func(a, b *semver.Version) int { return a.Compare(b) }) && vs[0].LessThan(vs[len(vs)-1])
	for i, sv := range vs {
		if ascending && sv.GreaterThan(nv) || !ascending && sv.LessThan(nv) {
			return i
		}
	}
	return len(vs)
}

// keywordStyle returns the style the document writes keywords in: the
// first skill's, flow when no skill has keywords.
func keywordStyle(skills *yaml.Node) yaml.Style {
	for _, s := range skills.Content {
		if _, k := entry(s, "keywords"); k != nil && k.Kind == yaml.SequenceNode {
			return k.Style & yaml.FlowStyle
		}
	}
	return yaml.FlowStyle
}

// nodeStrings returns the scalar values of a sequence node.
func nodeStrings(n *yaml.Node) []string {
	var out []string
	for _, c := range n.Content {
		out = append(out, c.Value)
	}
	return out
}

// scalarLike returns a string scalar holding value, quoted the way old
// is when old is quoted.
func scalarLike(old *yaml.Node, value string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	if old != nil {
		n.Style = old.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle)
	}
	return n
}

// stringSeq returns a sequence node of string scalars in style.
func stringSeq(vals []string, style yaml.Style) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
	for _, v := range vals {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v})
	}
	return n
}

// renderEntry renders "key: value" with two-space indentation.
func renderEntry(key string, value *yaml.Node) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, value,
	}}
	return encodeNode(m)
}

// renderSkill renders a skill as a sequence item, its keywords in style.
func renderSkill(s *registry.Skill, style yaml.Style) ([]byte, error) {
	n, err := skillNode(s, style)
	if err != nil {
		return nil, err
	}
	return encodeNode(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}})
}

// skillNode encodes a skill as a mapping node, its keywords in style.
func skillNode(s *registry.Skill, style yaml.Style) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(s); err != nil {
		return nil, err
	}
	if _, k := entry(&n, "keywords"); k != nil {
		k.Style = style
	}
	return &n, nil
}

// renderVersion renders a version as a sequence item.
func renderVersion(v *registry.Version) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode([]*registry.Version{v}); err != nil {
		return nil, err
	}
	return encodeNode(&n)
}

// encodeNode renders a node with two-space indentation.
func encodeNode(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
