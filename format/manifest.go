package format

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ManifestFile is the file name of a package manifest.
const ManifestFile = "skill.yaml"

// SupportedSchemaVersion is the newest manifest schemaVersion this package
// understands.
const SupportedSchemaVersion = 1

// Manifest is a decoded skill.yaml (DESIGN §3.3). Strings are kept exactly
// as written; DecodeManifest checks only shapes and types, and leaves the
// rules (name grammar, semver, SPDX, path safety, …) to package validate.
type Manifest struct {
	// File is the name the manifest was decoded under, used in diagnostics.
	File string
	// SchemaVersion is the package format version; 1 when absent.
	SchemaVersion int
	// Name is the package name.
	Name string
	// Kind is the package kind as written; KindSkill when absent. It may
	// hold an unknown kind, which validate rejects.
	Kind Kind
	// Version is the package version exactly as written, even when YAML
	// would read it as a number (1.0 stays "1.0").
	Version string
	// Description says what the package covers and when to use it.
	Description string
	// License is an SPDX licence expression.
	License string
	// Keywords are search terms.
	Keywords []string
	// Authors are the people or organisations behind the package.
	Authors []Person
	// Homepage is a URL.
	Homepage string
	// Repository says where the source lives; nil when absent.
	Repository *Repository
	// Compatibility lists the agents the package supports; empty means
	// every agent.
	Compatibility Compatibility
	// Files lists what ships, as written; directories end with "/" by
	// convention and are included recursively.
	Files []string
	// Dependencies are required packages with version ranges.
	Dependencies []Dependency
	// OptionalDependencies are packages installed when they resolve.
	OptionalDependencies []Dependency
	// Suggests names companion packages, without version ranges.
	Suggests []string
	// Capabilities are informational capability tags.
	Capabilities []string
	// Integrity is the package digest as written ("sha256-…").
	Integrity string
	// Signatures is reserved for signing; accepted and kept raw.
	Signatures []any
	// AgentOverrides maps an agent id to its override keys and raw values.
	AgentOverrides map[string]map[string]any
	// UnknownKeys lists top-level keys this version does not know, in
	// source order. DecodeManifest does not report them; validate decides
	// whether they are a warning or an error.
	UnknownKeys []Key
	// UnknownNested lists unknown keys inside known mappings (authors,
	// repository, compatibility, dependencies), named by field path such
	// as "repository.branch", in source order. Like UnknownKeys they are not
	// reported by DecodeManifest.
	UnknownNested []Key

	positions map[string]Pos
	keys      map[string]Pos
}

// Key is a mapping key and where it is written.
type Key struct {
	// Name is the key, or the field path of a nested key.
	Name string
	// Pos is the position of the key itself.
	Pos Pos
}

// Repository says where a package's source lives.
type Repository struct {
	// Type is the version-control system, usually "git"; empty in the
	// short form.
	Type string
	// URL is the repository URL.
	URL string
	// Directory is the package folder inside the repository.
	Directory string
}

// Compatibility lists the agents a package is known to work with.
type Compatibility struct {
	// Agents lists the supported agents, in source order.
	Agents []AgentCompat
}

// AgentCompat is one entry of compatibility.agents.
type AgentCompat struct {
	// ID is the agent id, such as "claude-code" or "codex".
	ID string
	// MinVersion is an optional version constraint on the agent.
	MinVersion string
}

// Dependency is one entry of dependencies or optionalDependencies.
type Dependency struct {
	// Name is the package depended on.
	Name string
	// Version is the semver range as written.
	Version string
}

// Pos returns the position of the value at a field path such as "name",
// "files[2]", "dependencies[0].version", "authors[1].email" or
// "agentOverrides.codex.interface". It returns the zero Pos when the path
// is not in the manifest.
func (m *Manifest) Pos(path string) Pos { return m.positions[path] }

// KeyPos returns the position of the mapping key that introduces the value
// at path ("name" points at `name:`), or the zero Pos when the path is not
// a mapping entry in the manifest.
func (m *Manifest) KeyPos(path string) Pos { return m.keys[path] }

