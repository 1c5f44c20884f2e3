package resolve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/format"
	"go.yaml.in/yaml/v3"
)

// LockfileVersion is the skills.lock format version this package writes.
// It reads every version from OldestLockfileVersion up to it: version 2
// added the registries section and project-relative folders ("./x"),
// which a version-1 reader would refuse or misread.
const LockfileVersion = 2

// OldestLockfileVersion is the oldest skills.lock format version this
// package still reads.
const OldestLockfileVersion = 1

// Registry kinds a lock records (the registry module's kinds).
const (
	lockKindLocal   = "local"
	lockKindGit     = "git"
	lockKindHTTP    = "http"
	lockKindBundled = "bundled"
	lockKindOCI     = "oci"
)

// Lock is the content of skills.lock (DESIGN §6): the exact version,
// registry and integrity of every skill a project install chose.
type Lock struct {
	// LockfileVersion is the format version; Encode writes
	// LockfileVersion when it is zero.
	LockfileVersion int
	// GeneratedWith names the tool and version that wrote the lock.
	GeneratedWith string
	// Registries records, by name, what is needed to reach each registry
	// a skill was resolved from, so that a machine whose configuration
	// does not name it can restore the skill; never credentials. A lock of
	// version 1 has none.
	Registries map[string]LockedRegistry
	// Skills maps each skill name to what was installed.
	Skills map[string]LockedSkill
}

// LockedRegistry is one registry recorded in skills.lock: its kind, where
// it is and, for git, the branch, tag or commit it is read at. A folder
// inside the project is recorded relative to the project root ("./reg");
// the CLI turns it into a path, and back, when it reads and writes the
// file.
type LockedRegistry struct {
	// Kind is "local", "git", "http", "oci" or "bundled".
	Kind string
	// URL locates the registry as its configuration did, with no password
	// or, for http(s), no user information.
	URL string
	// Ref is the git ref; "" for the default branch and other kinds.
	Ref string
}

// LockedSkill is one skill recorded in skills.lock.
type LockedSkill struct {
	// Version is the exact installed version.
	Version string
	// Registry is the registry the skill was resolved from; a locked
	// install is looked up there only.
	Registry string
	// Source, Ref, Commit and Subpath record a skill installed from a
	// direct source (the source, the branch or tag asked for, the commit it
	// resolved to, and the folder inside it) rather than from a registry.
	// They are omitted when empty; Ref is empty for the default branch.
	Source  string
	Ref     string
	Commit  string
	Subpath string
	// Resolved says where the payload came from: a registry path
	// ("bundled:java-basics"), a git URL with ref and folder, an archive
	// URL.
	Resolved string
	// Integrity is the package's canonical digest (format.Digest):
	// "sha256-" and the standard base64 of the SHA-256.
	Integrity string
	// Agents lists the agents the skill was installed for.
	Agents []string
	// Dependencies maps each direct dependency to its locked version.
	Dependencies map[string]string
	// Disabled records a skill that stays installed for its agents but
	// that no agent lists until it is enabled again (agent-skills
	// disable). Optional: written only when true, so a lock without
	// disabled skills is byte for byte what older versions wrote.
	Disabled bool
}

// Pins returns the lock's versions and registries in the form
// Options.Pins takes.
func (l *Lock) Pins() map[string]Pin {
	pins := make(map[string]Pin, len(l.Skills))
	for name, s := range l.Skills {
		pins[name] = Pin{Version: s.Version, Registry: s.Registry}
	}
	return pins
}

