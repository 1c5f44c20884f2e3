package resolve

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const designLock = `lockfileVersion: 1
generatedWith: '@jvm-expert/agent-skills@1.0.0'
skills:
  java-basics:
    version: 1.2.3
    registry: official
    resolved: https://github.com/robsonkades/agent-skills.git#main:skills/java-basics
    integrity: sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
    agents: [claude-code, codex]
    dependencies: {}
  java-performance:
    version: 1.0.0
    registry: official
    resolved: https://github.com/robsonkades/agent-skills.git#main:skills/java-performance
    integrity: sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
    agents: [claude-code, codex]
    dependencies:
      java-basics: 1.2.3
`

func designLockValue() *Lock {
	return &Lock{
		LockfileVersion: 1,
		GeneratedWith:   "@jvm-expert/agent-skills@1.0.0",
		Skills: map[string]LockedSkill{
			"java-performance": {
				Version:      "1.0.0",
				Registry:     "official",
				Resolved:     "https://github.com/robsonkades/agent-skills.git#main:skills/java-performance",
				Integrity:    "sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
				Agents:       []string{"codex", "claude-code"},
				Dependencies: map[string]string{"java-basics": "1.2.3"},
			},
			"java-basics": {
				Version:   "1.2.3",
				Registry:  "official",
				Resolved:  "https://github.com/robsonkades/agent-skills.git#main:skills/java-basics",
				Integrity: "sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
				Agents:    []string{"claude-code", "codex"},
			},
		},
	}
}

func TestEncodeLock(t *testing.T) {
	got := string(designLockValue().Encode())
	if got != designLock {
		t.Errorf("Encode() =\n%s\nwant\n%s", got, designLock)
	}
	empty := string((&Lock{}).Encode())
	if want := "lockfileVersion: 2\nskills: {}\n"; empty != want {
		t.Errorf("Encode(empty) = %q, want %q", empty, want)
	}
}

func TestDecodeLockRoundTrip(t *testing.T) {
	l, err := DecodeLock([]byte(designLock), "skills.lock")
	if err != nil {
		t.Fatalf("DecodeLock(design) = %v", err)
	}
	if got := string(l.Encode()); got != designLock {
		t.Errorf("Encode(DecodeLock(design)) =\n%s\nwant\n%s", got, designLock)
	}
	if got := l.Skills["java-performance"].Dependencies["java-basics"]; got != "1.2.3" {
		t.Errorf("DecodeLock(design) java-performance deps = %q, want 1.2.3", got)
	}
	if got, want := l.Pins()["java-basics"], (Pin{Version: "1.2.3", Registry: "official"}); got != want {
		t.Errorf("Pins()[java-basics] = %+v, want %+v", got, want)
	}
}

// TestEncodeLockMinimalDiff checks that changing or adding one skill
// changes only that skill's lines.
func TestEncodeLockMinimalDiff(t *testing.T) {
	before := strings.Split(string(designLockValue().Encode()), "\n")

	changed := designLockValue()
	s := changed.Skills["java-basics"]
	s.Integrity = "sha256-0000000000000000000000000000000000000000000000000000000000000000"
	changed.Skills["java-basics"] = s
	after := strings.Split(string(changed.Encode()), "\n")
	if len(after) != len(before) {
		t.Fatalf("changing one field changed the line count from %d to %d", len(before), len(after))
	}
	var diff []string
	for i := range before {
		if before[i] != after[i] {
			diff = append(diff, after[i])
		}
	}
	if want := []string{"    integrity: sha256-0000000000000000000000000000000000000000000000000000000000000000"}; !reflect.DeepEqual(diff, want) {
		t.Errorf("changing java-basics' integrity changed lines %q, want %q", diff, want)
	}

	added := designLockValue()
	added.Skills["java-collections"] = LockedSkill{Version: "2.0.0", Registry: "official", Agents: []string{"codex"}}
	lines := strings.Split(string(added.Encode()), "\n")
	// The new block is inserted in name order; every old line stays, in order.
	start := -1
	for i, l := range lines {
		if l == "  java-collections:" {
			start = i
		}
	}
	if start < 0 {
		t.Fatalf("Encode() has no java-collections block:\n%s", strings.Join(lines, "\n"))
	}
	rest := append(append([]string{}, lines[:start]...), lines[start+5:]...)
	if !reflect.DeepEqual(rest, before) {
		t.Errorf("adding a skill changed other lines:\n%s", strings.Join(lines, "\n"))
	}
}

