package format

import (
	"reflect"
	"strings"
	"testing"
)

const fullManifest = `schemaVersion: 1
name: java-performance
kind: skill
version: 1.0
description: Java performance engineering skill.
license: Apache-2.0
keywords: [java, jvm]
authors:
  - name: Jane Doe
    email: jane@example.com
    url: https://example.com
  - "John Roe <john@example.com> (https://john.example)"
homepage: https://example.com/java-performance
repository:
  type: git
  url: https://github.com/org/agent-skills
  directory: skills/java-performance
compatibility:
  agents:
    - id: claude-code
      minVersion: '>=2.0.0'
    - id: codex
files:
  - SKILL.md
  - skill.yaml
  - references/
dependencies:
  - name: java-basics
    version: '^1.2.0'
optionalDependencies:
  - name: jvm-gc-tuning
    version: '^2.0.0'
suggests:
  - flame-graph-analysis
capabilities:
  - reads-source
integrity: sha256-abc
signatures: [{keyid: k1, sig: xyz}]
agentOverrides:
  codex:
    interface:
      display_name: Java Performance
futureField: true
`

func TestDecodeManifestFull(t *testing.T) {
	m, diags := DecodeManifest([]byte(fullManifest), "skill.yaml")
	if len(diags) != 0 {
		t.Fatalf("DecodeManifest(full) diagnostics = %v, want none", diags)
	}
	want := &Manifest{
		File: "skill.yaml", SchemaVersion: 1, Name: "java-performance", Kind: KindSkill,
		Version: "1.0", Description: "Java performance engineering skill.", License: "Apache-2.0",
		Keywords: []string{"java", "jvm"},
		Authors: []Person{
			{Name: "Jane Doe", Email: "jane@example.com", URL: "https://example.com"},
			{Name: "John Roe", Email: "john@example.com", URL: "https://john.example"},
		},
		Homepage:   "https://example.com/java-performance",
		Repository: &Repository{Type: "git", URL: "https://github.com/org/agent-skills", Directory: "skills/java-performance"},
		Compatibility: Compatibility{Agents: []AgentCompat{
			{ID: "claude-code", MinVersion: ">=2.0.0"}, {ID: "codex"},
		}},
		Files:                []string{"SKILL.md", "skill.yaml", "references/"},
		Dependencies:         []Dependency{{Name: "java-basics", Version: "^1.2.0"}},
		OptionalDependencies: []Dependency{{Name: "jvm-gc-tuning", Version: "^2.0.0"}},
		Suggests:             []string{"flame-graph-analysis"},
		Capabilities:         []string{"reads-source"},
		Integrity:            "sha256-abc",
		Signatures:           []any{map[string]any{"keyid": "k1", "sig": "xyz"}},
		AgentOverrides: map[string]map[string]any{
			"codex": {"interface": map[string]any{"display_name": "Java Performance"}},
		},
		UnknownKeys: []Key{{Name: "futureField", Pos: Pos{Line: 43, Col: 1}}},
	}
	m.positions, m.keys = nil, nil
	if !reflect.DeepEqual(m, want) {
		t.Errorf("DecodeManifest(full) =\n%#v\nwant\n%#v", m, want)
	}
}