// Encode renders the lock as YAML with a fixed key order, registries,
// skills, agents and dependencies sorted, and a trailing newline, so that encoding an
// unchanged lock gives the same bytes and changing one skill changes only
// its block.
func (l *Lock) Encode() []byte {
	var b bytes.Buffer
	v := l.LockfileVersion
	if v == 0 {
		v = LockfileVersion
	}
	fmt.Fprintf(&b, "lockfileVersion: %d\n", v)
	if l.GeneratedWith != "" {
		fmt.Fprintf(&b, "generatedWith: %s\n", yamlScalar(l.GeneratedWith, false))
	}
	if len(l.Registries) > 0 {
		b.WriteString("registries:\n")
		for _, name := range sortedKeys(l.Registries) {
			r := l.Registries[name]
			fmt.Fprintf(&b, "  %s:\n", yamlScalar(name, true))
			fmt.Fprintf(&b, "    kind: %s\n", yamlScalar(r.Kind, false))
			fmt.Fprintf(&b, "    url: %s\n", yamlScalar(r.URL, false))
			if r.Ref != "" {
				fmt.Fprintf(&b, "    ref: %s\n", yamlScalar(r.Ref, false))
			}
		}
	}
	if len(l.Skills) == 0 {
		b.WriteString("skills: {}\n")
		return b.Bytes()
	}
	b.WriteString("skills:\n")
	// 250-300 bytes a skill as installs write them: one allocation for
	// the whole lock instead of doubling (10,000 skills: 2.5-3 MB).
	b.Grow(320 * len(l.Skills))
	line := func(indent, key, val string) {
		b.WriteString(indent)
		b.WriteString(key)
		b.WriteString(": ")
		b.WriteString(val)
		b.WriteByte('\n')
	}
	var agents []string
	for _, name := range sortedKeys(l.Skills) {
		s := l.Skills[name]
		b.WriteString("  ")
		b.WriteString(yamlScalar(name, true))
		b.WriteString(":\n")
		line("    ", "version", yamlScalar(s.Version, false))
		for _, f := range [...]struct{ key, val string }{
			{"registry", s.Registry},
			{"source", s.Source},
			{"ref", s.Ref},
			{"commit", s.Commit},
			{"subpath", s.Subpath},
			{"resolved", s.Resolved},
			{"integrity", s.Integrity},
		} {
			if f.val != "" {
				line("    ", f.key, yamlScalar(f.val, false))
			}
		}
		agents = append(agents[:0], s.Agents...)
		slices.Sort(agents)
		agents = slices.Compact(agents)
		b.WriteString("    agents: [")
		for i, a := range agents {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(yamlScalar(a, true))
		}
		b.WriteString("]\n")
		if s.Disabled {
			b.WriteString("    disabled: true\n")
		}
		if len(s.Dependencies) == 0 {
			b.WriteString("    dependencies: {}\n")
			continue
		}
		b.WriteString("    dependencies:\n")
		for _, d := range sortedKeys(s.Dependencies) {
			line("      ", yamlScalar(d, true), yamlScalar(s.Dependencies[d], false))
		}
	}
	return b.Bytes()
}

var yamlSpecial = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"y": true, "n": true, "null": true, "~": true,
}