func TestEncodeLockQuoting(t *testing.T) {
	weird := []string{
		"yes", "No", "null", "~", "1.0", "2026-01-01", "0x1f", "1e3", "a: b", "#x", "x #y",
		"'q'", "\"dq\"", "new\nline", "tab\there", "@scope/pkg", "ünïcode", "trailing:", "[a]", "{b}",
		"a,b", "-dash", "1.2.3", "1.2.3-beta.1", "https://h/x.git#main:skills/x", "*", "&anchor", "!tag", "%pct",
	}
	for _, w := range weird {
		l := &Lock{
			GeneratedWith: w,
			Skills: map[string]LockedSkill{
				"some-skill": {Version: "1.0.0", Registry: w, Resolved: w, Agents: []string{w}, Source: w},
			},
		}
		got, err := DecodeLock(l.Encode(), "skills.lock")
		if err != nil {
			t.Errorf("DecodeLock(Encode(%q)) = %v\n%s", w, err, l.Encode())
			continue
		}
		s := got.Skills["some-skill"]
		if got.GeneratedWith != w || s.Registry != w || s.Resolved != w || s.Source != w || !reflect.DeepEqual(s.Agents, []string{w}) {
			t.Errorf("DecodeLock(Encode(%q)) = %+v %+v, want the string back everywhere\n%s", w, got, s, l.Encode())
		}
	}
}

func TestDecodeLockErrors(t *testing.T) {
	tests := []struct {
		name, in string
		code     string
		details  []string
	}{
		{"empty", "", "ASK_LOCK_INVALID", []string{"skills.lock:1:1: the file is empty"}},
		{"syntax", "lockfileVersion: 1\nskills:\n  a: [\n", "ASK_LOCK_INVALID", nil},
		{"not a mapping", "- a\n", "ASK_LOCK_INVALID", []string{"skills.lock:1:1: the top level must be a mapping with lockfileVersion, generatedWith and skills"}},
		{"missing version", "skills: {}\n", "ASK_LOCK_INVALID", []string{"skills.lock:1:1: lockfileVersion is missing"}},
		{"version not int", "lockfileVersion: '1'\nskills: {}\n", "ASK_LOCK_INVALID", []string{"skills.lock:1:18: lockfileVersion must be a positive integer"}},
		{"newer", "lockfileVersion: 3\nskills: {whatever: 1}\n", "ASK_LOCK_UNSUPPORTED", []string{"This agent-skills reads lockfileVersion 1 to 2."}},
		{"two documents", "lockfileVersion: 1\n---\nlockfileVersion: 1\n", "ASK_LOCK_INVALID", []string{"skills.lock:2:1: a lock file holds one YAML document"}},
		{"unknown keys and bad fields", `lockfileVersion: 1
extra: true
skills:
  Bad_Name:
    version: 1.0.0
    registry: official
  good-one:
    version: 1.0
    registry: official
    agents: codex
    color: blue
  dep-user:
    version: 1.0.0
    source: https://example.com/x.git
    dependencies:
      ghost: 1.0.0
      other: 2.0.0
  other:
    version: 1.0.0
    registry: official
  no-version:
    registry: official
`, "ASK_LOCK_INVALID", []string{
			`skills.lock:2:1: unknown key "extra" (expected lockfileVersion, generatedWith, registries or skills)`,
			`skills.lock:4:3: "Bad_Name" is not a valid skill name`,
			`skills.lock:8:14: skills.good-one.version must be a string (quote it)`,
			`skills.lock:10:13: skills.good-one.agents must be a list of agent ids`,
			`skills.lock:11:5: unknown key "color" in skills.good-one`,
			`skills.lock:16:7: skills.dep-user depends on ghost, which the lock does not list`,
			`skills.lock:17:7: skills.dep-user depends on other@2.0.0, but the lock lists other@1.0.0`,
			`skills.lock:21:3: skills.no-version has no version`,
		}},
		{"duplicate key", "lockfileVersion: 1\nlockfileVersion: 1\n", "ASK_LOCK_INVALID", nil},
		{"no registry", "lockfileVersion: 1\nskills:\n  aa:\n    version: 1.0.0\n", "ASK_LOCK_INVALID", []string{"skills.lock:3:3: skills.aa has neither a registry nor a source"}},
	}
	for _, tt := range tests {
		_, err := DecodeLock([]byte(tt.in), "skills.lock")
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("DecodeLock(%s) = %v, want an *Error", tt.name, err)
			continue
		}
		if e.Code != tt.code {
			t.Errorf("DecodeLock(%s) code = %s, want %s (%v)", tt.name, e.Code, tt.code, err)
		}
		if tt.details != nil && !reflect.DeepEqual(e.Detail, tt.details) {
			t.Errorf("DecodeLock(%s) details =\n%s\nwant\n%s", tt.name, strings.Join(e.Detail, "\n"), strings.Join(tt.details, "\n"))
		}
		if tt.details == nil && (len(e.Detail) == 0 || !strings.HasPrefix(e.Detail[0], "skills.lock:")) {
			t.Errorf("DecodeLock(%s) details = %q, want a located problem", tt.name, e.Detail)
		}
	}
}

