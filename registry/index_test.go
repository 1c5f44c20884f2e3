package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

const goodIntegrity = "sha256-17RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk="

// indexYAML builds a one-skill index whose versions block is body.
func indexYAML(body string) string {
	return "schemaVersion: 1\nname: t\nskills:\n  - name: demo-skill\n    description: Demo.\n    versions:\n" + body
}

func TestDecodeIndexFixture(t *testing.T) {
	root := fixture(t)
	data, err := os.ReadFile(filepath.Join(root, indexPath))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := DecodeIndex(data, indexPath)
	if err != nil {
		t.Fatalf("DecodeIndex(fixture) = %v", err)
	}
	if got := len(idx.Skills); got != 7 {
		t.Fatalf("DecodeIndex(fixture) has %d skills, want 7", got)
	}
	s, ok := idx.Skill("java-law-of-demeter")
	if !ok || s.Latest != "1.2.0" || s.Versions[0].Path != "skills/java-law-of-demeter" {
		t.Fatalf("Skill(java-law-of-demeter) = %+v, %v", s, ok)
	}
	if s, _ := idx.Skill("java-optional"); s == nil || s.Keywords[0] != "java" {
		t.Fatalf("Skill(java-optional).Keywords = %v", s)
	}
	// The same index as JSON decodes to the same document.
	j, err := DecodeIndex(idx.EncodeJSON(), "index.json")
	if err != nil {
		t.Fatalf("DecodeIndex(EncodeJSON()) = %v", err)
	}
	if !bytes.Equal(j.EncodeYAML(), idx.EncodeYAML()) {
		t.Fatalf("JSON and YAML decodes differ:\n%s\n---\n%s", j.EncodeYAML(), idx.EncodeYAML())
	}
	// EncodeYAML is stable under a round trip.
	y, err := DecodeIndex(idx.EncodeYAML(), "again.yaml")
	if err != nil {
		t.Fatalf("DecodeIndex(EncodeYAML()) = %v", err)
	}
	if !bytes.Equal(y.EncodeYAML(), idx.EncodeYAML()) {
		t.Fatalf("EncodeYAML not stable")
	}
}

func TestDecodeIndexLatest(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"newest", "      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + "}\n      - {version: 1.10.0, path: b, integrity: " + goodIntegrity + "}\n      - {version: 1.9.0, path: c, integrity: " + goodIntegrity + "}\n", "1.10.0"},
		{"skips deprecated", "      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + "}\n      - {version: 2.0.0, path: b, integrity: " + goodIntegrity + ", deprecated: true}\n", "1.0.0"},
		{"skips prerelease", "      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + "}\n      - {version: 2.0.0-rc.1, path: b, integrity: " + goodIntegrity + "}\n", "1.0.0"},
		{"only prerelease", "      - {version: 2.0.0-rc.1, path: b, integrity: " + goodIntegrity + "}\n      - {version: 2.0.0-beta, path: c, integrity: " + goodIntegrity + "}\n", "2.0.0-rc.1"},
		{"all deprecated", "      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + ", deprecated: true}\n", ""},
	}
	for _, tt := range tests {
		idx, err := DecodeIndex([]byte(indexYAML(tt.body)), "x.yaml")
		if err != nil {
			t.Fatalf("%s: DecodeIndex = %v", tt.name, err)
		}
		s, _ := idx.Skill("demo-skill")
		if s.Latest != tt.want {
			t.Errorf("%s: Latest = %q, want %q", tt.name, s.Latest, tt.want)
		}
	}
}

// TestDecodeIndexHexIntegrity: the hexadecimal spelling docs/integrity.md
// documents is accepted in an index and read as the canonical base64 one,
// so the payload check and skills.lock see a single spelling (B17).
func TestDecodeIndexHexIntegrity(t *testing.T) {
	const hexForm = "sha256-d7b4504e1ed59e0d70974ad866e91b134dcec3b91b372de733728bec544b3299"
	for _, form := range []string{hexForm, "sha256-" + strings.ToUpper(hexForm[7:])} {
		doc := indexYAML("      - version: 1.0.0\n        path: skills/a\n        integrity: " + form + "\n")
		idx, err := DecodeIndex([]byte(doc), "x.yaml")
		if err != nil {
			t.Fatalf("DecodeIndex(integrity %s) = %v, want it accepted", form, err)
		}
		if got := idx.Skills[0].Versions[0].Integrity; got != goodIntegrity {
			t.Errorf("DecodeIndex(integrity %s) integrity = %q, want the canonical %q", form, got, goodIntegrity)
		}
	}
}

