package agents

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"go.yaml.in/yaml/v3"
)

// Entry is one file of a projected package. Exactly one of Content and
// CopyFrom is set.
type Entry struct {
	// Path is the slash-separated path of the file inside the installed
	// package folder. For a file-shaped location the single entry's Path
	// is the entrypoint name; the installer writes it to Location.Dest.
	Path string `json:"path"`
	// Content holds the bytes to write when the file is generated or
	// rewritten by the projection.
	Content []byte `json:"-"`
	// CopyFrom is the path inside the package's FS whose bytes are copied
	// unchanged.
	CopyFrom string `json:"copyFrom,omitempty"`
}

// Layout is the projection of a neutral package onto one agent (or onto
// every agent reading one shared root): the files to write and the
// entrypoint front matter they carry. The installed package is named
// after the manifest, so the layout carries no name of its own.
type Layout struct {
	// Entries lists the files to write, sorted by Path.
	Entries []Entry `json:"entries"`
	// FrontMatter is the projected entrypoint front matter, as written
	// into the entrypoint entry.
	FrontMatter map[string]any `json:"frontMatter"`
}

// Check refuses a layout that cannot be written as planned. An adapter
// bug is ASK_LAYOUT_INVALID: a file-shaped location given anything but
// exactly one entry, an entry with both or neither of Content and
// CopyFrom, a path written twice, or a generated path that breaks the
// portable-path rules (format.CheckPaths). A file the package ships whose
// path breaks them — or collides, on a case-insensitive or normalising
// file system, with another path of the layout — is the package's fault,
// not the adapter's: ASK_PACKAGE_UNSAFE_FILE (exit 5), every such file
// listed. format.Load already refuses such files, so this only fires for a
// package built some other way.
func (l Layout) Check(shape Shape) error {
	if shape == ShapeFile && len(l.Entries) != 1 {
		return layoutError("a file-shaped location takes exactly one file, but the projection has %d", len(l.Entries))
	}
	byPath := make(map[string]Entry, len(l.Entries))
	paths := make([]string, 0, len(l.Entries))
	for _, e := range l.Entries {
		if _, dup := byPath[e.Path]; dup {
			return layoutError("the projection writes %q twice", e.Path)
		}
		byPath[e.Path] = e
		paths = append(paths, e.Path)
		if (e.Content == nil) == (e.CopyFrom == "") {
			return layoutError("the projection entry %q must either carry content or copy a file", e.Path)
		}
	}
	var shipped []string
	for _, pe := range format.CheckPaths(paths) {
		if !byPath[pe.Path].shipped() && !byPath[pe.Other].shipped() {
			return layoutError("the projection writes an unsafe path: %s", pe.Error())
		}
		shipped = append(shipped, pe.Error())
	}
	if len(shipped) > 0 {
		return &Error{
			Code:    format.CodePackageUnsafeFile,
			Message: fmt.Sprintf("the package ships %d file names that some supported system cannot create as themselves: %s", len(shipped), strings.Join(shipped, "; ")),
			Detail: []string{
				"Nothing was written.",
				"Every file name a package ships must be portable to Linux, macOS and Windows.",
			},
			Try: []string{"do not install this package; report it to its maintainers"},
		}
	}
	return nil
}

// shipped reports an entry that copies a file of the package unchanged to
// the same path: its name is the package's, not the adapter's.
func (e Entry) shipped() bool { return e.CopyFrom != "" && e.CopyFrom == e.Path }

// projection is a layout being built: the front matter, the files added
// by agent hooks, and the package it comes from.
type projection struct {
	pkg   *format.Package
	kind  format.Kind
	fm    map[string]any
	files map[string][]byte
}

// projectHook adds an agent's own content to a projection.
type projectHook func(p *projection) error

// neutralKeys returns the entrypoint keys of the Agent Skills
// specification that every skill projection carries over when the author
// wrote them.
func neutralKeys() []string { return []string{"compatibility", "allowed-tools", "metadata"} }

// keyOrder returns the fixed order of front-matter keys in every
// projection; keys not listed follow in byte order.
func keyOrder() []string {
	return []string{
		"name", "description", "license", "compatibility", "allowed-tools",
		"when_to_use", "argument-hint", "disable-model-invocation", "user-invocable",
		"model", "effort", "context", "agent", "hooks", "paths", "shell", "metadata",
	}
}

