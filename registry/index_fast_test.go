package registry

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// diffIndex describes how two decoded (not yet checked) indexes differ,
// positions included, or returns "".
func diffIndex(a, b *Index) string {
	if a.SchemaVersion != b.SchemaVersion || a.Name != b.Name || a.UpdatedAt != b.UpdatedAt {
		return fmt.Sprintf("header %d %q %q != %d %q %q", a.SchemaVersion, a.Name, a.UpdatedAt, b.SchemaVersion, b.Name, b.UpdatedAt)
	}
	if (a.Skills == nil) != (b.Skills == nil) || len(a.Skills) != len(b.Skills) {
		return fmt.Sprintf("skills: %d (nil %v) != %d (nil %v)", len(a.Skills), a.Skills == nil, len(b.Skills), b.Skills == nil)
	}
	for i := range a.Skills {
		if !reflect.DeepEqual(a.Skills[i], b.Skills[i]) {
			return fmt.Sprintf("skills[%d]:\n%s\n!=\n%s", i, dumpSkill(a.Skills[i]), dumpSkill(b.Skills[i]))
		}
	}
	return ""
}

func dumpSkill(s *Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%+v keywords nil=%v", *s, s.Keywords == nil)
	for _, v := range s.Versions {
		fmt.Fprintf(&b, "\n  %+v", *v)
	}
	return b.String()
}

// checkFast runs both decoders over data: the fast path must decline or
// give exactly what the full decoder gives, and never accept what the
// full decoder refuses. It reports whether the fast path accepted.
func checkFast(t *testing.T, data []byte) bool {
	t.Helper()
	lim := DefaultIndexLimits()
	fast, ok := fastIndexYAML(string(data), lim)
	if !ok {
		return false
	}
	full, errs := decodeIndexYAML(data, lim)
	if len(errs) > 0 {
		t.Fatalf("fast path accepted what the full decoder refuses (%s):\n%s", errs.render("x")[0], data)
	}
	if d := diffIndex(fast, full); d != "" {
		t.Fatalf("fast path differs from the full decoder: %s\ninput:\n%s", d, data)
	}
	return true
}

func TestFastIndexYAMLEncoded(t *testing.T) {
	idx := bigIndexV(t, 300, 3)
	idx.Skills[1].Description = "multi\nline\n\nwith a blank line\n"
	idx.Skills[2].Description = "colon: inside, and a # sign"
	idx.Skills[3].Description = "'quoted' and \"double\" and C# and a \\ backslash"
	idx.Skills[4].Description = "ends without break\nsecond"
	idx.Skills[5].Description = "tab\there, bell\a"
	idx.Skills[6].Description = "unicode é — ünïcödé 日本"
	idx.Skills[7].Description = "true"
	idx.Skills[8].Description = "123"
	idx.Skills[9].Description = "- dash first"
	idx.Skills[10].Keywords = []string{"c#", "a b", "x,y", "null", "true", "'q'"}
	idx.Skills[11].Versions[0].DeprecationReason = "use 2.0.0: it is faster"
	idx.Skills[12].Versions[1].Tarball, idx.Skills[12].Versions[1].Path = "https://example.com/x.tar.gz", ""
	idx.UpdatedAt = "2026-08-23T00:00:00Z"
	data := idx.EncodeYAML()
	if !checkFast(t, data) {
		t.Fatalf("fast path declined EncodeYAML output")
	}
	if data, err := os.ReadFile(filepath.Join(fixtureRoot, indexPath)); err == nil && !checkFast(t, data) {
		t.Errorf("fast path declined the fixture index")
	}
}

