package registry

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Masterminds/semver/v3"
	"github.com/agent-skills/agent-skills/format"
)

// IndexSchemaVersion is the newest index schema this package reads.
const IndexSchemaVersion = 1

// IndexLimits bounds what DecodeIndex accepts from an untrusted registry.
type IndexLimits struct {
	// MaxBytes caps the size of the index document.
	MaxBytes int
	// MaxSkills caps the number of skills.
	MaxSkills int
	// MaxVersions caps the number of versions over all skills.
	MaxVersions int
	// MaxVersionsPerSkill caps the number of versions of one skill.
	MaxVersionsPerSkill int
	// MaxKeywords caps the keywords of one skill.
	MaxKeywords int
	// MaxStringBytes caps any one string value, such as a description.
	MaxStringBytes int
}

// DefaultIndexLimits returns the limits DecodeIndex applies: 64 MiB,
// 200,000 skills, 1,000,000 versions in all, 10,000 versions per skill,
// 100 keywords per skill and 16 KiB per string.
func DefaultIndexLimits() IndexLimits {
	return IndexLimits{
		MaxBytes:            64 << 20,
		MaxSkills:           200_000,
		MaxVersions:         1_000_000,
		MaxVersionsPerSkill: 10_000,
		MaxKeywords:         100,
		MaxStringBytes:      16 << 10,
	}
}

// Index is a registry's index document (DESIGN §4.1): every skill the
// registry holds and every published version of each. The same schema is
// read from registry/skills.yaml (git and local registries) and from
// index.json (HTTP registries).
type Index struct {
	// SchemaVersion is the index format version; missing means 1.
	SchemaVersion int `json:"schemaVersion" yaml:"schemaVersion"`
	// Name is the registry's own name for itself; informational.
	Name string `json:"name,omitempty" yaml:"name,omitempty"`
	// UpdatedAt is an RFC 3339 time stamp; informational.
	UpdatedAt string `json:"updatedAt,omitempty" yaml:"updatedAt,omitempty"`
	// Skills lists the skills in document order.
	Skills []*Skill `json:"skills" yaml:"skills"`

	byName map[string]*Skill
	search struct {
		once sync.Once
		rows []searchRow
	}
}

// Skill is one skill of an index with its published versions.
type Skill struct {
	// Name is the skill's name, unique within the index.
	Name string `json:"name" yaml:"name"`
	// Description is the skill's routing description, used by search.
	Description string `json:"description,omitempty" yaml:"description,omitempty"`
	// Keywords are search terms.
	Keywords []string `json:"keywords,omitempty" yaml:"keywords,omitempty,flow"`
	// Latest is the version installed when none is asked for. When the
	// document omits it, DecodeIndex sets it to the newest non-deprecated
	// release (a prerelease only when no release exists); it stays empty
	// when every version is deprecated.
	Latest string `json:"latest,omitempty" yaml:"latest,omitempty"`
	// Versions lists the published versions in document order.
	Versions []*Version `json:"versions" yaml:"versions"`

	pos pos
}

// Version is one published version of a skill. Exactly one of Path,
// Tarball and Manifest (an OCI registry's) is set.
type Version struct {
	// Version is a strict semantic version.
	Version string `json:"version" yaml:"version"`
	// Path is the package directory relative to the registry root.
	Path string `json:"path,omitempty" yaml:"path,omitempty"`
	// Tarball is a .tar.gz URL or a path relative to the index.
	Tarball string `json:"tarball,omitempty" yaml:"tarball,omitempty"`
	// Manifest is the digest ("sha256:<hex>") of the OCI image manifest
	// of the version, in an OCI registry's index; the version is pulled by
	// it, never by its tag.
	Manifest string `json:"manifest,omitempty" yaml:"manifest,omitempty"`
	// Integrity is the canonical digest, "sha256-" + base64 of 32 bytes.
	Integrity string `json:"integrity" yaml:"integrity"`
	// PublishedAt is an RFC 3339 time stamp; informational.
	PublishedAt string `json:"publishedAt,omitempty" yaml:"publishedAt,omitempty"`
	// Deprecated excludes the version from latest and range resolution
	// while keeping it installable for lock files.
	Deprecated bool `json:"deprecated,omitempty" yaml:"deprecated,omitempty"`
	// DeprecationReason says why, and what to use instead.
	DeprecationReason string `json:"deprecationReason,omitempty" yaml:"deprecationReason,omitempty"`
	// Signatures are SSH signatures (the SSHSIG blob in base64, one line
	// each) over the version's package statement (see
	// PackageStatement), verified when the registry has trusted signers.
	Signatures []string `json:"signatures,omitempty" yaml:"signatures,omitempty"`

	sv  *semver.Version
	pos pos
}