// LayoutFor implements Adapter: the projection of pkg for this agent alone.
func (a *tableAdapter) LayoutFor(pkg *format.Package) (Layout, error) {
	return LayoutForRoot(pkg, []Adapter{a})
}

// LayoutForRoot projects pkg for a root that every adapter in readers
// reads, such as .agents/skills, so that the one copy written there suits
// them all: the front matter is the union of what each reader projects
// (Codex's metadata.short-description and agents/openai.yaml are harmless
// to the others) and the files are those of the package. With one reader
// it equals that reader's LayoutFor. It is pure: it reads only pkg.FS.
//
// Adapters not built by this package can be combined only alone; a mix is
// ASK_LAYOUT_INVALID, as is a reader with no location for pkg's kind.
func LayoutForRoot(pkg *format.Package, readers []Adapter) (Layout, error) {
	if pkg == nil || pkg.Entrypoint == nil {
		return Layout{}, fmt.Errorf("agents: the package has no decoded entrypoint to project")
	}
	if len(readers) == 0 {
		return Layout{}, layoutError("no agent reads the root the package is projected for")
	}
	rows := make([]*agentRow, 0, len(readers))
	for _, r := range readers {
		t, ok := r.(*tableAdapter)
		if !ok {
			if len(readers) == 1 {
				return r.LayoutFor(pkg)
			}
			return Layout{}, layoutError("cannot merge the projection of %s with other agents'", r.ID())
		}
		if _, ok := t.row.kinds[pkg.Kind]; !ok {
			return Layout{}, layoutError("%s has no location for %s packages, so it has no projection for them", t.row.id, pkg.Kind)
		}
		rows = append(rows, &t.row)
	}
	p := &projection{pkg: pkg, kind: pkg.Kind, fm: map[string]any{}, files: map[string][]byte{}}
	p.base()
	for _, row := range rows {
		p.copyKeys(row.keys[pkg.Kind])
	}
	for _, row := range rows {
		if row.project != nil {
			if err := row.project(p); err != nil {
				return Layout{}, err
			}
		}
	}
	return p.layout(rows[0].kinds[pkg.Kind].shape)
}

// base fills the neutral front matter: for a skill its name, description,
// license and the Agent Skills keys the author wrote; for a command only
// its description, because the file name is the command name.
func (p *projection) base() {
	ep := p.pkg.Entrypoint
	desc := scalar(ep, "description")
	if strings.TrimSpace(desc) == "" && p.pkg.Manifest != nil {
		desc = p.pkg.Manifest.Description
	}
	if p.kind == format.KindCommand {
		if desc != "" {
			p.fm["description"] = desc
		}
		return
	}
	p.fm["name"] = p.pkg.Name()
	if desc != "" {
		p.fm["description"] = desc
	}
	license := scalar(ep, "license")
	if license == "" && p.pkg.Manifest != nil {
		license = p.pkg.Manifest.License
	}
	if license != "" {
		p.fm["license"] = license
	}
	p.copyKeys(neutralKeys())
}

// scalar returns the top-level entrypoint key as a string: the string
// itself, or a number or boolean as the author wrote it.
func scalar(ep *format.Entrypoint, key string) string {
	if s, ok := ep.String(key); ok {
		return s
	}
	return ep.Text(key)
}

// copyKeys carries the listed entrypoint keys over when the author wrote
// them, keeping values already projected.
func (p *projection) copyKeys(keys []string) {
	for _, k := range keys {
		if _, done := p.fm[k]; done {
			continue
		}
		if v, ok := p.pkg.Entrypoint.Fields[k]; ok {
			p.fm[k] = v
		}
	}
}

// hasFile reports whether the package ships the file at name.
func (p *projection) hasFile(name string) bool {
	_, ok := slices.BinarySearch(p.pkg.Files, name)
	return ok
}

