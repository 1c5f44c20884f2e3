package catalog

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		in, name, desc, version string
	}{
		{"name: a\ndescription: plain text\n", "a", "plain text", ""},
		{"name: a\ndescription: >-\n  folded\n  text\nversion: 1.0.0\n", "a", "folded text", "1.0.0"},
		{"name: a\ndescription: |\n  literal\n\n  text\n", "a", "literal text", ""},
		{"name: 'it''s'\ndescription: \"quoted: yes\"\n", "it's", "quoted: yes", ""},
		{"name: a\nmetadata:\n  version: 9\n  short: x\ndescription: d\n", "a", "d", ""},
		{"name: a\ndescription: plain\n  continued\n", "a", "plain continued", ""},
		{"name: a\ndescription: \"esc\\u0041\"\n", "a", "escA", ""},
		{"name: a\ndescription: {x: 1}\n", "a", "", ""},
		{"name: a\ndescription: null\n", "a", "", ""},
		{"name: a\r\ndescription: crlf\r\n", "a", "crlf", ""},
		// Found by comparing with the YAML decoder on random input.
		{"  description: indented document\n", "", "indented document", ""},
		{"name: a\t# tab comment\n", "a", "", ""},
		{"x:\n  \"open\nversion: 2\"\n", "", "", ""},
		{"a: &x\n  name: merged\n<<: *x\n", "merged", "", ""},
	}
	for _, tt := range tests {
		fm, _ := parseFrontMatter([]byte(tt.in))
		if fm.Name != tt.name || oneLine(fm.Description) != tt.desc || fm.Version != tt.version {
			t.Errorf("parseFrontMatter(%q) = %+v, want name %q description %q version %q", tt.in, fm, tt.name, tt.desc, tt.version)
		}
	}
}

// FuzzFrontMatter: whenever the fast scanner answers and the YAML decoder
// accepts the input, both give the same values, folded to one line.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"name: a\ndescription: b\n",
		"name: a\ndescription: >-\n  x\n  y\n",
		"description: 'a''b'\nversion: \"1\"\n",
		"name: a\nmetadata:\n  k: v\n",
		"description: a # comment\n",
		"description: true\n",
		"description: null\n",
		"description: |+\n  a\n\n",
		"  description: indented\n",
		"version:\ttrue[\t# ",
		"\\:\n  \"q\nversion: word\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := scanFrontMatter(data)
		if !ok {
			return
		}
		var slow frontMatter
		if yaml.Unmarshal(data, &slow) != nil {
			return
		}
		if oneLine(fast.Name) != oneLine(slow.Name) || oneLine(fast.Description) != oneLine(slow.Description) || oneLine(fast.Version) != oneLine(slow.Version) {
			t.Fatalf("scanFrontMatter(%q) = %+v, YAML gives %+v", data, fast, slow)
		}
	})
}

func TestParseManifest(t *testing.T) {
	tests := []struct {
		in, version, keywords string
	}{
		{"name: a\nversion: 1.2.0\nkeywords: [java, jvm]\n", "1.2.0", "java,jvm"},
		{"version: \"2.0.0\"\nkeywords:\n  - a\n  - b\n", "2.0.0", "a,b"},
		{"version: 1.0.0\nkeywords: []\n", "1.0.0", ""},
		{"version: [\n", "", ""},
	}
	for _, tt := range tests {
		m := parseManifest([]byte(tt.in))
		if m.Version != tt.version || strings.Join(m.Keywords, ",") != tt.keywords {
			t.Errorf("parseManifest(%q) = %+v, want version %q keywords %q", tt.in, m, tt.version, tt.keywords)
		}
	}
}