// pos is a 1-based line and column; zero when unknown (JSON input).
type pos struct{ line, col int32 }

// Skill returns the skill called name. Lookups use a map built once when
// the index is decoded.
func (x *Index) Skill(name string) (*Skill, bool) {
	if x.byName == nil {
		x.buildMap()
	}
	s, ok := x.byName[name]
	return s, ok
}

// buildMap indexes the skills by name.
func (x *Index) buildMap() {
	x.byName = make(map[string]*Skill, len(x.Skills))
	for _, s := range x.Skills {
		if _, dup := x.byName[s.Name]; !dup {
			x.byName[s.Name] = s
		}
	}
}

// Version returns the entry of version v.
func (s *Skill) Version(v string) (*Version, bool) {
	for _, e := range s.Versions {
		if e.Version == v {
			return e, true
		}
	}
	return nil, false
}

// Sorted returns the versions newest first by semantic-version order.
func (s *Skill) Sorted() []*Version {
	out := append([]*Version(nil), s.Versions...)
	sortVersionsDesc(out)
	return out
}

// Semver returns the parsed version, or nil when the string is not strict
// semver (which DecodeIndex never lets through). It never modifies v, so
// a loaded index is safe for concurrent readers.
func (v *Version) Semver() *semver.Version {
	if v.sv != nil {
		return v.sv
	}
	sv, _ := semver.StrictNewVersion(v.Version)
	return sv
}

// DecodeIndex parses and validates an index document. data is JSON when
// file ends in ".json" or the first non-blank byte is '{', YAML otherwise;
// file is used only in messages. Every problem is reported, each with its
// line (YAML) and field path, in one ASK_REGISTRY_INVALID_INDEX error.
// Unknown keys are ignored so that newer registries stay readable.
func DecodeIndex(data []byte, file string) (*Index, error) {
	return DecodeIndexLimits(data, file, DefaultIndexLimits())
}

// DecodeIndexLimits is DecodeIndex with explicit limits.
func DecodeIndexLimits(data []byte, file string, lim IndexLimits) (*Index, error) {
	if len(data) > lim.MaxBytes {
		return nil, tooLarge(file, len(data), lim)
	}
	if isJSON(data, file) {
		idx, errs := decodeIndexJSON(data)
		return finishIndex(idx, errs, file, lim)
	}
	// The copy is where the decoded strings live.
	return decodeIndexText(string(data), file, lim)
}

// decodeIndexText is DecodeIndexLimits for a document held as a string,
// which the decoded index's strings then share.
func decodeIndexText(text, file string, lim IndexLimits) (*Index, error) {
	if len(text) > lim.MaxBytes {
		return nil, tooLarge(file, len(text), lim)
	}
	if isJSON(text, file) {
		idx, errs := decodeIndexJSON([]byte(text))
		return finishIndex(idx, errs, file, lim)
	}
	// The fast path declines whatever it does not fully recognise, and
	// the full decoder then reports every problem with its position
	// (index_fast.go).
	idx, ok := fastIndexYAML(text, lim)
	if ok {
		return finishIndex(idx, nil, file, lim)
	}
	idx, errs := decodeIndexYAML([]byte(text), lim)
	return finishIndex(idx, errs, file, lim)
}

// tooLarge is the error for a document over the size limit.
func tooLarge(file string, n int, lim IndexLimits) error {
	return invalidIndex(file, []string{fmt.Sprintf("index is %d bytes; the limit is %d", n, lim.MaxBytes)})
}

// finishIndex validates a decoded index and reports every problem.
func finishIndex(idx *Index, errs problems, file string, lim IndexLimits) (*Index, error) {
	if idx != nil && len(errs) == 0 {
		checkIndex(idx, lim, &errs)
	}
	if len(errs) > 0 {
		return nil, invalidIndex(file, errs.render(file))
	}
	idx.buildMap()
	return idx, nil
}

// isJSON decides whether an index document is JSON: by its file name, or
// by a "{" as its first byte other than blanks and a byte-order mark.
func isJSON[T string | []byte](data T, file string) bool {
	if strings.HasSuffix(file, ".json") {
		return true
	}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		case 0xef:
			if i+2 < len(data) && data[i+1] == 0xbb && data[i+2] == 0xbf {
				i += 2
				continue
			}
		}
		return false
	}
	return false
}