// Has reports whether the manifest writes a value at path, so that an
// absent field can be told apart from an empty one.
func (m *Manifest) Has(path string) bool {
	_, ok := m.positions[path]
	return ok
}

// KnownManifestKeys returns the top-level skill.yaml keys this version
// understands, in DESIGN §3.3 order.
func KnownManifestKeys() []string {
	return []string{
		"schemaVersion", "name", "kind", "version", "description", "license",
		"keywords", "authors", "homepage", "repository", "compatibility", "files",
		"dependencies", "optionalDependencies", "suggests", "capabilities",
		"integrity", "signatures", "agentOverrides",
	}
}

// DecodeManifest decodes a skill.yaml. file names it in diagnostics.
//
// It reports every shape or type problem with its line and column
// (ASK_MANIFEST_INVALID): YAML syntax errors, an empty file, several
// documents, a root that is not a mapping, duplicate keys, aliases and
// merge keys, nesting deeper than 64 levels, input over 1 MiB and values of
// the wrong type. A schemaVersion above SupportedSchemaVersion is reported
// as ASK_MANIFEST_SCHEMA_UNSUPPORTED, and then the type problems of the
// newer schema are not reported. A non-nil Manifest is returned whenever the
// root is a mapping, even when there are diagnostics, so that callers can
// report further problems; values of the wrong type are left zero.
//
// A string field accepts any non-null scalar and keeps it as written; a
// null value (`description:`) is treated as empty but present (see Has).
func DecodeManifest(data []byte, file string) (*Manifest, Diagnostics) {
	return decodeManifest(data, file, DefaultMaxManifestSize)
}

func decodeManifest(data []byte, file string, limit int64) (*Manifest, Diagnostics) {
	src := yamlSource{file: file, what: "manifest", code: CodeManifestInvalid,
		fix: "fix the YAML syntax at the reported line"}
	if int64(len(data)) > limit {
		return nil, Diagnostics{tooLarge(file, "the manifest", limit, "bytes")}
	}
	root, diags := parseYAML(data, src)
	if root == nil {
		if len(diags) == 0 {
			diags = append(diags, src.errorAt(Pos{}, "the manifest is empty",
				"write at least `name`, `version` and `description`"))
		}
		return nil, diags
	}
	if root.Kind != yaml.MappingNode {
		diags = append(diags, src.errorAt(src.pos(root),
			fmt.Sprintf("the manifest must be a mapping of keys to values, found a %s", kindName(root)),
			"write the manifest as `key: value` lines"))
		return nil, diags
	}
	d := &manifestDecoder{src: src, m: &Manifest{
		File:          file,
		SchemaVersion: 1,
		Kind:          KindSkill,
		positions:     map[string]Pos{},
		keys:          map[string]Pos{},
	}}
	d.decode(root)
	if d.schemaDiag != nil {
		// A newer schema may legitimately change shapes; only say "upgrade".
		return d.m, append(diags, *d.schemaDiag)
	}
	return d.m, append(diags, d.diags...)
}

// manifestDecoder fills a Manifest from a checked node tree.
type manifestDecoder struct {
	src        yamlSource
	m          *Manifest
	diags      Diagnostics
	schemaDiag *Diagnostic
}

func (d *manifestDecoder) typeError(path string, n *yaml.Node, want string) {
	if n.Kind == yaml.AliasNode {
		return // already reported by checkTree
	}
	d.diags = append(d.diags, d.src.errorAt(d.src.pos(n),
		fmt.Sprintf("%s must be %s, found a %s", path, want, kindName(n)),
		fmt.Sprintf("write %s as %s", path, want)))
}

// mapping calls fn for each entry of a mapping node, recording positions.
func (d *manifestDecoder) mapping(path string, n *yaml.Node, fn func(key string, k, v *yaml.Node)) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := keyPath(path, k.Value)
		d.m.keys[p] = d.src.pos(k)
		d.m.positions[p] = d.src.pos(v)
		fn(k.Value, k, v)
	}
}

func (d *manifestDecoder) unknownNested(path string, k *yaml.Node) {
	d.m.UnknownNested = append(d.m.UnknownNested, Key{Name: path, Pos: d.src.pos(k)})
}

