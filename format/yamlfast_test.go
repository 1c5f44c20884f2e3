package format

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sameTree reports how got differs from yaml.v3's want, comments aside,
// or "" when it does not.
func sameTree(got, want *yaml.Node, path string) string {
	if got.Kind != want.Kind || got.Style != want.Style || got.Tag != want.Tag || got.Value != want.Value ||
		got.Anchor != want.Anchor || got.Line != want.Line || got.Column != want.Column || len(got.Content) != len(want.Content) {
		return fmt.Sprintf("%s: got {kind %v style %v tag %s value %q at %d:%d, %d children}, want {kind %v style %v tag %s value %q at %d:%d, %d children}",
			path, got.Kind, got.Style, got.Tag, got.Value, got.Line, got.Column, len(got.Content),
			want.Kind, want.Style, want.Tag, want.Value, want.Line, want.Column, len(want.Content))
	}
	for i := range got.Content {
		if d := sameTree(got.Content[i], want.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkFastYAML compares fastYAML with yaml.v3 on data and returns
// whether fastYAML parsed it.
func checkFastYAML(t *testing.T, data string) bool {
	t.Helper()
	got, ok := fastYAML([]byte(data))
	if !ok {
		return false
	}
	dec := yaml.NewDecoder(strings.NewReader(data))
	var doc, next yaml.Node
	if err := dec.Decode(&doc); err != nil || len(doc.Content) != 1 {
		t.Fatalf("fastYAML(%q) parsed what yaml.v3 does not: %v", data, err)
	}
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		t.Fatalf("fastYAML(%q) parsed one document where yaml.v3 finds more: %v", data, err)
	}
	want := doc.Content[0]
	if d := sameTree(got, want, ""); d != "" {
		t.Fatalf("fastYAML(%q) differs from yaml.v3: %s", data, d)
	}
	return true
}

// fastYAMLSeeds are documents in the subset.
var fastYAMLSeeds = []string{
	"# Synthesised by agent-skills from SKILL.md: the source ships no skill.yaml.\nschemaVersion: 1\nname: bench-kotlin-006\nkind: skill\nversion: 0.0.0-local-954fc45045ec\ndescription: Help a kotlin developer. Use when asked.\nlicense: Apache-2.0\nfiles:\n  - SKILL.md\n  - references/\n  - scripts/\n  - skill.yaml\n",
	"name: bench-kotlin-006\ndescription: >-\n  Help a kotlin developer structure coroutines step by step, with the checks a careful reviewer\n  would make and the commands of gradle that show the result. Use when asked to\n  structure coroutines in a kotlin code base, or when a change needs that review.\nlicense: Apache-2.0\nmetadata:\n  short-description: structure coroutines for kotlin\n",
	"a: 'it''s: #1'\nb: \"x: y #z\"\nc: true\nd: ~\ne: 1.5\nf: 0x1F\ng: -3\nh: .inf\ni: 1_000\nj: 0o17\nk: a#b\nl: -x\nm: ?y\nn: 1.0.0\n",
	"files:\n- a\n- 'b'\nnext:\n  deep:\n    deeper: x\n  list:\n    - 1\n    - true\nlit: |\n  line one\n  line two\nlast: >\n  folded\n  text",
	"k:    spaced\nz: |-\n  a: b # not a comment\n",
}

func TestFastYAMLMatchesYAMLv3(t *testing.T) {
	for _, s := range fastYAMLSeeds {
		if !checkFastYAML(t, s) {
			t.Errorf("fastYAML(%q) declined, want it parsed", s)
		}
	}
	for _, s := range []string{
		"", "# only\n", "a: b #c\n", "a:\n", "a: [1, 2]\n", "a: {b: c}\n", "a: &x b\n", "a: *x\n", "a: !!str b\n",
		"a: b\n  c\n", "a: b\n\nc: d\n", "a: b \n", "a:\tb\n", "a: b\r\n", "a: caf\u00e9\n", "---\na: b\n", "a: b\n...\n",
		"a: 2026-01-02\n", "<<: x\n", "a: \"x\\ny\"\n", "a: 'x\n  y'\n", "? a\n: b\n", "a: >2\n  x\n", "a: |+\n  x\n",
		"a: >\n  x\n    y\n", "- a\n", "a: b\nc: d\n # late comment\n", "a:\n  b: c\n d: e\n", "1: x\n", "true: x\n",
	} {
		if checkFastYAML(t, s) {
			t.Errorf("fastYAML(%q) parsed it, want it left to yaml.v3", s)
		}
	}
}

// The skill.yaml synthesised for a bare skill is in the subset: what
// AppendYAML writes, fastYAML reads.
func TestFastYAMLReadsAppendYAML(t *testing.T) {
	root := mapNode(scalarNode("", "schemaVersion", 0), scalarNode("!!int", "1", 0), str("name"), str("x"),
		str("version"), str("0.0.0-local-1"), str("description"), str("Says: \"hi\" it's #1"),
		str("files"), seqNode(str("SKILL.md"), str("a b/")), str("m"), mapNode(str("k"), str("v")))
	out, ok := AppendYAML([]byte("# header\n"), root)
	if !ok {
		t.Fatal("AppendYAML declined")
	}
	if !checkFastYAML(t, string(out)) {
		t.Errorf("fastYAML(%q) declined what AppendYAML wrote", out)
	}
}

// FuzzFastYAML holds fastYAML to yaml.v3 on any input: it declines, or
// gives the tree yaml.v3 gives.
func FuzzFastYAML(f *testing.F) {
	for _, s := range fastYAMLSeeds {
		f.Add(s)
	}
	for _, s := range []string{"a: b\n", "a:\n- b\n", "a: >-\n  b\n  c\nd: e", "a: '''b'''\n", "k: \"v\"\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		checkFastYAML(t, data)
		if strings.Count(data, "\n") < 40 {
			checkFastYAML(t, data+"\n")
		}
	})
}
