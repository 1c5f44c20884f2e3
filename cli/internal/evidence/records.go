package evidence

import (
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

// Read is a host's native read of an installed skill's file: a count,
// never an activation.
type Read struct {
	// Host is claude, codex, gemini or copilot.
	Host string
	// EventKey is the idempotency key: the host-native id (tool_use_id) or
	// host+timestamp+path for hosts without one.
	EventKey string
	// Session is the host's session id, "" when the host gives none.
	Session string
	// At is the host's timestamp when it has one, else the hook's clock
	// (stored in UTC at millisecond precision).
	At time.Time
	// Skill is the skill's name (the folder's front-matter name).
	Skill string
	// Scope is "project" or "global".
	Scope string
	// Project is the absolute project root for project scope, "" for global.
	Project string
	// File is the slash path relative to the skill folder: "SKILL.md" or
	// e.g. "references/x.md".
	File string
	// Kind is "entrypoint" (File == "SKILL.md") or "reference".
	Kind string
	// Digest is "sha256:<hex>" of the file's bytes at observation time.
	Digest string
	// Version is the skill version from skill.yaml, "" when none.
	Version string
}

// Lifecycle is an explicit assertion by a caller (a CLI flag or an MCP
// tool) that an attempt to use a skill started or finished.
type Lifecycle struct {
	// EventID is caller-chosen, 1-128 characters of [A-Za-z0-9._:-].
	EventID string
	// Attempt groups the events of one use of a skill, same charset.
	Attempt string
	Skill   string
	// Version is optional.
	Version string
	// Stage is "started" or "finished".
	Stage string
	// Outcome is required iff Stage is "finished": "succeeded", "failed",
	// "abandoned" or "blocked".
	Outcome string
	At      time.Time
	// Emitter names who asserts it (e.g. "ci", "agent:claude"), 1-64
	// characters.
	Emitter string
	// Reason is an optional short code, at most 64 characters of
	// [A-Za-z0-9._:-]: no free text, so no prompt is ever stored.
	Reason string
}

// CatalogObservation is a complete inventory of a collection at a time.
type CatalogObservation struct {
	// Collection is a logical identifier (e.g. "github.com/acme/skills" or
	// a registry name), never a local path.
	Collection string
	At         time.Time
	// Digest is the "sha256:<hex>" catalog digest.
	Digest string
	// Skills is the complete list; names are unique.
	Skills []CatalogSkill
}

// CatalogSkill is one skill of a catalog observation.
type CatalogSkill struct{ Name, Version, Digest string }

// WriteResult is the result of a write: whether it inserted a row or was
// an identical retry, and the row's id.
type WriteResult struct {
	Inserted bool
	ID       int64
}

// Hosts are the hosts whose read hooks feed the store, in report order.
var Hosts = []string{"claude", "codex", "gemini", "copilot"}

// Lifecycle stages and outcomes.
var (
	stages   = []string{"started", "finished"}
	outcomes = []string{"succeeded", "failed", "abandoned", "blocked"}
)

// Bounds of the records' fields.
const (
	maxKey       = 512
	maxSkillName = 64
	maxVersion   = 64
	maxPath      = 1024
	maxFile      = 512
	maxCollect   = 256
	maxCatalog   = 10000
	minYear      = 2020
)

// now is the clock validation compares times to; tests replace it.
var now = time.Now

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}