func (d *manifestDecoder) decode(root *yaml.Node) {
	m := d.m
	d.mapping("", root, func(key string, k, v *yaml.Node) {
		switch key {
		case "schemaVersion":
			d.schemaVersion(v)
		case "name":
			m.Name = d.str(key, v)
		case "kind":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				break // absent kind means skill
			}
			m.Kind = Kind(d.str(key, v))
		case "version":
			m.Version = d.str(key, v)
		case "description":
			m.Description = d.str(key, v)
		case "license":
			m.License = d.str(key, v)
		case "keywords":
			m.Keywords = d.strList(key, v)
		case "authors":
			m.Authors = d.authors(key, v)
		case "homepage":
			m.Homepage = d.str(key, v)
		case "repository":
			m.Repository = d.repository(key, v)
		case "compatibility":
			m.Compatibility = d.compatibility(key, v)
		case "files":
			m.Files = d.strList(key, v)
		case "dependencies":
			m.Dependencies = d.dependencies(key, v)
		case "optionalDependencies":
			m.OptionalDependencies = d.dependencies(key, v)
		case "suggests":
			m.Suggests = d.strList(key, v)
		case "capabilities":
			m.Capabilities = d.strList(key, v)
		case "integrity":
			m.Integrity = d.str(key, v)
		case "signatures":
			m.Signatures = d.signatures(key, v)
		case "agentOverrides":
			m.AgentOverrides = d.agentOverrides(key, v)
		default:
			m.UnknownKeys = append(m.UnknownKeys, Key{Name: key, Pos: d.src.pos(k)})
			d.src.recordPositions(m.positions, key, v)
		}
	})
}

func (d *manifestDecoder) schemaVersion(v *yaml.Node) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
		d.typeError("schemaVersion", v, "an integer")
		return
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
	if err != nil || n < 1 {
		d.diags = append(d.diags, d.src.errorAt(d.src.pos(v),
			fmt.Sprintf("schemaVersion must be a positive integer, found %s", v.Value),
			"write `schemaVersion: 1`"))
		return
	}
	if n > SupportedSchemaVersion {
		d.schemaDiag = &Diagnostic{
			File: d.src.file, Pos: d.src.pos(v), Severity: SeverityError,
			Code: CodeManifestSchemaUnsupported,
			Message: fmt.Sprintf("schemaVersion %d is newer than this agent-skills understands (%d); this package needs a newer agent-skills",
				n, SupportedSchemaVersion),
			Fix: "upgrade the CLI (agent-skills --version shows the installed one)",
		}
		d.m.SchemaVersion = int(min(n, 1<<30))
		return
	}
	d.m.SchemaVersion = int(n)
}

// str reads a string-valued field: any non-null scalar, kept as written.
func (d *manifestDecoder) str(path string, v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode {
		d.typeError(path, v, "a string")
		return ""
	}
	if v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

// strList reads a list of strings; null means an empty list.
func (d *manifestDecoder) strList(path string, v *yaml.Node) []string {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		d.typeError(path, v, "a list of strings")
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, c := range v.Content {
		p := indexPath(path, i)
		d.m.positions[p] = d.src.pos(c)
		if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
			d.typeError(p, c, "a string")
			continue
		}
		out = append(out, c.Value)
	}
	return out
}

func isNull(v *yaml.Node) bool { return v.Kind == yaml.ScalarNode && v.Tag == "!!null" }

// object reads a mapping with a fixed set of string-valued keys. Unknown
// keys are recorded in UnknownNested.
func (d *manifestDecoder) object(path string, v *yaml.Node, fields map[string]*string) {
	d.mapping(path, v, func(key string, k, val *yaml.Node) {
		p := keyPath(path, key)
		if dst, ok := fields[key]; ok {
			*dst = d.str(p, val)
			return
		}
		d.unknownNested(p, k)
		d.src.recordPositions(d.m.positions, p, val)
	})
}