// yamlScalar renders s plain when every YAML reader will read it back as
// the same string, and quoted otherwise. In flow context (inside [] or as
// a key) ":" and "#" are quoted too.
func yamlScalar(s string, flow bool) string {
	if plainSafe(s, flow) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsFunc(s, needsEscape) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsEscape reports a character that a quoted scalar must write as an
// escape to read back unchanged: the C0 and C1 controls, DEL, and the
// characters YAML reads as line breaks (NEL, LS, PS) or strips (BOM) —
// inside single quotes a line break folds into a space.
func needsEscape(r rune) bool {
	return r < 0x20 || (0x7f <= r && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff
}

func plainSafe(s string, flow bool) bool {
	if s == "" || yamlSpecial[strings.ToLower(s)] || strings.HasSuffix(s, ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9':
		case i > 0 && strings.IndexByte("._/@+=~-", c) >= 0:
		case i == 0 && c == '.' && (s == "." || strings.HasPrefix(s, "./")):
			// "." and "./path" read as strings (".inf" and ".nan" do not).
		case i > 0 && !flow && (c == ':' || c == '#'):
		default:
			return false
		}
	}
	// Anything starting with a digit may read as a number or a date,
	// except a semantic version.
	if s[0] >= '0' && s[0] <= '9' {
		_, ok := parseVersion(s)
		return ok
	}
	return true
}

// lockProblem is one problem found in a lock file, at a 1-based line and
// column.
type lockProblem struct {
	line, col int
	msg       string
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// DecodeLock parses skills.lock. file names the lock in messages only. A
// lock written by a newer format is refused with ASK_LOCK_UNSUPPORTED; any
// other problem is ASK_LOCK_INVALID, listing every problem found with its
// line and column.
//
// A lock in exactly the form Encode writes is read without a YAML node
// tree (decodeLockFast); anything else, and every problem, goes through
// the YAML decoder, which reports it.
func DecodeLock(data []byte, file string) (*Lock, error) {
	if l, ok := decodeLockFast(data); ok {
		return l, nil
	}
	return decodeLockYAML(data, file)
}

// decodeLockYAML is DecodeLock through a YAML node tree, for every lock.
func decodeLockYAML(data []byte, file string) (*Lock, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, lockInvalid(file, []lockProblem{{1, 1, "the file is empty"}})
		}
		p := lockProblem{1, 1, strings.TrimPrefix(err.Error(), "yaml: ")}
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			p.line, _ = strconv.Atoi(m[1])
			p.msg = m[2]
		}
		return nil, lockInvalid(file, []lockProblem{p})
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, lockInvalid(file, []lockProblem{{extra.Line, extra.Column, "a lock file holds one YAML document"}})
	}
	var ps []lockProblem
	bad := func(n *yaml.Node, format string, args ...any) {
		ps = append(ps, lockProblem{n.Line, n.Column, fmt.Sprintf(format, args...)})
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		bad(root, "the top level must be a mapping with lockfileVersion, generatedWith and skills")
		return nil, lockInvalid(file, ps)
	}
	l := &Lock{Skills: map[string]LockedSkill{}}
	var skills, registries, registriesKey *yaml.Node
	seenVersion := false
	eachPair(root, bad, func(k, v *yaml.Node) {
		switch k.Value {
		case "lockfileVersion":
			seenVersion = true
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || n < 1 {
				bad(v, "lockfileVersion must be a positive integer")
				return
			}
			l.LockfileVersion = n
		case "generatedWith":
			l.GeneratedWith = stringValue(v, "generatedWith", bad)
		case "registries":
			registries, registriesKey = v, k
		case "skills":
			skills = v
		default:
			bad(k, "unknown key %q (expected lockfileVersion, generatedWith, registries or skills)", k.Value)
		}
	})
	if l.LockfileVersion > LockfileVersion {
		return nil, &Error{
			Code:    CodeLockUnsupported,
			Message: fmt.Sprintf("%s has lockfileVersion %d, written by a newer agent-skills", file, l.LockfileVersion),
			Detail: []string{
				fmt.Sprintf("This agent-skills reads lockfileVersion %d to %d.", OldestLockfileVersion, LockfileVersion),
			},
			Try: []string{"upgrade agent-skills to the version that wrote the lock"},
		}
	}
	if !seenVersion {
		bad(root, "lockfileVersion is missing")
	}
	if registries != nil {
		if seenVersion && l.LockfileVersion > 0 && l.LockfileVersion < 2 {
			bad(registriesKey, "registries needs lockfileVersion 2 or later (this lock says %d)", l.LockfileVersion)
		}
		decodeRegistries(registries, l, bad)
	}
	if skills != nil {
		decodeSkills(skills, l, bad)
	}
	if len(ps) > 0 {
		return nil, lockInvalid(file, ps)
	}
	return l, nil
}

// eachPair calls fn for each key and value of a mapping, reporting
// duplicate and non-string keys.
func eachPair(m *yaml.Node, bad func(*yaml.Node, string, ...any), fn func(k, v *yaml.Node)) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			bad(k, "keys must be strings")
			continue
		}
		if seen[k.Value] {
			bad(k, "duplicate key %q", k.Value)
			continue
		}
		seen[k.Value] = true
		fn(k, v)
	}
}

func stringValue(v *yaml.Node, what string, bad func(*yaml.Node, string, ...any)) string {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		bad(v, "%s must be a string (quote it)", what)
		return ""
	}
	return v.Value
}

