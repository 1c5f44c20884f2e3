package resolve

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
)

// decodeLockFast reads a lock written in exactly the form Encode writes
// (fixed indentation and key order, plain or single-quoted scalars, flow
// lists of agents) without building a YAML node tree: for 10,000 skills
// the tree is ~48 MB of allocations and ~80 ms, the lock it decodes to a
// tenth of that. It returns ok only when DecodeLock's YAML path would
// return the same lock without an error: a scalar is taken plain only when
// Encode would write it plain (plainSafe, which every YAML reader reads as
// that string), every check DecodeLock makes passes, and anything else —
// comments, another order or layout, double quotes, a problem to report —
// is left to that path, which reports it with its position.
func decodeLockFast(data []byte) (*Lock, bool) {
	// One copy of the document; the lock's strings are its substrings.
	p := lockScanner{data: string(data)}
	l := &Lock{Skills: map[string]LockedSkill{}}
	b, ok := p.next()
	if !ok || !strings.HasPrefix(b, "lockfileVersion: ") || !positiveInt(b[len("lockfileVersion: "):]) {
		return nil, false
	}
	l.LockfileVersion, _ = strconv.Atoi(b[len("lockfileVersion: "):])
	p.pos += len(b) + 1
	if l.LockfileVersion > LockfileVersion {
		return nil, false
	}
	if p.peekKey("", "generatedWith") {
		if l.GeneratedWith, ok = p.field("", "generatedWith", false); !ok {
			return nil, false
		}
	}
	if p.line("registries:") {
		if l.LockfileVersion < 2 || !p.registries(l) {
			return nil, false
		}
	}
	if p.line("skills: {}") {
		return l, p.done()
	}
	if !p.line("skills:") || !p.skills(l) {
		return nil, false
	}
	return l, p.done()
}

// lockScanner reads data line by line.
type lockScanner struct {
	data string
	pos  int
}

// done reports whether every byte was read.
func (p *lockScanner) done() bool { return p.pos == len(p.data) }

// next returns the next line without its newline, without consuming it;
// ok is false at the end or for a last line with no newline.
func (p *lockScanner) next() (string, bool) {
	i := strings.IndexByte(p.data[p.pos:], '\n')
	if i < 0 {
		return "", false
	}
	return p.data[p.pos : p.pos+i], true
}

// line consumes the next line when it is exactly s.
func (p *lockScanner) line(s string) bool {
	b, ok := p.next()
	if !ok || b != s {
		return false
	}
	p.pos += len(b) + 1
	return true
}

// peekKey reports whether the next line is indent, key and ": ".
func (p *lockScanner) peekKey(indent, key string) bool {
	b, ok := p.next()
	return ok && len(b) > len(indent)+len(key)+2 && b[:len(indent)] == indent &&
		b[len(indent):len(indent)+len(key)] == key && b[len(indent)+len(key):len(indent)+len(key)+2] == ": "
}

// field consumes a line "<indent><key>: <scalar>" and returns the scalar.
func (p *lockScanner) field(indent, key string, flow bool) (string, bool) {
	if !p.peekKey(indent, key) {
		return "", false
	}
	b, _ := p.next()
	v, ok := wholeScalar(b[len(indent)+len(key)+2:], flow)
	if !ok {
		return "", false
	}
	p.pos += len(b) + 1
	return v, true
}

// entry consumes a line "<indent><name>:" opening a mapping, and returns
// the name; false when the next line is not one at that indentation.
func (p *lockScanner) entry(indent string) (string, bool) {
	b, ok := p.next()
	if !ok || len(b) < len(indent)+2 || b[:len(indent)] != indent || b[len(indent)] == ' ' || b[len(b)-1] != ':' {
		return "", false
	}
	name, ok := wholeScalar(b[len(indent):len(b)-1], true)
	if !ok {
		return "", false
	}
	p.pos += len(b) + 1
	return name, true
}

// registries reads the registries section as Encode writes it: at least
// one, each with kind and url and, for git, maybe a ref.
func (p *lockScanner) registries(l *Lock) bool {
	l.Registries = map[string]LockedRegistry{}
	for {
		name, ok := p.entry("  ")
		if !ok {
			return len(l.Registries) > 0
		}
		if _, dup := l.Registries[name]; dup || !registryNameRE.MatchString(name) || len(name) > 64 {
			return false
		}
		var r LockedRegistry
		if r.Kind, ok = p.field("    ", "kind", false); !ok {
			return false
		}
		switch r.Kind {
		case lockKindLocal, lockKindGit, lockKindHTTP, lockKindBundled:
		default:
			return false
		}
		if r.URL, ok = p.field("    ", "url", false); !ok || r.URL == "" || urlProblem(r.URL) != "" {
			return false
		}
		if p.peekKey("    ", "ref") {
			if r.Ref, ok = p.field("    ", "ref", false); !ok || (r.Ref != "" && r.Kind != lockKindGit) {
				return false
			}
		}
		l.Registries[name] = r
	}
}