func (d *manifestDecoder) authors(path string, v *yaml.Node) []Person {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		d.typeError(path, v, `a list of authors ("Name <email> (url)" or {name, email, url})`)
		return nil
	}
	out := make([]Person, 0, len(v.Content))
	for i, c := range v.Content {
		p := indexPath(path, i)
		d.m.positions[p] = d.src.pos(c)
		switch {
		case c.Kind == yaml.ScalarNode && c.Tag != "!!null":
			out = append(out, ParsePerson(c.Value))
		case c.Kind == yaml.MappingNode:
			var a Person
			d.object(p, c, map[string]*string{"name": &a.Name, "email": &a.Email, "url": &a.URL})
			out = append(out, a)
		default:
			d.typeError(p, c, `an author ("Name <email> (url)" or {name, email, url})`)
		}
	}
	return out
}

func (d *manifestDecoder) repository(path string, v *yaml.Node) *Repository {
	switch {
	case isNull(v):
		return nil
	case v.Kind == yaml.ScalarNode:
		return &Repository{URL: v.Value}
	case v.Kind == yaml.MappingNode:
		r := &Repository{}
		d.object(path, v, map[string]*string{"type": &r.Type, "url": &r.URL, "directory": &r.Directory})
		return r
	}
	d.typeError(path, v, "a URL or a mapping {type, url, directory}")
	return nil
}

func (d *manifestDecoder) compatibility(path string, v *yaml.Node) Compatibility {
	var c Compatibility
	if isNull(v) {
		return c
	}
	if v.Kind != yaml.MappingNode {
		d.typeError(path, v, "a mapping with an `agents` list")
		return c
	}
	d.mapping(path, v, func(key string, k, val *yaml.Node) {
		p := keyPath(path, key)
		if key != "agents" {
			d.unknownNested(p, k)
			d.src.recordPositions(d.m.positions, p, val)
			return
		}
		if isNull(val) {
			return
		}
		if val.Kind != yaml.SequenceNode {
			d.typeError(p, val, "a list of {id, minVersion}")
			return
		}
		for i, e := range val.Content {
			ep := indexPath(p, i)
			d.m.positions[ep] = d.src.pos(e)
			switch {
			case e.Kind == yaml.ScalarNode && e.Tag != "!!null":
				c.Agents = append(c.Agents, AgentCompat{ID: e.Value})
			case e.Kind == yaml.MappingNode:
				var a AgentCompat
				d.object(ep, e, map[string]*string{"id": &a.ID, "minVersion": &a.MinVersion})
				c.Agents = append(c.Agents, a)
			default:
				d.typeError(ep, e, "an agent {id, minVersion}")
			}
		}
	})
	return c
}

func (d *manifestDecoder) dependencies(path string, v *yaml.Node) []Dependency {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		d.typeError(path, v, "a list of {name, version}")
		return nil
	}
	out := make([]Dependency, 0, len(v.Content))
	for i, c := range v.Content {
		p := indexPath(path, i)
		d.m.positions[p] = d.src.pos(c)
		if c.Kind != yaml.MappingNode {
			d.typeError(p, c, "a mapping {name, version}")
			continue
		}
		var dep Dependency
		d.object(p, c, map[string]*string{"name": &dep.Name, "version": &dep.Version})
		out = append(out, dep)
	}
	return out
}

func (d *manifestDecoder) signatures(path string, v *yaml.Node) []any {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		d.typeError(path, v, "a list")
		return nil
	}
	d.src.recordPositions(d.m.positions, path, v)
	out, _ := nodeValue(v).([]any)
	return out
}

func (d *manifestDecoder) agentOverrides(path string, v *yaml.Node) map[string]map[string]any {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		d.typeError(path, v, "a mapping of agent ids to override mappings")
		return nil
	}
	out := make(map[string]map[string]any, len(v.Content)/2)
	d.mapping(path, v, func(agent string, _, val *yaml.Node) {
		p := keyPath(path, agent)
		if isNull(val) {
			out[agent] = map[string]any{}
			return
		}
		if val.Kind != yaml.MappingNode {
			d.typeError(p, val, "a mapping of override keys to values")
			return
		}
		d.src.recordPositions(d.m.positions, p, val)
		for i := 0; i+1 < len(val.Content); i += 2 {
			d.m.keys[keyPath(p, val.Content[i].Value)] = d.src.pos(val.Content[i])
		}
		out[agent], _ = nodeValue(val).(map[string]any)
	})
	return out
}