func FuzzDecodeLock(f *testing.F) {
	f.Add([]byte(designLock))
	f.Add([]byte("lockfileVersion: 1\nskills: {}\n"))
	f.Add([]byte("lockfileVersion: 1\nskills:\n  aa:\n    version: 1.0.0\n    registry: 'x y'\n    agents: [\"a\\tb\"]\n"))
	f.Add([]byte("lockfileVersion: 2\n"))
	f.Add([]byte("lockfileVersion: 2\nregistries:\n  team: {kind: git, url: 'git@h:o/r.git', ref: main}\nskills:\n  aa:\n    version: 1.0.0\n    source: ./x\n"))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := DecodeLock(data, "skills.lock")
		if err != nil {
			return
		}
		out := l.Encode()
		l2, err := DecodeLock(out, "skills.lock")
		if err != nil {
			t.Fatalf("DecodeLock(Encode(lock)) = %v\n%s", err, out)
		}
		if out2 := l2.Encode(); string(out2) != string(out) {
			t.Fatalf("Encode is not stable:\n%s\nthen\n%s", out, out2)
		}
	})
}

func TestLockSourceRefRoundTrip(t *testing.T) {
	l := &Lock{LockfileVersion: 1, GeneratedWith: "agent-skills@test", Skills: map[string]LockedSkill{
		"alpha": {Version: "1.0.0", Source: "github:acme/skills", Ref: "v1.0.0", Commit: strings.Repeat("a", 40),
			Subpath: "skills/alpha", Resolved: "https://github.com/acme/skills.git#" + strings.Repeat("a", 40) + ":skills/alpha",
			Integrity: "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", Dependencies: map[string]string{}},
	}}
	data := l.Encode()
	if !strings.Contains(string(data), "    ref: v1.0.0\n") {
		t.Fatalf("Encode() lacks the ref line:\n%s", data)
	}
	got, err := DecodeLock(data, "skills.lock")
	if err != nil {
		t.Fatalf("DecodeLock(Encode()) = %v", err)
	}
	if got.Skills["alpha"].Ref != "v1.0.0" {
		t.Errorf("DecodeLock(Encode()).Ref = %q, want v1.0.0", got.Skills["alpha"].Ref)
	}
	if string(got.Encode()) != string(data) {
		t.Errorf("re-encoding changed the bytes")
	}
}

// TestDecodeLockVersion1 reads a lock as agent-skills 0.1.0 wrote it
// (lockfileVersion 1, no registries section): it stays readable, and
// encoding it at its own version gives back the same bytes.
func TestDecodeLockVersion1(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lock", "v1.lock"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := DecodeLock(data, "skills.lock")
	if err != nil {
		t.Fatalf("DecodeLock(v1.lock) = %v", err)
	}
	if l.LockfileVersion != 1 || l.Registries != nil {
		t.Errorf("DecodeLock(v1.lock) = version %d, registries %v; want 1, none", l.LockfileVersion, l.Registries)
	}
	if got := l.Skills["team-style"]; got.Registry != "team" || got.Dependencies["java-basics"] != "1.2.0" {
		t.Errorf("DecodeLock(v1.lock) team-style = %+v", got)
	}
	if got := string(l.Encode()); got != string(data) {
		t.Errorf("Encode(DecodeLock(v1.lock)) =\n%s\nwant\n%s", got, data)
	}
}