// skills reads the skills section as Encode writes it, at least one
// skill, and checks what DecodeLock checks of each and of their
// dependencies.
func (p *lockScanner) skills(l *Lock) bool {
	type depRef struct{ name, v string }
	var refs []depRef
	for {
		name, ok := p.entry("  ")
		if !ok {
			break
		}
		if _, dup := l.Skills[name]; dup || !format.ValidName(name) {
			return false
		}
		var s LockedSkill
		if s.Version, ok = p.field("    ", "version", false); !ok || !exactOrEmpty(s.Version) {
			return false
		}
		for _, f := range []struct {
			key string
			val *string
		}{
			{"registry", &s.Registry}, {"source", &s.Source}, {"ref", &s.Ref}, {"commit", &s.Commit},
			{"subpath", &s.Subpath}, {"resolved", &s.Resolved}, {"integrity", &s.Integrity},
		} {
			if p.peekKey("    ", f.key) {
				if *f.val, ok = p.field("    ", f.key, false); !ok {
					return false
				}
			}
		}
		if relativeProblem(s.Source) != "" || relativeProblem(s.Resolved) != "" || (s.Registry == "" && s.Source == "") {
			return false
		}
		if !p.peekKey("    ", "agents") {
			return false
		}
		b, _ := p.next()
		if s.Agents, ok = flowList(b[len("    agents: "):]); !ok {
			return false
		}
		p.pos += len(b) + 1
		if p.line("    disabled: true") {
			s.Disabled = true
		}
		s.Dependencies = map[string]string{}
		if !p.line("    dependencies: {}") {
			if !p.line("    dependencies:") {
				return false
			}
			for {
				b, ok := p.next()
				if !ok || !strings.HasPrefix(b, "      ") {
					break
				}
				dep, ver, ok := depLine(b[len("      "):])
				if !ok || !exactOrEmpty(ver) {
					return false
				}
				if _, dup := s.Dependencies[dep]; dup {
					return false
				}
				s.Dependencies[dep] = ver
				refs = append(refs, depRef{dep, ver})
				p.pos += len(b) + 1
			}
			if len(s.Dependencies) == 0 {
				return false
			}
		}
		l.Skills[name] = s
	}
	if len(l.Skills) == 0 {
		return false
	}
	for _, r := range refs {
		dep, ok := l.Skills[r.name]
		if !ok || (r.v != "" && dep.Version != "" && dep.Version != r.v) {
			return false
		}
	}
	return true
}

// depLine splits "<name>: <version>".
func depLine(s string) (name, version string, ok bool) {
	name, rest, ok := cutScalar(s, true)
	if !ok || !strings.HasPrefix(rest, ": ") {
		return "", "", false
	}
	version, ok = wholeScalar(rest[2:], false)
	return name, version, ok
}

// flowList reads "[a, b]" as Encode writes agents; an empty id is
// skipped, as DecodeLock skips it.
func flowList(s string) ([]string, bool) {
	out := []string{}
	if s == "[]" {
		return out, true
	}
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	s = s[1:]
	for {
		v, rest, ok := cutScalar(s, true)
		if !ok {
			return nil, false
		}
		if v != "" {
			out = append(out, v)
		}
		switch {
		case rest == "]":
			return out, true
		case strings.HasPrefix(rest, ", "):
			s = rest[2:]
		default:
			return nil, false
		}
	}
}

// wholeScalar reads s as one scalar with nothing after it.
func wholeScalar(s string, flow bool) (string, bool) {
	v, rest, ok := cutScalar(s, flow)
	return v, ok && rest == ""
}

// cutScalar reads the scalar at the start of s, as Encode writes one:
// single-quoted, or plain when Encode would write that string plain. A
// plain scalar ends before ':', ',' or ']' in flow context (keys and
// lists), at the end of s otherwise; plainSafe refuses those characters
// and spaces where they would end it. Double-quoted scalars, and quoted
// ones holding a character Encode would escape, are not read here.
func cutScalar(s string, flow bool) (v, rest string, ok bool) {
	if strings.HasPrefix(s, "'") {
		var b strings.Builder
		for i := 1; ; {
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return "", "", false
			}
			b.WriteString(s[i : i+j])
			i += j
			if i+1 < len(s) && s[i+1] == '\'' { // '' is one quote
				b.WriteByte('\'')
				i += 2
				continue
			}
			v = b.String()
			if v == "" || !utf8.ValidString(v) || strings.ContainsFunc(v, unquotable) {
				return "", "", false
			}
			return v, s[i+1:], true
		}
	}
	end := len(s)
	if flow {
		if i := strings.IndexAny(s, ":,]"); i >= 0 {
			end = i
		}
	}
	v = s[:end]
	if !plainSafe(v, flow) {
		return "", "", false
	}
	return v, s[end:], true
}

// unquotable reports a character that a single-quoted scalar of Encode's
// never holds (Encode escapes it in double quotes), or that YAML refuses in
// a stream (U+FFFE, U+FFFF).
func unquotable(r rune) bool { return needsEscape(r) || r == 0xfffe || r == 0xffff }

// positiveInt reports whether s is a positive decimal integer written
// without a sign or leading zeros, small enough for any int.
func positiveInt(s string) bool {
	if s == "" || len(s) > 9 || s[0] < '1' || s[0] > '9' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// exactOrEmpty reports whether v is empty or an exact semantic version,
// which is what DecodeLock accepts for a version.
func exactOrEmpty(v string) bool {
	if v == "" {
		return true
	}
	_, ok := parseVersion(v)
	return ok
}