func decodeSkills(skills *yaml.Node, l *Lock, bad func(*yaml.Node, string, ...any)) {
	if skills.Kind != yaml.MappingNode {
		if skills.Tag != "!!null" {
			bad(skills, "skills must be a mapping from skill name to its entry")
		}
		return
	}
	type depRef struct {
		node          *yaml.Node
		from, name, v string
	}
	var refs []depRef
	eachPair(skills, bad, func(k, v *yaml.Node) {
		name := k.Value
		if !format.ValidName(name) {
			bad(k, "%q is not a valid skill name", name)
		}
		if v.Kind != yaml.MappingNode {
			bad(v, "skills.%s must be a mapping", name)
			return
		}
		var s LockedSkill
		hasVersion := false
		eachPair(v, bad, func(fk, fv *yaml.Node) {
			path := "skills." + name + "." + fk.Value
			switch fk.Value {
			case "version":
				hasVersion = true
				s.Version = stringValue(fv, path, bad)
				if _, ok := parseVersion(s.Version); s.Version != "" && !ok {
					bad(fv, "%s %q is not an exact semantic version", path, s.Version)
				}
			case "registry":
				s.Registry = stringValue(fv, path, bad)
			case "source":
				s.Source = stringValue(fv, path, bad)
				if why := relativeProblem(s.Source); why != "" {
					bad(fv, "%s %q %s", path, s.Source, why)
				}
			case "ref":
				s.Ref = stringValue(fv, path, bad)
			case "commit":
				s.Commit = stringValue(fv, path, bad)
			case "subpath":
				s.Subpath = stringValue(fv, path, bad)
			case "resolved":
				s.Resolved = stringValue(fv, path, bad)
				if why := relativeProblem(s.Resolved); why != "" {
					bad(fv, "%s %q %s", path, s.Resolved, why)
				}
			case "integrity":
				s.Integrity = stringValue(fv, path, bad)
			case "agents":
				if fv.Kind != yaml.SequenceNode {
					bad(fv, "%s must be a list of agent ids", path)
					return
				}
				s.Agents = []string{}
				for _, a := range fv.Content {
					if id := stringValue(a, path+" entries", bad); id != "" {
						s.Agents = append(s.Agents, id)
					}
				}
			case "disabled":
				if fv.Kind != yaml.ScalarNode || fv.Tag != "!!bool" {
					bad(fv, "%s must be true or false", path)
					return
				}
				s.Disabled = strings.EqualFold(fv.Value, "true")
			case "dependencies":
				if fv.Kind != yaml.MappingNode {
					if fv.Tag != "!!null" {
						bad(fv, "%s must be a mapping from name to exact version", path)
					}
					return
				}
				s.Dependencies = map[string]string{}
				eachPair(fv, bad, func(dk, dv *yaml.Node) {
					ver := stringValue(dv, path+"."+dk.Value, bad)
					if _, ok := parseVersion(ver); ver != "" && !ok {
						bad(dv, "%s.%s %q is not an exact semantic version", path, dk.Value, ver)
					}
					s.Dependencies[dk.Value] = ver
					refs = append(refs, depRef{dk, name, dk.Value, ver})
				})
			default:
				bad(fk, "unknown key %q in skills.%s", fk.Value, name)
			}
		})
		if !hasVersion {
			bad(k, "skills.%s has no version", name)
		}
		if s.Registry == "" && s.Source == "" {
			bad(k, "skills.%s has neither a registry nor a source", name)
		}
		l.Skills[name] = s
	})
	for _, r := range refs {
		dep, ok := l.Skills[r.name]
		switch {
		case !ok:
			bad(r.node, "skills.%s depends on %s, which the lock does not list", r.from, r.name)
		case r.v != "" && dep.Version != "" && dep.Version != r.v:
			bad(r.node, "skills.%s depends on %s@%s, but the lock lists %s@%s", r.from, r.name, r.v, r.name, dep.Version)
		}
	}
}