// TestLockRegistriesRoundTrip reads and writes a version-2 lock with a
// registries section and project-relative folders, byte for byte.
func TestLockRegistriesRoundTrip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lock", "v2.lock"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := DecodeLock(data, "skills.lock")
	if err != nil {
		t.Fatalf("DecodeLock(v2.lock) = %v", err)
	}
	want := map[string]LockedRegistry{
		"bundled":   {Kind: "bundled", URL: "bundled:"},
		"local-reg": {Kind: "local", URL: "./registry"},
		"team":      {Kind: "git", URL: "git@git.example.com:team/skills.git", Ref: "main"},
	}
	if !reflect.DeepEqual(l.Registries, want) {
		t.Errorf("DecodeLock(v2.lock).Registries = %+v, want %+v", l.Registries, want)
	}
	if got := l.Skills["local-notes"].Source; got != "./skills-local/local-notes" {
		t.Errorf("DecodeLock(v2.lock) local-notes source = %q, want ./skills-local/local-notes", got)
	}
	if got := string(l.Encode()); got != string(data) {
		t.Errorf("Encode(DecodeLock(v2.lock)) =\n%s\nwant\n%s", got, data)
	}
	// A lock without a version writes the current one.
	l.LockfileVersion = 0
	if got := string(l.Encode()); got != string(data) {
		t.Errorf("Encode(version 0) =\n%s\nwant\n%s", got, data)
	}
}

// TestDecodeLockRegistryProblems: what a registries section, and a
// relative folder, must not hold — every problem at its line and column.
func TestDecodeLockRegistryProblems(t *testing.T) {
	const skill = "skills:\n  aa:\n    version: 1.0.0\n    registry: team\n"
	tests := []struct {
		name, in string
		details  []string
	}{
		{"registries in a version-1 lock", "lockfileVersion: 1\nregistries:\n  team: {kind: git, url: 'https://h/r.git'}\n" + skill,
			[]string{"skills.lock:2:1: registries needs lockfileVersion 2 or later (this lock says 1)"}},
		{"not a mapping", "lockfileVersion: 2\nregistries: [team]\n" + skill,
			[]string{"skills.lock:2:13: registries must be a mapping from registry name to its kind and url"}},
		{"entry problems", `lockfileVersion: 2
registries:
  Team:
    kind: svn
    url: https://h/r
  nourl:
    kind: git
  local:
    kind: local
    url: /srv/reg
    ref: main
  odd:
    kind: git
    url: https://h/r.git
    colour: red
` + skill, []string{
			`skills.lock:3:3: "Team" is not a valid registry name (1-64 lowercase letters, digits and hyphens)`,
			`skills.lock:4:11: registries.Team.kind "svn" is not one of local, git, http, oci, bundled`,
			`skills.lock:6:3: registries.nourl has no url`,
			`skills.lock:11:10: registries.local.ref applies to git registries only, not local`,
			`skills.lock:15:5: unknown key "colour" in registries.odd (expected kind, url or ref)`,
		}},
		{"credentials", `lockfileVersion: 2
registries:
  a:
    kind: git
    url: https://alice:s3cret@h/r.git
  b:
    kind: http
    url: https://ghp_token@h/index.json
  c:
    kind: git
    url: ssh://git:pw@h/r.git
` + skill, []string{
			`skills.lock:5:10: registries.a.url carries a password; credentials never go in skills.lock (git credential helpers keep them)`,
			`skills.lock:8:10: registries.b.url carries user information; credentials never go in skills.lock (git credential helpers keep them)`,
			`skills.lock:11:10: registries.c.url carries a password; credentials never go in skills.lock (git credential helpers keep them)`,
		}},
		{"relative paths that leave the project", `lockfileVersion: 2
registries:
  a:
    kind: local
    url: ../elsewhere
skills:
  aa:
    version: 1.0.0
    source: ./skills/../../etc
  bb:
    version: 1.0.0
    source: ./a//b
    resolved: ./x/
`, []string{
			`skills.lock:5:10: registries.a.url "../elsewhere" leaves the project; a relative path must stay inside it`,
			`skills.lock:9:13: skills.aa.source "./skills/../../etc" leaves the project; a relative path must stay inside it`,
			`skills.lock:12:13: skills.bb.source "./a//b" must be a clean path below the project root, written ./path`,
			`skills.lock:13:15: skills.bb.resolved "./x/" must be a clean path below the project root, written ./path`,
		}},
	}
	for _, tt := range tests {
		_, err := DecodeLock([]byte(tt.in), "skills.lock")
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeLockInvalid {
			t.Errorf("DecodeLock(%s) = %v, want %s", tt.name, err, CodeLockInvalid)
			continue
		}
		if !reflect.DeepEqual(e.Detail, tt.details) {
			t.Errorf("DecodeLock(%s) details =\n%s\nwant\n%s", tt.name, strings.Join(e.Detail, "\n"), strings.Join(tt.details, "\n"))
		}
	}
	// An ssh user is how the registry is reached, not a credential.
	ok := "lockfileVersion: 2\nregistries:\n  team:\n    kind: git\n    url: ssh://git@h/r.git\n" + skill
	if _, err := DecodeLock([]byte(ok), "skills.lock"); err != nil {
		t.Errorf("DecodeLock(ssh user) = %v, want nil", err)
	}
}