func TestManifestPositions(t *testing.T) {
	m, _ := DecodeManifest([]byte(fullManifest), "skill.yaml")
	tests := []struct {
		path string
		want Pos
	}{
		{"name", Pos{2, 7}},
		{"version", Pos{4, 10}},
		{"keywords[1]", Pos{7, 18}},
		{"authors[0].email", Pos{10, 12}},
		{"authors[1]", Pos{12, 5}},
		{"repository.url", Pos{16, 8}},
		{"compatibility.agents[0].minVersion", Pos{21, 19}},
		{"files[2]", Pos{26, 5}},
		{"dependencies[0].version", Pos{29, 14}},
		{"optionalDependencies[0].name", Pos{31, 11}},
		{"agentOverrides.codex.interface", Pos{42, 7}},
		{"agentOverrides.codex.interface.display_name", Pos{42, 21}},
		{"futureField", Pos{43, 14}},
		{"nope", Pos{}},
	}
	for _, tt := range tests {
		if got := m.Pos(tt.path); got != tt.want {
			t.Errorf("Manifest.Pos(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	if got := m.KeyPos("agentOverrides.codex.interface"); got != (Pos{41, 5}) {
		t.Errorf("Manifest.KeyPos(%q) = %v, want %v", "agentOverrides.codex.interface", got, Pos{41, 5})
	}
	if !m.Has("integrity") || m.Has("homepage.x") {
		t.Errorf("Manifest.Has(integrity, homepage.x) = %v, %v; want true, false", m.Has("integrity"), m.Has("homepage.x"))
	}
}

func TestDecodeManifestDefaults(t *testing.T) {
	m, diags := DecodeManifest([]byte("name: a\ndescription:\nrepository: https://x.example/r\nauthors: [\"Solo\"]\n"), "skill.yaml")
	if len(diags) != 0 {
		t.Fatalf("DecodeManifest diagnostics = %v, want none", diags)
	}
	if m.SchemaVersion != 1 || m.Kind != KindSkill || m.Has("kind") {
		t.Errorf("DecodeManifest(defaults) = schemaVersion %d kind %q has(kind) %v, want 1 skill false", m.SchemaVersion, m.Kind, m.Has("kind"))
	}
	if !m.Has("description") || m.Description != "" {
		t.Errorf("DecodeManifest(null description) = %q has %v, want \"\" true", m.Description, m.Has("description"))
	}
	if m.Repository == nil || m.Repository.URL != "https://x.example/r" {
		t.Errorf("DecodeManifest(short repository) = %+v, want URL https://x.example/r", m.Repository)
	}
	if len(m.Authors) != 1 || m.Authors[0] != (Person{Name: "Solo"}) {
		t.Errorf("DecodeManifest(short author) = %+v, want [{Solo}]", m.Authors)
	}
}

func TestDecodeManifestKeepsUnknownKind(t *testing.T) {
	m, diags := DecodeManifest([]byte("name: a\nkind: plugin\n"), "skill.yaml")
	if len(diags) != 0 || m.Kind != "plugin" || m.Kind.Valid() {
		t.Errorf("DecodeManifest(kind: plugin) = %q valid=%v %v, want plugin false no diagnostics", m.Kind, m.Kind.Valid(), diags)
	}
}

func TestDecodeManifestUnknownNested(t *testing.T) {
	m, diags := DecodeManifest([]byte("repository:\n  url: u\n  branch: main\ndependencies:\n  - name: a\n    version: ^1\n    optional: true\n"), "skill.yaml")
	if len(diags) != 0 {
		t.Fatalf("diagnostics = %v, want none", diags)
	}
	want := []Key{{"repository.branch", Pos{3, 3}}, {"dependencies[0].optional", Pos{7, 5}}}
	if !reflect.DeepEqual(m.UnknownNested, want) {
		t.Errorf("DecodeManifest().UnknownNested = %v, want %v", m.UnknownNested, want)
	}
	if len(m.UnknownKeys) != 0 {
		t.Errorf("DecodeManifest().UnknownKeys = %v, want none", m.UnknownKeys)
	}
}

// diagSummary renders diagnostics as "line:col CODE" for comparisons.
func diagSummary(ds Diagnostics) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, strings.Join([]string{itoa(d.Line) + ":" + itoa(d.Col), d.Code}, " "))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	if neg {
		s = "-" + s
	}
	return s
}