// idChars reports whether s is 1..max characters of [A-Za-z0-9._:-].
func idChars(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// skillName reports whether s is a skill name: lowercase letters, digits
// and single hyphens, 1-64 characters (the Agent Skills rule).
func skillName(s string) bool {
	if s == "" || len(s) > maxSkillName || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// version reports whether s is "" or a short version string.
func version(s string) bool {
	return s == "" || idChars(strings.ReplaceAll(s, "+", "."), maxVersion)
}

// digest reports whether s is "sha256:" and 64 lowercase hex digits.
func digest(s string) bool {
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// checkTime reports the problem with t: zero, before 2020 or more than
// a day in the future.
func checkTime(t time.Time) string {
	switch {
	case t.IsZero():
		return "has no time"
	case t.Year() < minYear:
		return "is dated before 2020"
	case t.After(now().Add(24 * time.Hour)):
		return "is dated more than a day in the future"
	}
	return ""
}

// cleanRel reports whether p is a clean relative slash path inside its
// folder.
func cleanRel(p string) bool {
	return p != "" && len(p) <= maxFile && printable(p) && !strings.Contains(p, "\\") &&
		!path.IsAbs(p) && path.Clean(p) == p && p != "." && p != ".." && !strings.HasPrefix(p, "../")
}

// Validate checks the read observation; it returns an
// ASK_EVIDENCE_INVALID *askerr.Error naming the first problem.
func (r Read) Validate() error {
	switch {
	case !oneOf(r.Host, Hosts):
		return invalid("read observation: unknown host %q (want claude, codex, gemini or copilot)", clip(r.Host))
	case r.EventKey == "" || len(r.EventKey) > maxKey || !printable(r.EventKey):
		return invalid("read observation: the event key must be 1-%d printable characters", maxKey)
	case len(r.Session) > maxKey || !printable(r.Session):
		return invalid("read observation: the session id must be at most %d printable characters", maxKey)
	case !skillName(r.Skill):
		return invalid("read observation: %q is not a skill name (lowercase letters, digits and hyphens, at most 64)", clip(r.Skill))
	case !oneOf(r.Scope, []string{"project", "global"}):
		return invalid("read observation: unknown scope %q (want project or global)", clip(r.Scope))
	case r.Scope == "project" && (!path.IsAbs(strings.ReplaceAll(r.Project, "\\", "/")) && !winAbs(r.Project) || len(r.Project) > maxPath || !printable(r.Project)):
		return invalid("read observation: a project-scope read needs the absolute project root (at most %d characters)", maxPath)
	case r.Scope == "global" && r.Project != "":
		return invalid("read observation: a global-scope read has no project")
	case !cleanRel(r.File):
		return invalid("read observation: the file %q is not a clean relative slash path", clip(r.File))
	case r.Kind != "entrypoint" && r.Kind != "reference":
		return invalid("read observation: unknown kind %q (want entrypoint or reference)", clip(r.Kind))
	case (r.Kind == "entrypoint") != (r.File == "SKILL.md"):
		return invalid("read observation: kind entrypoint goes with the file SKILL.md, and only with it")
	case !digest(r.Digest):
		return invalid("read observation: the digest must be sha256: and 64 lowercase hex digits")
	case !version(r.Version):
		return invalid("read observation: the version %q is not a short version string", clip(r.Version))
	}
	if p := checkTime(r.At); p != "" {
		return invalid("read observation %s", p)
	}
	return nil
}

// winAbs reports whether p is an absolute Windows path (C:\… or C:/…).
func winAbs(p string) bool {
	return len(p) >= 3 && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// Validate checks the lifecycle event; it returns an ASK_EVIDENCE_INVALID
// *askerr.Error naming the first problem.
func (l Lifecycle) Validate() error {
	switch {
	case !idChars(l.EventID, 128):
		return invalid("lifecycle event: the event id must be 1-128 characters of A-Z a-z 0-9 . _ : -")
	case !idChars(l.Attempt, 128):
		return invalid("lifecycle event: the attempt must be 1-128 characters of A-Z a-z 0-9 . _ : -")
	case !skillName(l.Skill):
		return invalid("lifecycle event: %q is not a skill name (lowercase letters, digits and hyphens, at most 64)", clip(l.Skill))
	case !version(l.Version):
		return invalid("lifecycle event: the version %q is not a short version string", clip(l.Version))
	case !oneOf(l.Stage, stages):
		return invalid("lifecycle event: unknown stage %q (want started or finished)", clip(l.Stage))
	case l.Stage == "finished" && !oneOf(l.Outcome, outcomes):
		return invalid("lifecycle event: a finished event needs an outcome: succeeded, failed, abandoned or blocked (got %q)", clip(l.Outcome))
	case l.Stage == "started" && l.Outcome != "":
		return invalid("lifecycle event: a started event has no outcome")
	case l.Emitter == "" || len(l.Emitter) > 64 || !printable(l.Emitter):
		return invalid("lifecycle event: the emitter must be 1-64 printable characters")
	case l.Reason != "" && !idChars(l.Reason, 64):
		return invalid("lifecycle event: the reason must be a short code of at most 64 characters of A-Z a-z 0-9 . _ : - (no free text)")
	}
	if p := checkTime(l.At); p != "" {
		return invalid("lifecycle event %s", p)
	}
	return nil
}

// Validate checks the catalog observation; it returns an
// ASK_EVIDENCE_INVALID *askerr.Error naming the first problem.
func (c CatalogObservation) Validate() error {
	switch {
	case c.Collection == "" || len(c.Collection) > maxCollect || !printable(c.Collection) || strings.ContainsAny(c.Collection, " \\") ||
		strings.HasPrefix(c.Collection, "/") || strings.HasPrefix(c.Collection, ".") || strings.HasPrefix(c.Collection, "~") || winAbs(c.Collection) || strings.HasPrefix(c.Collection, "file:"):
		return invalid("catalog observation: the collection must be a logical identifier of at most %d characters, never a local path", maxCollect)
	case !digest(c.Digest):
		return invalid("catalog observation: the digest must be sha256: and 64 lowercase hex digits")
	case len(c.Skills) > maxCatalog:
		return invalid("catalog observation: more than %d skills", maxCatalog)
	}
	if p := checkTime(c.At); p != "" {
		return invalid("catalog observation %s", p)
	}
	seen := make(map[string]bool, len(c.Skills))
	for _, s := range c.Skills {
		switch {
		case !skillName(s.Name):
			return invalid("catalog observation: %q is not a skill name", clip(s.Name))
		case seen[s.Name]:
			return invalid("catalog observation: the skill %s is listed twice", s.Name)
		case !version(s.Version):
			return invalid("catalog observation: skill %s: the version %q is not a short version string", s.Name, clip(s.Version))
		case s.Digest != "" && !digest(s.Digest):
			return invalid("catalog observation: skill %s: the digest must be sha256: and 64 lowercase hex digits", s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// clip shortens untrusted text quoted in a message.
func clip(s string) string {
	if len(s) > 80 {
		s = s[:80]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		return s + "…"
	}
	return s
}