// TestLockDisabledRoundTrip: disabled is optional and written only when
// true; a disabled skill reads back.
func TestLockDisabledRoundTrip(t *testing.T) {
	l := designLockValue()
	if strings.Contains(string(l.Encode()), "disabled") {
		t.Fatalf("Encode() of a lock without disabled skills writes disabled:\n%s", l.Encode())
	}
	s := l.Skills["java-basics"]
	s.Disabled = true
	l.Skills["java-basics"] = s
	data := l.Encode()
	if want := "    agents: [claude-code, codex]\n    disabled: true\n    dependencies: {}\n"; !strings.Contains(string(data), want) {
		t.Fatalf("Encode() =\n%s\nwant it to hold\n%s", data, want)
	}
	got, err := DecodeLock(data, "skills.lock")
	if err != nil {
		t.Fatalf("DecodeLock(Encode()) = %v", err)
	}
	if !got.Skills["java-basics"].Disabled || got.Skills["java-performance"].Disabled {
		t.Errorf("DecodeLock(Encode()) disabled = %v, %v; want true, false", got.Skills["java-basics"].Disabled, got.Skills["java-performance"].Disabled)
	}
	if string(got.Encode()) != string(data) {
		t.Errorf("re-encoding changed the bytes")
	}
	_, err = DecodeLock([]byte("lockfileVersion: 1\nskills:\n  aa:\n    version: 1.0.0\n    registry: x\n    disabled: maybe\n"), "skills.lock")
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeLockInvalid || !strings.Contains(strings.Join(e.Detail, "\n"), "skills.lock:6:15: skills.aa.disabled must be true or false") {
		t.Errorf("DecodeLock(disabled: maybe) = %v %v, want ASK_LOCK_INVALID at 6:15", err, askDetail(e))
	}
}

func askDetail(e *Error) []string {
	if e == nil {
		return nil
	}
	return e.Detail
}

// TestLockQuotesLineBreakCharacters: a value holding a character YAML
// reads as a line break (NEL, LS, PS), a C1 control or a BOM reads back
// unchanged — inside single quotes a line break would fold to a space.
func TestLockQuotesLineBreakCharacters(t *testing.T) {
	for _, v := range []string{"a\u0085b", "\u0085", "a\u2028b", "a\u2029", "\ufeffa", "a\u009bb", "a\u007fb"} {
		l := &Lock{LockfileVersion: LockfileVersion, Skills: map[string]LockedSkill{
			"aa": {Version: "1.0.0", Registry: "x", Resolved: v, Agents: []string{v}},
		}}
		got, err := DecodeLock(l.Encode(), "skills.lock")
		if err != nil {
			t.Fatalf("DecodeLock(Encode(%q)) = %v\n%s", v, err, l.Encode())
		}
		if s := got.Skills["aa"]; s.Resolved != v || len(s.Agents) != 1 || s.Agents[0] != v {
			t.Errorf("%q read back as resolved %q, agents %q\n%s", v, s.Resolved, s.Agents, l.Encode())
		}
	}
}
