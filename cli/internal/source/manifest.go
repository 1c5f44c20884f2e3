package source

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// synthHeader opens every synthesised manifest, so that a reader of the
// installed folder knows where skill.yaml came from.
const synthHeader = "# Synthesised by agent-skills from SKILL.md: the source ships no skill.yaml.\n"

// PseudoVersion returns the version of a commit that is not a semver tag,
// in the form Go uses for untagged commits:
// 0.0.0-<yyyymmddhhmmss of the commit time, UTC>-<first 12 characters of
// the SHA>. It sorts by commit time and is a valid strict semver
// pre-release.
func PseudoVersion(t time.Time, commit string) string {
	sha := commit
	if len(sha) > 12 {
		sha = sha[:12]
	}
	return "0.0.0-" + t.UTC().Format("20060102150405") + "-" + sha
}

// contentVersion returns the version of a bare skill from a folder or an
// archive, which have no commit: 0.0.0-<kind>-<first 12 hex digits of a
// SHA-256 over its file digests>.
// dg digests the files (a tree's, reused across its skills).
func contentVersion(kind Kind, fsys fs.FS, files []string, dg *format.Digester) (string, error) {
	d, err := digestFiles(fsys, files, dg)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(d))
	return "0.0.0-" + string(kind) + "-" + hex.EncodeToString(sum[:])[:12], nil
}

// tagVersion returns the version a semver tag names ("v1.2.3" or "1.2.3"),
// or "".
func tagVersion(ref string) string {
	v := strings.TrimPrefix(ref, "v")
	if _, err := semver.StrictNewVersion(v); err != nil {
		return ""
	}
	return v
}

// bareSkill is what synthesis reads from a bare skill's SKILL.md.
type bareSkill struct {
	name, description, license, version string
	files                               []string // the top-level entries, folders with "/"
}

// readBare reads the front matter of SKILL.md in fsys and lists the
// folder's top-level entries. fallback names the skill when the front
// matter has no name (validation then reports the missing name).
func readBare(fsys fs.FS, fallback string) (bareSkill, error) {
	return readBareFrom(fsys, fallback, nil)
}

// readBareFrom is readBare with SKILL.md already decoded (e, from the
// format.Load of the same bytes) when e is not nil: it is not read and
// decoded again.
func readBareFrom(fsys fs.FS, fallback string, e *format.Entrypoint) (bareSkill, error) {
	b := bareSkill{name: fallback}
	if err := oversizedEntrypoint(fsys, ""); err != nil {
		return b, err // ASK_PACKAGE_TOO_LARGE, not an uncoded read failure
	}
	if e == nil {
		data, err := readCapped(fsys, "SKILL.md", format.DefaultMaxEntrypointSize)
		if err != nil {
			return b, err
		}
		e, _ = format.DecodeEntrypoint(data, "SKILL.md", format.KindSkill)
	}
	if e != nil {
		if s, ok := e.String("name"); ok && s != "" {
			b.name = s
		}
		if s, ok := e.String("description"); ok {
			b.description = strings.TrimSpace(s)
		}
		if s, ok := e.String("license"); ok && validate.CheckLicense(s) == nil && shipsLicense(fsys, s) {
			b.license = s // a free-text licence stays in SKILL.md only
		}
		if s, ok := e.String("version"); ok && validate.CheckVersion(s) == nil {
			b.version = s
		}
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return b, err
	}
	for _, e := range ents {
		switch n := e.Name(); {
		case n == ".git" || n == "node_modules" || n == ".agent-skills" || n == ".DS_Store" || n == format.ManifestFile:
		case e.IsDir():
			b.files = append(b.files, n+"/")
		default:
			b.files = append(b.files, n)
		}
	}
	b.files = append(b.files, format.ManifestFile)
	return b, nil
}

// shipsLicense reports whether the file a "SEE LICENSE IN <file>" licence
// names is a regular file of the skill, as validation will require; any
// other licence needs no file.
func shipsLicense(fsys fs.FS, license string) bool {
	f := validate.LicenseFile(license)
	if f == "" {
		return true
	}
	info, err := fs.Lstat(fsys, f)
	return err == nil && info.Mode().IsRegular()
}

// synthManifest returns the bytes of the skill.yaml of a bare skill at
// version. The bytes depend only on the arguments: the same skill at the
// same version always gives the same manifest, hence the same integrity.
func synthManifest(b bareSkill, version string) ([]byte, error) {
	m := synthNode(b, version)
	// The bytes yaml.v3 writes, without its emitter's cost when format
	// can write them itself.
	return format.EncodeYAML([]byte(synthHeader), m)
}

// synthNode is the mapping of synthManifest.
func synthNode(b bareSkill, version string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
	str := func(s string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: "!!str"}
		if strings.ContainsAny(s, "\n") {
			n.Style = yaml.LiteralStyle
		}
		return n
	}
	add("schemaVersion", &yaml.Node{Kind: yaml.ScalarNode, Value: "1", Tag: "!!int"})
	add("name", str(b.name))
	add("kind", str(string(format.KindSkill)))
	add("version", str(version))
	if b.description != "" {
		add("description", str(b.description))
	}
	if b.license != "" {
		add("license", str(b.license))
	}
	files := &yaml.Node{Kind: yaml.SequenceNode}
	sorted := slices.Clone(b.files)
	slices.Sort(sorted)
	for _, f := range sorted {
		files.Content = append(files.Content, str(f))
	}
	add("files", files)
	return m
}