// decodeIndexJSON decodes with encoding/json; positions come from byte
// offsets of syntax and type errors only.
func decodeIndexJSON(data []byte) (*Index, problems) {
	var idx Index
	if err := json.Unmarshal(data, &idx); err != nil {
		var off int64
		msg := err.Error()
		switch e := err.(type) {
		case *json.SyntaxError:
			off = e.Offset
		case *json.UnmarshalTypeError:
			off = e.Offset
			msg = fmt.Sprintf("%s: expected %s, found JSON %s", e.Field, e.Type, e.Value)
		}
		line, col := offsetPos(data, max(off-1, 0)) // offsets count the byte read
		return nil, problems{{pos: pos{int32(line), int32(col)}, msg: msg}}
	}
	for i, s := range idx.Skills {
		if s == nil {
			return nil, problems{{path: fmt.Sprintf("skills[%d]", i), msg: "must be an object"}}
		}
		for j, v := range s.Versions {
			if v == nil {
				return nil, problems{{path: fmt.Sprintf("skills[%d].versions[%d]", i, j), msg: "must be an object"}}
			}
		}
	}
	if idx.SchemaVersion == 0 {
		idx.SchemaVersion = 1
	}
	return &idx, nil
}

// offsetPos converts a byte offset into a 1-based line and column.
func offsetPos(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	pre := data[:off]
	line := bytes.Count(pre, []byte{'\n'}) + 1
	col := len(pre) - bytes.LastIndexByte(pre, '\n')
	return line, col
}

// checkIndex validates a decoded index: schema version, names, versions,
// uniqueness, paths, integrity strings, time stamps and counts. It fills
// in defaulted latest versions.
func checkIndex(idx *Index, lim IndexLimits, errs *problems) {
	if idx.SchemaVersion > IndexSchemaVersion || idx.SchemaVersion < 1 {
		errs.add(pos{}, "schemaVersion", fmt.Sprintf("schema version %d is not supported (this agent-skills reads version %d); upgrade agent-skills", idx.SchemaVersion, IndexSchemaVersion))
		return
	}
	if idx.UpdatedAt != "" && !validTime(idx.UpdatedAt) {
		errs.add(pos{}, "updatedAt", "not an RFC 3339 time stamp: "+strconv.Quote(idx.UpdatedAt))
	}
	if len(idx.Skills) > lim.MaxSkills {
		errs.add(pos{}, "skills", fmt.Sprintf("%d skills; the limit is %d", len(idx.Skills), lim.MaxSkills))
		return
	}
	seen := make(map[string]int, len(idx.Skills))
	total := 0
	for i, s := range idx.Skills {
		if errs.full() {
			return
		}
		p := "skills[" + strconv.Itoa(i) + "]"
		if why := checkName(s.Name); why != "" {
			errs.add(s.pos, p+".name", why)
		} else if first, dup := seen[s.Name]; dup {
			errs.add(s.pos, p+".name", fmt.Sprintf("duplicate skill %q (first at skills[%d])", s.Name, first))
		} else {
			seen[s.Name] = i
		}
		if len(s.Description) > lim.MaxStringBytes {
			errs.add(s.pos, p+".description", fmt.Sprintf("longer than %d bytes", lim.MaxStringBytes))
		}
		if len(s.Keywords) > lim.MaxKeywords {
			errs.add(s.pos, p+".keywords", fmt.Sprintf("%d keywords; the limit is %d", len(s.Keywords), lim.MaxKeywords))
		}
		for k, kw := range s.Keywords {
			if len(kw) > 256 {
				errs.add(s.pos, p+".keywords["+strconv.Itoa(k)+"]", "longer than 256 bytes")
			}
		}
		if len(s.Versions) == 0 {
			errs.add(s.pos, p+".versions", "a skill needs at least one version")
		}
		if len(s.Versions) > lim.MaxVersionsPerSkill {
			errs.add(s.pos, p+".versions", fmt.Sprintf("%d versions; the limit is %d", len(s.Versions), lim.MaxVersionsPerSkill))
			continue
		}
		total += len(s.Versions)
		if total > lim.MaxVersions {
			errs.add(s.pos, p+".versions", fmt.Sprintf("more than %d versions in the index", lim.MaxVersions))
			return
		}
		checkVersions(s, p, lim, errs)
		if len(s.Versions) == 1 {
			// Nothing to sort it against: the parsed form, kept to sort
			// the versions, would only hold memory (1 MB of a
			// 10,000-skill index) until the index is released.
			s.Versions[0].sv = nil
		}
	}
}