func TestDecodeIndexInvalid(t *testing.T) {
	v := func(extra string) string {
		return indexYAML("      - version: 1.0.0\n        path: skills/a\n        integrity: " + goodIntegrity + "\n" + extra)
	}
	tests := []struct {
		name, doc, want string
	}{
		{"syntax", "skills: [", "x.yaml:"},
		{"not mapping", "- a\n", "x.yaml:1:1: the index must be a mapping"},
		{"two documents", "schemaVersion: 1\n---\nschemaVersion: 1\n", "more than one YAML document"},
		{"schema too new", "schemaVersion: 2\nskills: []\n", "schema version 2 is not supported"},
		{"schema not int", "schemaVersion: one\nskills: []\n", "x.yaml:1:16: schemaVersion: must be an integer"},
		{"skills not list", "skills: {a: b}\n", "skills: must be a list"},
		{"bad name", strings.Replace(v(""), "demo-skill", "Demo_Skill", 1), "x.yaml:4:5: skills[0].name: name \"Demo_Skill\" contains uppercase letters (\"D\", \"S\"); names are lowercase; contains '_'"},
		{"double hyphen", strings.Replace(v(""), "demo-skill", "demo--skill", 1), `name "demo--skill" contains "--"`},
		{"long name", strings.Replace(v(""), "demo-skill", strings.Repeat("d", 65), 1), "is 65 characters; the limit is 64"},
		{"bad version", strings.Replace(v(""), "1.0.0", "1.0", 1), "x.yaml:7:9: skills[0].versions[0].version: \"1.0\" is not a strict semantic version"},
		{"duplicate version", v("      - {version: 1.0.0, path: skills/b, integrity: " + goodIntegrity + "}\n"), "duplicate version 1.0.0"},
		{"duplicate skill", v("  - name: demo-skill\n    versions: [{version: 1.0.0, path: x, integrity: " + goodIntegrity + "}]\n"), "duplicate skill \"demo-skill\""},
		{"path escapes", strings.Replace(v(""), "skills/a", "../../etc", 1), "unsafe path \"../../etc\""},
		{"absolute path", strings.Replace(v(""), "skills/a", "/etc/passwd", 1), `unsafe path "/etc/passwd": is absolute`},
		{"both", v("        tarball: a.tar.gz\n"), "found both"},
		{"neither", indexYAML("      - version: 1.0.0\n        integrity: " + goodIntegrity + "\n"), "found neither"},
		{"bad integrity", strings.Replace(v(""), goodIntegrity, "sha256-abc", 1), "is not sha256- followed by the base64 of 32 bytes"},
		{"hex integrity", strings.Replace(v(""), goodIntegrity, "sha512-abc", 1), "must start with sha256-"},
		{"missing integrity", indexYAML("      - version: 1.0.0\n        path: a\n"), "integrity is missing"},
		{"tarball scheme", indexYAML("      - version: 1.0.0\n        tarball: file:///etc/x.tar.gz\n        integrity: " + goodIntegrity + "\n"), "only https://"},
		{"latest unknown", strings.Replace(v(""), "    versions:", "    latest: 9.9.9\n    versions:", 1), "latest \"9.9.9\" is not one of the listed versions"},
		{"deprecated not bool", v("        deprecated: yes please\n"), "must be true or false"},
		{"publishedAt", v("        publishedAt: yesterday\n"), "not an RFC 3339 time stamp"},
		{"alias", "x: &a [1]\nskills: *a\n", "aliases are not allowed"},
		{"duplicate key", "skills: []\nskills: []\n", "duplicate key"},
		{"no versions", "skills:\n  - name: demo-skill\n    versions: []\n", "at least one version"},
		{"null name", "skills:\n  - name:\n    versions: [{version: 1.0.0, path: a, integrity: " + goodIntegrity + "}]\n", "must be a string, found null"},
		{"json syntax", `{"skills": [}`, "x.yaml:1:13"},
		{"json type", `{"skills": [{"name": 3}]}`, "expected string, found JSON number"},
	}
	for _, tt := range tests {
		_, err := DecodeIndex([]byte(tt.doc), "x.yaml")
		if err == nil {
			t.Errorf("%s: DecodeIndex(%q) = nil, want %q", tt.name, tt.doc, tt.want)
			continue
		}
		if codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: DecodeIndex(%q) = %s %v, want ASK_REGISTRY_INVALID_INDEX containing %q", tt.name, tt.doc, codeOf(err), err, tt.want)
		}
	}
}