// layout renders the projection: the rewritten entrypoint, the package's
// other files for a directory shape, and the files hooks added.
func (p *projection) layout(shape Shape) (Layout, error) {
	entry := p.pkg.EntrypointFile
	if entry == "" {
		entry = format.EntrypointFor(p.kind)
	}
	content, err := renderEntrypoint(p.fm, p.pkg.Entrypoint.Body)
	if err != nil {
		return Layout{}, err
	}
	l := Layout{FrontMatter: p.fm, Entries: []Entry{{Path: entry, Content: content}}}
	if shape == ShapeDirectory {
		for _, f := range p.pkg.Files {
			if f == entry {
				continue
			}
			if _, generated := p.files[f]; generated {
				continue
			}
			l.Entries = append(l.Entries, Entry{Path: f, CopyFrom: f})
		}
		for f, data := range p.files {
			l.Entries = append(l.Entries, Entry{Path: f, Content: data})
		}
	}
	slices.SortFunc(l.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	if err := l.Check(shape); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// renderEntrypoint writes front matter in the fixed key order between
// `---` lines, followed by the body bytes exactly as they were.
func renderEntrypoint(fm map[string]any, body []byte) ([]byte, error) {
	y, err := encodeOrdered(fm, keyOrder(), 0)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(y) + len(body) + 8)
	b.WriteString("---\n")
	b.Write(y)
	b.WriteString("---\n")
	b.Write(body)
	return b.Bytes(), nil
}

// encodeOrdered encodes m as a YAML mapping whose keys follow order, then
// the remaining keys in byte order. Nested values are encoded by yaml.v3,
// which sorts map keys. style, when not zero, is applied to every string
// scalar at the top level.
func encodeOrdered(m map[string]any, order []string, style yaml.Style) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(order, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var ordered []string
	for _, k := range order {
		if _, ok := m[k]; ok {
			ordered = append(ordered, k)
		}
	}
	ordered = append(ordered, keys...)
	if len(m) == 0 {
		return nil, nil
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range ordered {
		v, err := toNode(m[k])
		if err != nil {
			return nil, fmt.Errorf("agents: cannot encode front-matter key %q: %w", k, err)
		}
		if style != 0 && v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
			v.Style = style
		}
		root.Content = append(root.Content, strNode(k), v)
	}
	// yaml.v3's emitter costs kilobytes per document, and an install
	// renders one per package and agent root: what format writes itself
	// comes out byte for byte the same.
	out, err := format.EncodeYAML(nil, root)
	if err != nil {
		return nil, fmt.Errorf("agents: cannot encode front matter: %w", err)
	}
	return out, nil
}

// strNode returns a string scalar node.
func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// toNode converts a decoded front-matter value (string, bool, int64,
// float64, nil, []any or map[string]any, as format decodes them) into a
// YAML node, mapping keys in byte order. Building nodes directly is much
// cheaper than yaml.Node.Encode, which marshals and re-parses each value.
func toNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case string:
		return strNode(x), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}, nil
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}, nil
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}, nil
	case uint64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(x, 10)}, nil
	case float64:
		var n yaml.Node
		if err := n.Encode(x); err != nil {
			return nil, err
		}
		return &n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			c, err := toNode(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range sortedKeys(x) {
			c, err := toNode(x[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, strNode(k), c)
		}
		return n, nil
	}
	return nil, fmt.Errorf("unsupported value of type %T", v)
}

// titleCase turns a package name into a display name: "java-performance"
// becomes "Java Performance". It works on characters, not bytes, so a
// name that starts a word with a multi-byte letter stays valid UTF-8.
func titleCase(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

// maxShortDescription is the longest short description derived from a
// description, in characters: the upper end of the 25–64 characters Codex
// recommends for agents/openai.yaml.
const maxShortDescription = 64

// shortDescription derives a one-line blurb from a description: its first
// sentence, whitespace collapsed, without the final full stop, cut at a
// word boundary to at most maxShortDescription characters with an
// ellipsis when it had to be shortened.
func shortDescription(desc string) string {
	s := strings.Join(strings.Fields(desc), " ")
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			s = s[:i+1]
			break
		}
	}
	s = strings.TrimSuffix(s, ".")
	r := []rune(s)
	if len(r) <= maxShortDescription {
		return s
	}
	cut := maxShortDescription - 1
	for i := cut; i > maxShortDescription/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + "…"
}