// checkVersions validates the versions of one skill and defaults latest.
func checkVersions(s *Skill, p string, lim IndexLimits, errs *problems) {
	var seen map[string]bool
	if len(s.Versions) > 8 {
		seen = make(map[string]bool, len(s.Versions))
	}
	ok := true
	for j, v := range s.Versions {
		// The field path is built only for a problem.
		vp := func() string { return p + ".versions[" + strconv.Itoa(j) + "]" }
		sv, err := semver.StrictNewVersion(v.Version)
		if err != nil || v.Version == "" {
			errs.add(v.pos, vp()+".version", fmt.Sprintf("%q is not a strict semantic version (MAJOR.MINOR.PATCH)", v.Version))
			ok = false
		} else {
			v.sv = sv
			dup := false
			if seen != nil {
				dup = seen[v.Version]
				seen[v.Version] = true
			} else {
				for _, w := range s.Versions[:j] {
					dup = dup || w.Version == v.Version
				}
			}
			if dup {
				errs.add(v.pos, vp()+".version", fmt.Sprintf("duplicate version %s of %q", v.Version, s.Name))
			}
		}
		switch {
		case v.Manifest != "":
			if v.Path != "" || v.Tarball != "" {
				errs.add(v.pos, vp(), "an OCI manifest digest excludes path and tarball")
			} else if why := checkManifestDigest(v.Manifest); why != "" {
				errs.add(v.pos, vp()+".manifest", why)
			}
		case v.Path == "" && v.Tarball == "":
			errs.add(v.pos, vp(), "needs exactly one of path or tarball; found neither")
		case v.Path != "" && v.Tarball != "":
			errs.add(v.pos, vp(), "needs exactly one of path or tarball; found both")
		case v.Path != "":
			if j > 0 && v.Path == s.Versions[j-1].Path {
				break // checked already; versions often share a directory
			}
			if why := checkPath(strings.TrimSuffix(v.Path, "/")); why != "" {
				errs.add(v.pos, vp()+".path", fmt.Sprintf("unsafe path %q: %s", v.Path, why))
			}
		default:
			if why := checkTarballRef(v.Tarball); why != "" {
				errs.add(v.pos, vp()+".tarball", fmt.Sprintf("bad tarball %q: %s", v.Tarball, why))
			}
		}
		if canon, why := canonicalIntegrity(v.Integrity); why != "" {
			errs.add(v.pos, vp()+".integrity", why)
		} else {
			v.Integrity = canon
		}
		if v.PublishedAt != "" && !validTime(v.PublishedAt) {
			errs.add(v.pos, vp()+".publishedAt", "not an RFC 3339 time stamp: "+strconv.Quote(v.PublishedAt))
		}
		if len(v.DeprecationReason) > lim.MaxStringBytes {
			errs.add(v.pos, vp()+".deprecationReason", fmt.Sprintf("longer than %d bytes", lim.MaxStringBytes))
		}
		if len(v.Signatures) > MaxVersionSignatures {
			errs.add(v.pos, vp()+".signatures", fmt.Sprintf("%d signatures; the limit is %d", len(v.Signatures), MaxVersionSignatures))
		}
		for k, sig := range v.Signatures {
			if why := checkCompactSignature(sig); why != "" {
				errs.add(v.pos, vp()+".signatures["+strconv.Itoa(k)+"]", why)
			}
		}
	}
	if !ok {
		return
	}
	if s.Latest != "" {
		if _, found := s.Version(s.Latest); !found {
			errs.add(s.pos, p+".latest", fmt.Sprintf("latest %q is not one of the listed versions", s.Latest))
		}
		return
	}
	s.Latest = defaultLatest(s.Versions)
}

// defaultLatest picks the newest non-deprecated release, else the newest
// non-deprecated prerelease, else "".
func defaultLatest(vs []*Version) string {
	var best, bestPre *semver.Version
	for _, v := range vs {
		if v.Deprecated || v.sv == nil {
			continue
		}
		if v.sv.Prerelease() != "" {
			if bestPre == nil || v.sv.GreaterThan(bestPre) {
				bestPre = v.sv
			}
		} else if best == nil || v.sv.GreaterThan(best) {
			best = v.sv
		}
	}
	switch {
	case best != nil:
		return best.Original()
	case bestPre != nil:
		return bestPre.Original()
	}
	return ""
}

// checkName reports why name is not a valid skill name (format.CheckName),
// or "".
func checkName(name string) string {
	if reasons := format.CheckName(name); len(reasons) > 0 {
		return fmt.Sprintf("name %q %s", name, strings.Join(reasons, "; "))
	}
	return ""
}

