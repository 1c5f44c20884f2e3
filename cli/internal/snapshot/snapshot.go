// Package snapshot captures a package or a collection as a self-contained,
// versioned file: every file's bytes and digest, the package digest, and
// the contract a release promises (manifest fields, front-matter keys,
// links between the package's files). Verification, restore, observations
// and bump reports are built on it. It reads through fs.FS and never
// writes; the cli writes the encoded snapshot atomically.
package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// Schema is the value of a snapshot's "schema" field; a reader refuses
// any other.
const Schema = "agent-skills.snapshot/1"

// MaxSize is the largest encoded snapshot a reader accepts.
const MaxSize = 256 << 20

// CatalogFile is the collection catalog a snapshot records the digest of.
const CatalogFile = "skills-catalog.json"

// Error codes.
const (
	// CodeInvalid: a snapshot file is malformed or of another schema (exit 3).
	CodeInvalid = "ASK_SNAPSHOT_INVALID"
)

// Snapshot is a captured package or collection.
type Snapshot struct {
	Schema string `json:"schema"`
	// Kind is "package" (one package at the root) or "collection".
	Kind string `json:"kind"`
	// Catalog is, for a collection, the digest of its skills-catalog.json
	// bytes; nil when it has none or for a package.
	Catalog *CatalogDigest `json:"catalog,omitempty"`
	// Packages are sorted by Path; a package snapshot has one, at ".".
	Packages []Package `json:"packages"`
}

// CatalogDigest names the collection catalog's bytes.
type CatalogDigest struct {
	File   string `json:"file"`
	Digest string `json:"digest"`
}

// Package is one captured package.
type Package struct {
	// Path is the package folder relative to the captured root, "." for
	// the root itself.
	Path string `json:"path"`
	// Digest is the canonical package digest (format.Digest), the value a
	// registry index records as integrity.
	Digest   string   `json:"digest"`
	Contract Contract `json:"contract"`
	// Files are the package's file set, sorted by path.
	Files []File `json:"files"`
}

// File is one file of a package.
type File struct {
	Path string `json:"path"`
	// Digest is "sha256-" + base64 of the file's exact bytes (for
	// skill.yaml too: the package digest strips its integrity line, this
	// does not, so a restore can be checked byte for byte).
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
	// Content is the file's bytes (base64 in JSON).
	Content []byte `json:"content"`
}

// Contract is what a package version promises its users.
type Contract struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	// Entrypoint is the entrypoint file (SKILL.md, COMMAND.md, WORKFLOW.js).
	Entrypoint           string          `json:"entrypoint,omitempty"`
	Dependencies         []Dependency    `json:"dependencies"`
	OptionalDependencies []Dependency    `json:"optionalDependencies"`
	Suggests             []string        `json:"suggests"`
	Compatibility        []Compatibility `json:"compatibility"`
	Capabilities         []string        `json:"capabilities"`
	// ManifestKeys are the top-level keys skill.yaml sets, sorted; empty
	// for a bare skill.
	ManifestKeys []string `json:"manifestKeys"`
	// FrontMatterKeys are the top-level keys of the entrypoint's front
	// matter, sorted.
	FrontMatterKeys []string `json:"frontMatterKeys"`
	// Links are the relative links of the package's Markdown files that
	// point inside the package, sorted by From then Target.
	Links []Link `json:"links"`
}

// Dependency is a required or optional dependency and its range.
type Dependency struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Compatibility is one agent's compatibility entry.
type Compatibility struct {
	Agent      string `json:"agent"`
	MinVersion string `json:"minVersion,omitempty"`
}

// Link is a link from one package file to another.
type Link struct {
	From   string `json:"from"`
	Target string `json:"target"`
}

// Options tune a capture.
type Options struct {
	// Load are the package load options (limits); zero means defaults.
	Load format.LoadOptions
}

// CapturePackage captures the package at the root of fsys.
func CapturePackage(fsys fs.FS, opts Options) (*Snapshot, error) {
	p, err := capturePackage(fsys, ".", opts)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Schema: Schema, Kind: "package", Packages: []Package{p}}, nil
}