func TestDecodeManifestProblems(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantNil bool
		msg     string // a fragment the first message must contain
	}{
		{"empty", "", []string{"0:0 ASK_MANIFEST_INVALID"}, true, "empty"},
		{"comment only", "# nothing\n", []string{"0:0 ASK_MANIFEST_INVALID"}, true, "empty"},
		{"not a mapping", "- a\n- b\n", []string{"1:1 ASK_MANIFEST_INVALID"}, true, "found a list"},
		{"scalar root", "hello\n", []string{"1:1 ASK_MANIFEST_INVALID"}, true, "found a string"},
		{"syntax", "name: a\n  bad: [\n", []string{"2:1 ASK_MANIFEST_INVALID"}, true, "not valid YAML"},
		{"syntax line 3", "name: a\nversion: 1\n b: 2\n", []string{"3:1 ASK_MANIFEST_INVALID"}, true, "not valid YAML"},
		{"multi document", "name: a\n---\nname: b\n", []string{"2:1 ASK_MANIFEST_INVALID"}, false, "more than one YAML document"},
		{"duplicate keys", "name: a\nversion: 1.0.0\nname: b\n", []string{"3:1 ASK_MANIFEST_INVALID"}, false, "appears twice"},
		{"alias", "a: &x [1]\nkeywords: *x\n", []string{"2:11 ASK_MANIFEST_INVALID"}, false, "alias"},
		{"merge key", "base: &b {x: 1}\nrepository:\n  <<: *b\n", []string{"3:3 ASK_MANIFEST_INVALID", "3:7 ASK_MANIFEST_INVALID"}, false, "merge key"},
		{"files scalar", "files: 3\n", []string{"1:8 ASK_MANIFEST_INVALID"}, false, "files must be a list of strings, found a number"},
		{"keywords mapping", "keywords: {a: b}\n", []string{"1:11 ASK_MANIFEST_INVALID"}, false, "found a mapping"},
		{"name list", "name: [a]\n", []string{"1:7 ASK_MANIFEST_INVALID"}, false, "name must be a string"},
		{"files element", "files:\n  - SKILL.md\n  - [x]\n  - ~\n", []string{"3:5 ASK_MANIFEST_INVALID", "4:5 ASK_MANIFEST_INVALID"}, false, "files[1] must be a string"},
		{"dependency scalar", "dependencies:\n  - java-basics\n", []string{"2:5 ASK_MANIFEST_INVALID"}, false, "dependencies[0] must be a mapping"},
		{"dependencies mapping", "dependencies: {a: ^1}\n", []string{"1:15 ASK_MANIFEST_INVALID"}, false, "list of {name, version}"},
		{"author number list", "authors: 3\n", []string{"1:10 ASK_MANIFEST_INVALID"}, false, "authors must be"},
		{"repository list", "repository: [a]\n", []string{"1:13 ASK_MANIFEST_INVALID"}, false, "repository must be"},
		{"compatibility list", "compatibility: [codex]\n", []string{"1:16 ASK_MANIFEST_INVALID"}, false, "compatibility must be"},
		{"compat agents scalar", "compatibility:\n  agents: codex\n", []string{"2:11 ASK_MANIFEST_INVALID"}, false, "compatibility.agents must be"},
		{"signatures mapping", "signatures: {a: 1}\n", []string{"1:13 ASK_MANIFEST_INVALID"}, false, "signatures must be a list"},
		{"overrides list", "agentOverrides: [a]\n", []string{"1:17 ASK_MANIFEST_INVALID"}, false, "agentOverrides must be"},
		{"override scalar", "agentOverrides:\n  codex: 1\n", []string{"2:10 ASK_MANIFEST_INVALID"}, false, "agentOverrides.codex must be"},
		{"schema string", "schemaVersion: '1'\n", []string{"1:16 ASK_MANIFEST_INVALID"}, false, "schemaVersion must be an integer"},
		{"schema zero", "schemaVersion: 0\n", []string{"1:16 ASK_MANIFEST_INVALID"}, false, "positive integer"},
		{"schema newer", "schemaVersion: 2\nfiles: 3\n", []string{"1:16 ASK_MANIFEST_SCHEMA_UNSUPPORTED"}, false, "newer agent-skills"},
		{"many problems", "name: [a]\nfiles: 3\nkeywords: {a: 1}\n", []string{"1:7 ASK_MANIFEST_INVALID", "2:8 ASK_MANIFEST_INVALID", "3:11 ASK_MANIFEST_INVALID"}, false, "name"},
		{"too large", "name: a\n" + strings.Repeat("# pad\n", 200_000), []string{"0:0 ASK_PACKAGE_TOO_LARGE"}, true, "1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := DecodeManifest([]byte(tt.in), "skill.yaml")
			if got := diagSummary(diags); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecodeManifest(%q) = %v, want %v", tt.in, diags, tt.want)
			}
			if (m == nil) != tt.wantNil {
				t.Errorf("DecodeManifest(%q) manifest = %v, want nil %v", tt.in, m, tt.wantNil)
			}
			if len(diags) > 0 {
				if !strings.Contains(diags[0].Message, tt.msg) {
					t.Errorf("DecodeManifest(%q) message = %q, want it to contain %q", tt.in, diags[0].Message, tt.msg)
				}
				if diags[0].File != "skill.yaml" && diags[0].Code != "ASK_PACKAGE_TOO_LARGE" || diags[0].Fix == "" {
					t.Errorf("DecodeManifest(%q) = %+v, want file skill.yaml and a fix", tt.in, diags[0])
				}
			}
		})
	}
}