// checkManifestDigest says why m is not "sha256:" and 64 lowercase
// hexadecimal digits, or "".
func checkManifestDigest(m string) string {
	hex, ok := strings.CutPrefix(m, "sha256:")
	if !ok || len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
		return fmt.Sprintf("%q is not an OCI digest (sha256: and 64 lowercase hexadecimal digits)", m)
	}
	return ""
}

// checkTarballRef accepts an http(s) URL or a safe relative path ending in
// .tar.gz or .tgz.
func checkTarballRef(t string) string {
	if i := strings.Index(t, "://"); i >= 0 {
		scheme := strings.ToLower(t[:i])
		if scheme != "https" && scheme != "http" {
			return "only https:// (or loopback http://) URLs and relative paths are allowed"
		}
		for _, r := range t {
			if r <= 0x20 || r == 0x7f {
				return "control character or space in URL"
			}
		}
		return ""
	}
	if why := checkPath(t); why != "" {
		return why
	}
	return ""
}

// canonicalIntegrity returns s in the form Digest writes — "sha256-" and
// the padded base64 of 32 bytes — or why it is not a sha256 digest. The
// hexadecimal spelling docs/integrity.md documents (the design's example
// uses it) is accepted and rewritten, so that everything downstream — the
// payload check, cache keys, skills.lock — sees one spelling per value.
func canonicalIntegrity(s string) (string, string) {
	if s == "" {
		return "", "integrity is missing"
	}
	if !strings.HasPrefix(s, "sha256-") {
		return "", fmt.Sprintf("integrity %q must start with sha256-", s)
	}
	if canonicalBase64Sum(s[len("sha256-"):]) {
		return s, "" // already in the canonical form: nothing to decode or allocate
	}
	algo, sum, err := format.ParseIntegrity(s)
	if err != nil || algo != "sha256" || len(sum) != 32 {
		return "", fmt.Sprintf("integrity %q is not sha256- followed by the base64 of 32 bytes, or by 64 hex digits", s)
	}
	return "sha256-" + base64.StdEncoding.EncodeToString(sum), ""
}

// canonicalBase64Sum reports whether enc is the padded standard base64
// of 32 bytes exactly as base64.StdEncoding writes it: 43 characters of
// the alphabet, the last with its two unused low bits zero, and one "=".
// Such a string decodes strictly to 32 bytes and re-encodes to itself.
func canonicalBase64Sum(enc string) bool {
	if len(enc) != 44 || enc[43] != '=' {
		return false
	}
	for i := range 43 {
		if base64Value(enc[i]) < 0 {
			return false
		}
	}
	return base64Value(enc[42])&3 == 0
}

// base64Value is the value of a standard base64 character, or -1.
func base64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// validTime reports whether s is an RFC 3339 time stamp.
func validTime(s string) bool {
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}

// problem is one index problem with its position and field path.
type problem struct {
	pos  pos
	path string
	msg  string
}

// problems collects index problems, capped so a hostile index cannot make
// the report itself huge.
type problems []problem

// maxProblems caps how many problems one decode collects.
const maxProblems = 100

// add records a problem unless the list is full.
func (ps *problems) add(p pos, path, msg string) {
	if len(*ps) < maxProblems {
		*ps = append(*ps, problem{pos: p, path: path, msg: msg})
	}
}

// full reports whether no more problems are recorded.
func (ps problems) full() bool { return len(ps) >= maxProblems }

// render formats the problems as "file:line:col: path: message".
func (ps problems) render(file string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		loc := file
		if p.pos.line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", file, p.pos.line, max(p.pos.col, 1))
		}
		if p.path != "" {
			out = append(out, loc+": "+p.path+": "+p.msg)
		} else {
			out = append(out, loc+": "+p.msg)
		}
	}
	return out
}

// invalidIndex builds the ASK_REGISTRY_INVALID_INDEX error.
func invalidIndex(file string, details []string) *Error {
	msg := "invalid registry index " + file
	if len(details) > 0 {
		msg = details[0]
		details = details[1:]
		switch len(details) {
		case 0:
		case 1:
			msg += " (and 1 more problem)"
		default:
			msg += fmt.Sprintf(" (and %d more problems)", len(details))
		}
	}
	return &Error{
		Code:    CodeRegistryInvalidIndex,
		Message: msg,
		Detail:  details,
		Try: []string{
			"report the problem to the registry's maintainers",
			"agent-skills registry list  (to see which registry serves " + file + ")",
		},
	}
}