// CaptureCollection captures every package below the root of fsys (the
// packages validate.PackageDirs finds) and the catalog's digest. When the
// root is itself a package, its skills-catalog.json belongs to the
// collection, not to the package.
func CaptureCollection(fsys fs.FS, opts Options) (*Snapshot, error) {
	dirs, err := validate.PackageDirs(fsys)
	if err != nil {
		return nil, ioError("cannot list the collection", err)
	}
	s := &Snapshot{Schema: Schema, Kind: "collection", Packages: []Package{}}
	for _, dir := range dirs {
		p, err := capturePackage(fsys, dir, opts)
		if err != nil {
			return nil, err
		}
		s.Packages = append(s.Packages, p)
	}
	slices.SortFunc(s.Packages, func(a, b Package) int { return strings.Compare(a.Path, b.Path) })
	if b, err := fs.ReadFile(fsys, CatalogFile); err == nil {
		s.Catalog = &CatalogDigest{File: CatalogFile, Digest: format.BytesDigest(b)}
	} else if !isNotExist(err) {
		return nil, ioError("cannot read "+CatalogFile, err)
	}
	return s, nil
}

func capturePackage(fsys fs.FS, dir string, opts Options) (Package, error) {
	sub := fsys
	if dir != "." {
		var err error
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return Package{}, ioError("cannot open package "+dir, err)
		}
	}
	pkg, ds := format.Load(sub, opts.Load)
	if pkg == nil {
		return Package{}, loadError(dir, ds)
	}
	files := slices.Clone(pkg.Files)
	if dir == "." {
		// A collection rooted at a package: its catalog is not a package file.
		files = slices.DeleteFunc(files, func(f string) bool { return f == CatalogFile })
	}
	slices.Sort(files)
	digest, err := format.Digest(sub, files)
	if err != nil {
		return Package{}, ioError("cannot digest package "+dir, err)
	}
	p := Package{Path: dir, Digest: digest, Files: make([]File, 0, len(files)), Contract: contractOf(pkg)}
	for _, name := range files {
		b, err := fs.ReadFile(sub, name)
		if err != nil {
			return Package{}, ioError("cannot read "+path.Join(dir, name), err)
		}
		p.Files = append(p.Files, File{Path: name, Digest: format.BytesDigest(b), Size: int64(len(b)), Content: b})
		if strings.EqualFold(path.Ext(name), ".md") {
			p.Contract.Links = append(p.Contract.Links, linksOf(name, b, pkg)...)
		}
	}
	slices.SortFunc(p.Contract.Links, func(a, b Link) int {
		return cmpOr(strings.Compare(a.From, b.From), strings.Compare(a.Target, b.Target))
	})
	p.Contract.Links = slices.Compact(p.Contract.Links)
	return p, nil
}