// fastCases are documents in and around the fast path's subset. For each,
// the fast path must give what the full decoder gives or decline; accept
// says which it must do.
var fastCases = []struct {
	name   string
	accept bool
	doc    string
}{
	{"encoded", true, "schemaVersion: 1\nname: t\nskills:\n  - name: ab\n    description: Demo.\n    keywords: [a, b]\n    versions:\n      - version: 1.0.0\n        path: skills/ab\n        integrity: " + goodIntegrity + "\n        publishedAt: \"2026-08-23T00:00:00Z\"\n        deprecated: true\n"},
	{"flow versions", true, indexYAML("      - {version: 1.0.0, path: a, integrity: " + goodIntegrity + "}\n      - {version: 2.0.0-rc.1, path: b, integrity: " + goodIntegrity + ", deprecated: false}\n")},
	{"indentless", true, "skills:\n- name: ab\n  keywords:\n  - a\n  - 'b c'\n  versions:\n  - version: 1.0.0\n    path: a\nname: after\n"},
	{"comments", true, "# head\n---\nschemaVersion: 1 # one\nskills: # list\n  # first\n  - name: ab # the name\n\n    versions:\n# odd place\n      - version: 1.0.0\n        path: a  # c\n"},
	{"unknown keys", true, "extra:\n  a: [1, {b: c}]\n  b:\n    - x\n    - {y: z}\n    - k: v\n      l: |\n        text\nskills:\n  - name: ab\n    homepage: https://example.com/#x\n    versions:\n      - version: 1.0.0\n        path: a\n        extra: null\n        more:\n"},
	{"quoted", true, "name: 'it''s'\nupdatedAt: \"a\\tb\\u00e9\\x41\\\"\\\\\"\nskills: []\n"},
	{"folded quoted", true, "skills:\n  - name: ab\n    description: \"one\n      two  \n\n      three\\\n      four\"\n    latest: 'x\n\n  y'\n    versions: []\n"},
	{"literal", true, "skills:\n  - name: ab\n    description: |\n      line one\n\n        indented\n      # not a comment\n    latest: |-\n      x\n    versions: []\n"},
	{"literal at end", true, "name: |\n  a\n  b"},
	{"unicode", true, "name: ünï — 日本 #x\nskills: []\n"},
	{"plain odd", true, "name: a:b#c [d] {e}, f\nupdatedAt: 1.0\nskills: []\n"},
	{"schema", true, "schemaVersion: 2\nskills: []\n"},

	{"duplicate key", false, "name: a\nname: b\n"},
	{"duplicate unknown key", false, "x: 1\nx: 2\n"},
	{"alias", false, "name: &a x\nupdatedAt: *a\n"},
	{"tag", false, "name: !!str x\n"},
	{"null name", false, "name: ~\n"},
	{"empty name", false, "name:\n"},
	{"int string", false, "schemaVersion: '1'\n"},
	{"octal", false, "schemaVersion: 01\n"},
	{"bool string", false, "skills:\n  - name: a\n    versions:\n      - {version: 1.0.0, deprecated: yes}\n"},
	{"tab", false, "name:\ta\n"},
	{"crlf", false, "name: a\r\n"},
	{"bom", false, "\ufeffname: a\n"},
	{"two documents", false, "name: a\n---\nname: b\n"},
	{"multi-line plain", false, "name: a\n  b\n"},
	{"folded block", false, "name: >\n  a\n"},
	{"keep chomping", true, "name: |+\n  a\n\n"},
	{"indentation indicator", true, "skills:\n  - name: ab\n    description: |2-\n\n       x\n\n      y\n    latest: |1+\n      z\n\n    versions: []\n"},
	{"indicator-led plain", true, "name: -x\nupdatedAt: ?y\nextra: :z\nskills:\n  - name: ab\n    keywords:\n      - -k\n    versions: []\n"},
	{"empty literal", false, "name: |\nskills: []\n"},
	{"literal header comment", false, "name: | # c\n  a\n"},
	{"wrong type", false, "skills: {a: b}\n"},
	{"bad indentation", false, "skills:\n  - name: a\n   versions: []\n"},
	{"mapping in value", false, "name: a: b\n"},
	{"flow multi-line", false, "skills:\n  - name: a\n    keywords: [a,\n      b]\n"},
	{"too many keywords", false, "skills:\n  - name: a\n    keywords: [" + strings.Repeat("k, ", 100) + "k]\n"},
	{"marker in quoted", false, "name: \"a\n---\n\"\n"},
	{"root sequence", false, "- a\n"},
	{"not yaml", false, "name: [\n"},
}

func TestFastIndexYAMLCases(t *testing.T) {
	for _, tt := range fastCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkFast(t, []byte(tt.doc)); got != tt.accept {
				t.Errorf("fastIndexYAML(%q) accepted = %v, want %v", tt.doc, got, tt.accept)
			}
		})
	}
}

// FuzzFastIndexYAML is the differential check of the fast path: on any
// input it declines, or gives exactly the Index (positions included) that
// decodeIndexYAML gives, which then reports no problem.
func FuzzFastIndexYAML(f *testing.F) {
	for _, tt := range fastCases {
		f.Add([]byte(tt.doc))
	}
	small := bigIndexV(f, 3, 2)
	small.Skills[0].Description = "multi\nline"
	small.Skills[1].Keywords = []string{"c#", "x y"}
	f.Add(small.EncodeYAML())
	signed := bigIndexV(f, 2, 2)
	signed.Skills[0].Versions[0].Signatures = []string{"U1NIU0lHAAAAAQ==", "U1NIU0lHAAAAAg=="}
	f.Add(signed.EncodeYAML())
	f.Add([]byte("schemaVersion: 1\nskills:\n  - name: a\n    versions:\n      - {version: 1.0.0, path: a, integrity: sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=, signatures: [U1NIU0lH]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

// TestFastIndexYAMLRandomEncoded encodes indexes whose strings are drawn
// from the characters that change how yaml.v3 quotes (indicators, quotes,
// blanks, line breaks, control and non-ASCII characters) and checks the
// fast path on each: equal to the full decoder or declined — and
// accepting three quarters of them, so that the check cannot pass by
// declining everything.
func TestFastIndexYAMLRandomEncoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 6))
	alphabet := []string{"a", "b", "Z", "0", "1", ".", " ", " ", ":", "#", "'", "\"", "\\", "\n", "\n", "-", "[", "]",
		"{", "}", ",", "&", "*", "!", "|", ">", "%", "@", "`", "?", "~", "\x01", "é", "日", "\u00a0", "null", "true", "1.5", "---"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	accepted, total := 0, 500
	for range total {
		idx := bigIndexV(t, 1+rng.IntN(4), 1+rng.IntN(3))
		idx.Name, idx.UpdatedAt = str(), str()
		for _, s := range idx.Skills {
			s.Description, s.Latest = str(), str()
			s.Keywords = []string{str(), str()}
			for _, v := range s.Versions {
				v.Path, v.DeprecationReason, v.PublishedAt = str(), str(), str()
				if rng.IntN(2) == 0 {
					// Signatures are base64 in practice; the hostile
					// alphabet is exercised by the other strings.
					const b64 = "ABCxyz019+/="
					sig := []byte("U1NIU0lH")
					for range rng.IntN(40) {
						sig = append(sig, b64[rng.IntN(len(b64))])
					}
					v.Signatures = []string{string(sig)}
				}
			}
		}
		if checkFast(t, idx.EncodeYAML()) {
			accepted++
		}
	}
	if accepted < total*3/4 {
		t.Errorf("the fast path accepted %d of %d encoded indexes, want at least three quarters", accepted, total)
	}
	t.Logf("accepted %d of %d", accepted, total)
}