// registryNameRE is the registry name grammar of the configuration
// (config.json): lowercase letters, digits and hyphens, no hyphen at
// either end. The CLI checks the reserved names.
var registryNameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// decodeRegistries reads the registries section: each name's kind, url
// and, for git, ref. A URL that carries a password, or user information
// over http(s), is refused: credentials never belong in a committed file.
func decodeRegistries(regs *yaml.Node, l *Lock, bad func(*yaml.Node, string, ...any)) {
	if regs.Kind != yaml.MappingNode {
		if regs.Tag != "!!null" {
			bad(regs, "registries must be a mapping from registry name to its kind and url")
		}
		return
	}
	l.Registries = map[string]LockedRegistry{}
	eachPair(regs, bad, func(k, v *yaml.Node) {
		name := k.Value
		if !registryNameRE.MatchString(name) || len(name) > 64 {
			bad(k, "%q is not a valid registry name (1-64 lowercase letters, digits and hyphens)", name)
		}
		if v.Kind != yaml.MappingNode {
			bad(v, "registries.%s must be a mapping with kind and url", name)
			return
		}
		var r LockedRegistry
		var refNode *yaml.Node
		eachPair(v, bad, func(fk, fv *yaml.Node) {
			path := "registries." + name + "." + fk.Value
			switch fk.Value {
			case "kind":
				r.Kind = stringValue(fv, path, bad)
				switch r.Kind {
				case lockKindLocal, lockKindGit, lockKindHTTP, lockKindOCI, lockKindBundled, "":
				default:
					bad(fv, "%s %q is not one of local, git, http, oci, bundled", path, r.Kind)
				}
			case "url":
				r.URL = stringValue(fv, path, bad)
				if why := urlProblem(r.URL); why != "" {
					bad(fv, "%s %s", path, why)
				}
			case "ref":
				r.Ref, refNode = stringValue(fv, path, bad), fv
			default:
				bad(fk, "unknown key %q in registries.%s (expected kind, url or ref)", fk.Value, name)
			}
		})
		if r.Kind == "" {
			bad(k, "registries.%s has no kind", name)
		}
		if r.URL == "" {
			bad(k, "registries.%s has no url", name)
		}
		if refNode != nil && r.Ref != "" && r.Kind != lockKindGit && r.Kind != "" {
			bad(refNode, "registries.%s.ref applies to git registries only, not %s", name, r.Kind)
		}
		l.Registries[name] = r
	})
}

// urlProblem says why a recorded registry URL cannot be kept in a lock,
// or "" when it can.
func urlProblem(raw string) string {
	if why := relativeProblem(raw); why != "" {
		return fmt.Sprintf("%q %s", raw, why)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.User == nil {
		return ""
	}
	if _, ok := u.User.Password(); ok {
		return "carries a password; credentials never go in skills.lock (git credential helpers keep them)"
	}
	if s := strings.ToLower(u.Scheme); (s == "https" || s == "http") && u.User.Username() != "" {
		return "carries user information; credentials never go in skills.lock (git credential helpers keep them)"
	}
	return ""
}

// relativeProblem says why p, when it is written relative to the
// project root, cannot be: the root itself is ".", anything below it
// "./" and a clean slash-separated path that stays inside the project.
// It is "" for p that is not relative, or is a fine relative path.
func relativeProblem(p string) string {
	switch {
	case p == ".":
		return ""
	case p == ".." || strings.HasPrefix(p, "../"):
		return "leaves the project; a relative path must stay inside it"
	case !strings.HasPrefix(p, "./"):
		return ""
	}
	rest := p[2:]
	switch {
	case strings.Contains(rest, "\\"):
		return "must be slash-separated"
	case rest == ".." || strings.HasPrefix(rest, "../") || strings.Contains(rest, "/../") || strings.HasSuffix(rest, "/.."):
		return "leaves the project; a relative path must stay inside it"
	case rest == "" || path.Clean(rest) != rest:
		return "must be a clean path below the project root, written ./path"
	}
	return ""
}

func lockInvalid(file string, ps []lockProblem) *Error {
	slices.SortStableFunc(ps, func(a, b lockProblem) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return a.col - b.col
	})
	details := make([]string, len(ps))
	for i, p := range ps {
		details[i] = fmt.Sprintf("%s:%d:%d: %s", file, p.line, max(p.col, 1), p.msg)
	}
	return &Error{
		Code:    CodeLockInvalid,
		Message: fmt.Sprintf("%s is not a valid lock file", file),
		Detail:  details,
		Try: []string{
			"fix the lines above, or restore the file from version control",
			fmt.Sprintf("delete %s and run agent-skills install to write it anew", file),
		},
	}
}