// contractOf extracts the contract fields of pkg.
func contractOf(pkg *format.Package) Contract {
	c := Contract{Name: pkg.Name(), Kind: string(pkg.Kind), Version: pkg.Version(), Description: pkg.Description(),
		Entrypoint: pkg.EntrypointFile, Dependencies: []Dependency{}, OptionalDependencies: []Dependency{},
		Suggests: []string{}, Compatibility: []Compatibility{}, Capabilities: []string{},
		ManifestKeys: []string{}, FrontMatterKeys: []string{}, Links: []Link{}}
	if m := pkg.Manifest; m != nil {
		for _, d := range m.Dependencies {
			c.Dependencies = append(c.Dependencies, Dependency{Name: d.Name, Version: d.Version})
		}
		for _, d := range m.OptionalDependencies {
			c.OptionalDependencies = append(c.OptionalDependencies, Dependency{Name: d.Name, Version: d.Version})
		}
		c.Suggests = append(c.Suggests, m.Suggests...)
		for _, a := range m.Compatibility.Agents {
			c.Compatibility = append(c.Compatibility, Compatibility{Agent: a.ID, MinVersion: a.MinVersion})
		}
		c.Capabilities = append(c.Capabilities, m.Capabilities...)
		for _, k := range format.KnownManifestKeys() {
			if m.Has(k) {
				c.ManifestKeys = append(c.ManifestKeys, k)
			}
		}
		for _, k := range m.UnknownKeys {
			c.ManifestKeys = append(c.ManifestKeys, k.Name)
		}
	}
	if e := pkg.Entrypoint; e != nil {
		for _, k := range e.Keys {
			c.FrontMatterKeys = append(c.FrontMatterKeys, k.Name)
		}
	}
	slices.SortFunc(c.Dependencies, func(a, b Dependency) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(c.OptionalDependencies, func(a, b Dependency) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(c.Compatibility, func(a, b Compatibility) int { return strings.Compare(a.Agent, b.Agent) })
	for _, s := range []*[]string{&c.Suggests, &c.Capabilities, &c.ManifestKeys, &c.FrontMatterKeys} {
		slices.Sort(*s)
		*s = slices.Compact(*s)
	}
	return c
}

// linksOf returns the links of the Markdown file name that point to a
// path inside the package (whether or not it exists).
func linksOf(name string, b []byte, pkg *format.Package) []Link {
	body, line := b, 1
	if e := pkg.Entrypoint; e != nil && name == pkg.EntrypointFile {
		body, line = e.Body, e.BodyLine
	}
	var out []Link
	for _, l := range validate.Links(body, line, path.Dir(name)) {
		if l.Kind == validate.LinkRelative && l.Target != "." && l.Target != "" {
			out = append(out, Link{From: name, Target: l.Target})
		}
	}
	return out
}

// Encode returns the canonical bytes of s: indented JSON, keys in field
// order, a final newline.
func Encode(s *Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode parses a snapshot, refusing more than MaxSize bytes, unknown
// fields, another schema, and any path or digest a capture cannot have
// written. name is used in messages only.
func Decode(r io.Reader, name string) (*Snapshot, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, ioError("cannot read snapshot "+name, err)
	}
	if len(b) > MaxSize {
		return nil, invalid(name, fmt.Sprintf("it is larger than %d MiB", MaxSize>>20))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s Snapshot
	if err := dec.Decode(&s); err != nil {
		return nil, invalid(name, "it is not a snapshot: "+err.Error())
	}
	if dec.More() {
		return nil, invalid(name, "it holds more than one JSON value")
	}
	if s.Schema != Schema {
		return nil, invalid(name, fmt.Sprintf("its schema is %q; this agent-skills reads %q", s.Schema, Schema))
	}
	if err := s.check(); err != nil {
		return nil, invalid(name, err.Error())
	}
	return &s, nil
}

// check refuses what a capture never writes: an unknown kind, package
// or file paths that are not clean relative paths or repeat, contents
// that do not match their digest or size.
func (s *Snapshot) check() error {
	switch s.Kind {
	case "package":
		if len(s.Packages) != 1 || s.Packages[0].Path != "." {
			return fmt.Errorf("a package snapshot holds exactly one package, at \".\"")
		}
	case "collection":
	default:
		return fmt.Errorf("kind %q is neither package nor collection", s.Kind)
	}
	seen := map[string]bool{}
	for _, p := range s.Packages {
		if !fs.ValidPath(p.Path) || seen[p.Path] {
			return fmt.Errorf("package path %q is not a clean relative path, or repeats", p.Path)
		}
		seen[p.Path] = true
		files := map[string]bool{}
		for _, f := range p.Files {
			if !fs.ValidPath(f.Path) || f.Path == "." || files[f.Path] {
				return fmt.Errorf("package %s: file path %q is not a clean relative path, or repeats", p.Path, f.Path)
			}
			files[f.Path] = true
			if int64(len(f.Content)) != f.Size || format.BytesDigest(f.Content) != f.Digest {
				return fmt.Errorf("package %s: %s: its content does not match its recorded digest or size", p.Path, f.Path)
			}
		}
	}
	return nil
}

// FS returns the captured files of p as a read-only file system.
func (p *Package) FS() fs.FS {
	m := fstest.MapFS{}
	for _, f := range p.Files {
		m[f.Path] = &fstest.MapFile{Data: f.Content, Mode: 0o644}
	}
	return m
}

// File returns the captured file name of p, or nil.
func (p *Package) File(name string) *File {
	i, ok := slices.BinarySearchFunc(p.Files, name, func(f File, n string) int { return strings.Compare(f.Path, n) })
	if !ok {
		return nil
	}
	return &p.Files[i]
}

// Package returns the captured package at dir, or nil.
func (s *Snapshot) Package(dir string) *Package {
	for i := range s.Packages {
		if s.Packages[i].Path == dir {
			return &s.Packages[i]
		}
	}
	return nil
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func ioError(msg string, err error) error {
	return &askerr.Error{Code: askerr.CodeIO, Message: msg, Detail: []string{err.Error()}}
}

func invalid(name, why string) error {
	return &askerr.Error{Code: CodeInvalid, Message: fmt.Sprintf("snapshot %s cannot be used: %s", name, why),
		Try: []string{"capture it again with agent-skills snapshot capture"}}
}

func loadError(dir string, ds format.Diagnostics) error {
	e := &askerr.Error{Code: askerr.CodeValidationFailed, Message: "cannot load package " + dir,
		Try: []string{"agent-skills validate " + dir + " shows every problem"}}
	for _, d := range ds {
		if d.Severity == format.SeverityError {
			e.Detail = append(e.Detail, d.String())
		}
	}
	return e
}

// ObservationSchema is the value of an observation's "schema" field.
const ObservationSchema = "agent-skills.observation/1"

// Bounds of an observation.
const (
	// MaxEvidence is the largest source or check evidence attached.
	MaxEvidence = 1 << 20
	// MaxObservation is the largest encoded observation a reader accepts.
	MaxObservation = 64 << 20
)

// Observation is the portable inventory of a verified snapshot: the same
// packages, contracts and file digests without the files' bytes or any
// local path, and the caller's source and check evidence attached as
// given (each a JSON value, or absent). Bump reports compare two.
type Observation struct {
	Schema string `json:"schema"`
	// Snapshot is the digest of the snapshot's encoded bytes.
	Snapshot string         `json:"snapshot"`
	Kind     string         `json:"kind"`
	Catalog  *CatalogDigest `json:"catalog,omitempty"`
	Packages []Observed     `json:"packages"`
	// SourceEvidence and CheckEvidence are attached as given: where the
	// snapshot came from (a repository and commit, a registry version) and
	// what checks ran on it. They are not interpreted.
	SourceEvidence json.RawMessage `json:"sourceEvidence,omitempty"`
	CheckEvidence  json.RawMessage `json:"checkEvidence,omitempty"`
}

// Observed is a package of an observation.
type Observed struct {
	Path     string         `json:"path"`
	Digest   string         `json:"digest"`
	Contract Contract       `json:"contract"`
	Files    []ObservedFile `json:"files"`
}

// ObservedFile is a file of an observed package: no content.
type ObservedFile struct {
	Path   string `json:"path"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Observe returns the observation of s, whose encoded bytes are encoded
// (their digest names the snapshot). Evidence must be a JSON value of at
// most MaxEvidence bytes, or empty.
func (s *Snapshot) Observe(encoded []byte, source, check []byte) (*Observation, error) {
	o := &Observation{Schema: ObservationSchema, Snapshot: format.BytesDigest(encoded), Kind: s.Kind, Catalog: s.Catalog,
		Packages: make([]Observed, 0, len(s.Packages))}
	for _, ev := range []struct {
		name string
		in   []byte
		out  *json.RawMessage
	}{{"source evidence", source, &o.SourceEvidence}, {"check evidence", check, &o.CheckEvidence}} {
		if len(ev.in) == 0 {
			continue
		}
		if len(ev.in) > MaxEvidence {
			return nil, invalidEvidence(ev.name, fmt.Sprintf("it is larger than %d KiB", MaxEvidence>>10))
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, ev.in); err != nil {
			return nil, invalidEvidence(ev.name, "it is not one JSON value: "+err.Error())
		}
		*ev.out = compact.Bytes()
	}
	for _, p := range s.Packages {
		op := Observed{Path: p.Path, Digest: p.Digest, Contract: p.Contract, Files: make([]ObservedFile, 0, len(p.Files))}
		for _, f := range p.Files {
			op.Files = append(op.Files, ObservedFile{Path: f.Path, Digest: f.Digest, Size: f.Size})
		}
		o.Packages = append(o.Packages, op)
	}
	return o, nil
}

// EncodeObservation returns the canonical bytes of o.
func EncodeObservation(o *Observation) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DecodeObservation parses an observation with the same care as Decode.
func DecodeObservation(r io.Reader, name string) (*Observation, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxObservation+1))
	if err != nil {
		return nil, ioError("cannot read observation "+name, err)
	}
	if len(b) > MaxObservation {
		return nil, invalid(name, fmt.Sprintf("it is larger than %d MiB", MaxObservation>>20))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var o Observation
	if err := dec.Decode(&o); err != nil {
		return nil, invalid(name, "it is not an observation: "+err.Error())
	}
	if dec.More() {
		return nil, invalid(name, "it holds more than one JSON value")
	}
	if o.Schema != ObservationSchema {
		return nil, invalid(name, fmt.Sprintf("its schema is %q; this agent-skills reads %q", o.Schema, ObservationSchema))
	}
	seen := map[string]bool{}
	for _, p := range o.Packages {
		if !fs.ValidPath(p.Path) || seen[p.Path] {
			return nil, invalid(name, fmt.Sprintf("package path %q is not a clean relative path, or repeats", p.Path))
		}
		seen[p.Path] = true
		files := map[string]bool{}
		for _, f := range p.Files {
			if !fs.ValidPath(f.Path) || f.Path == "." || files[f.Path] {
				return nil, invalid(name, fmt.Sprintf("package %s: file path %q is not a clean relative path, or repeats", p.Path, f.Path))
			}
			files[f.Path] = true
		}
	}
	return &o, nil
}

func invalidEvidence(what, why string) error {
	return &askerr.Error{Code: CodeInvalid, Message: fmt.Sprintf("the %s cannot be attached: %s", what, why),
		Try: []string{"pass a file holding one JSON value, e.g. {\"repository\": \"…\", \"commit\": \"…\"}"}}
}