func TestDecodeManifestDeepNesting(t *testing.T) {
	in := "agentOverrides:\n  codex:\n    x: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n"
	_, diags := DecodeManifest([]byte(in), "skill.yaml")
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "nests deeper") {
		t.Errorf("DecodeManifest(deep) = %v, want one nesting diagnostic", diags)
	}
}

func TestDecodeManifestAliasBomb(t *testing.T) {
	in := `a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
signatures: [*g,*g,*g,*g,*g,*g,*g,*g,*g]
`
	m, diags := DecodeManifest([]byte(in), "skill.yaml")
	if !diags.HasErrors() {
		t.Fatalf("DecodeManifest(alias bomb) = no errors, want alias errors")
	}
	if len(m.Signatures) != 9 || m.Signatures[0] != nil {
		t.Errorf("DecodeManifest(alias bomb).Signatures = %v, want 9 unexpanded nils", m.Signatures)
	}
}

func TestParsePerson(t *testing.T) {
	tests := []struct {
		in   string
		want Person
	}{
		{"Jane Doe <jane@example.com> (https://jane.example)", Person{"Jane Doe", "jane@example.com", "https://jane.example"}},
		{"Jane Doe", Person{Name: "Jane Doe"}},
		{"<a@b.c>", Person{Email: "a@b.c"}},
		{"Jane (https://x) <j@x>", Person{"Jane", "j@x", "https://x"}},
		{"  Spaced   Name  ", Person{Name: "Spaced Name"}},
		{"Broken <email", Person{Name: "Broken <email"}},
	}
	for _, tt := range tests {
		if got := ParsePerson(tt.in); got != tt.want {
			t.Errorf("ParsePerson(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if got := (Person{"Jane Doe", "jane@example.com", "https://jane.example"}).String(); got != tests[0].in {
		t.Errorf("Person.String() = %q, want %q", got, tests[0].in)
	}
}

func TestKnownManifestKeys(t *testing.T) {
	keys := KnownManifestKeys()
	if len(keys) != 19 || keys[0] != "schemaVersion" || keys[18] != "agentOverrides" {
		t.Errorf("KnownManifestKeys() = %v, want the 19 keys of DESIGN §3.3", keys)
	}
	keys[0] = "changed"
	if KnownManifestKeys()[0] != "schemaVersion" {
		t.Errorf("KnownManifestKeys() shares its slice with callers")
	}
}