func TestDecodeIndexLimits(t *testing.T) {
	lim := DefaultIndexLimits()
	lim.MaxBytes = 10
	if _, err := DecodeIndexLimits([]byte("skills: []\n# padding"), "x", lim); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
		t.Errorf("DecodeIndexLimits(size) = %v, want ASK_REGISTRY_INVALID_INDEX", err)
	}
	lim = DefaultIndexLimits()
	lim.MaxSkills = 1
	doc := "skills:\n  - {name: ab, versions: [{version: 1.0.0, path: a, integrity: " + goodIntegrity + "}]}\n  - {name: cd, versions: [{version: 1.0.0, path: a, integrity: " + goodIntegrity + "}]}\n"
	for _, file := range []string{"x.yaml", "x.json"} {
		data := []byte(doc)
		if file == "x.json" {
			idx, err := DecodeIndex(data, "x.yaml")
			if err != nil {
				t.Fatal(err)
			}
			data = idx.EncodeJSON()
		}
		if _, err := DecodeIndexLimits(data, file, lim); err == nil || !strings.Contains(err.Error(), "the limit is 1") {
			t.Errorf("DecodeIndexLimits(%s, 2 skills) = %v, want the limit", file, err)
		}
	}
}

// FuzzDecodeIndex feeds arbitrary bytes to the index decoder: it must
// never panic, and an accepted index must survive a re-encode.
func FuzzDecodeIndex(f *testing.F) {
	f.Add([]byte(indexYAML("      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + "}\n")))
	f.Add([]byte(`{"schemaVersion":1,"skills":[{"name":"ab","versions":[{"version":"1.0.0","tarball":"x.tar.gz","integrity":"` + goodIntegrity + `"}]}]}`))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("skills:\n  - name: ab\n    versions:\n      - version: 1.0.0-rc.1+b\n        path: ./x\n"))
	if data, err := os.ReadFile(filepath.Join(fixtureRoot, indexPath)); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := DecodeIndex(data, "fuzz.yaml")
		if err != nil {
			if codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
				t.Fatalf("DecodeIndex error without code: %v", err)
			}
			return
		}
		if _, err := DecodeIndex(idx.EncodeJSON(), "fuzz.json"); err != nil {
			t.Fatalf("re-decoding an accepted index failed: %v", err)
		}
	})
}

// TestCanonicalIntegrityShortcut: the allocation-free shortcut for an
// integrity already in canonical form agrees with decoding and
// re-encoding it, on canonical strings and on near misses.
func TestCanonicalIntegrityShortcut(t *testing.T) {
	reference := func(s string) (string, bool) {
		algo, sum, err := format.ParseIntegrity(s)
		if err != nil || algo != "sha256" || len(sum) != 32 {
			return "", false
		}
		return "sha256-" + base64.StdEncoding.EncodeToString(sum), true
	}
	var cases []string
	for i := range 64 {
		sum := sha256.Sum256([]byte{byte(i)})
		enc := base64.StdEncoding.EncodeToString(sum[:])
		cases = append(cases, enc, enc[:42]+"B=", enc[:42]+"/=", enc[:43], enc[:43]+"==",
			strings.ReplaceAll(enc, "+", "-"), strings.ReplaceAll(enc, "/", "_"), hex.EncodeToString(sum[:]))
	}
	for _, enc := range cases {
		s := "sha256-" + enc
		want, wantOK := reference(s)
		got, why := canonicalIntegrity(s)
		if (why == "") != wantOK || got != want {
			t.Errorf("canonicalIntegrity(%q) = %q, %q; want %q (ok %v)", s, got, why, want, wantOK)
		}
		if canonicalBase64Sum(enc) && (!wantOK || want != s) {
			t.Errorf("canonicalBase64Sum(%q) = true, but it is not canonical", enc)
		}
	}
}
