package format

import (
	"fmt"
	"reflect"
	"testing"
	"testing/fstest"
)

func TestEntrypointCacheDecodesOnce(t *testing.T) {
	data := []byte("---\nname: a-skill\ndescription: Does things.\nmetadata:\n  k: v\nname: dup\n---\nbody\n")
	want, wantDiags := DecodeEntrypoint(data, "SKILL.md", KindSkill)
	if len(wantDiags) == 0 {
		t.Fatalf("DecodeEntrypoint(duplicate key) gave no diagnostics; the test needs some")
	}
	var c EntrypointCache
	one, d1 := c.Decode(data, "SKILL.md", KindSkill)
	two, d2 := c.Decode(append([]byte(nil), data...), "SKILL.md", KindSkill)
	if c.n != 1 {
		t.Errorf("two decodes of the same bytes made %d entries, want 1", c.n)
	}
	for i, got := range []*Entrypoint{one, two} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Decode #%d = %+v, want %+v", i+1, got, want)
		}
	}
	if !reflect.DeepEqual(d1, wantDiags) || !reflect.DeepEqual(d2, wantDiags) {
		t.Errorf("Decode diagnostics = %v, %v, want %v", d1, d2, wantDiags)
	}
	if one == two {
		t.Errorf("two hits returned the same *Entrypoint; each caller must get its own")
	}
	(&Package{Entrypoint: one}).Compact()
	if two.Pos("name") != want.Pos("name") || two.Text("metadata.k") != "v" {
		t.Errorf("compacting one hit changed another: Pos(name) = %v, Text(metadata.k) = %q", two.Pos("name"), two.Text("metadata.k"))
	}
	d1[0].Message = "changed"
	if _, d3 := c.Decode(data, "SKILL.md", KindSkill); d3[0].Message == "changed" {
		t.Errorf("a caller's change to its diagnostics reached the cache")
	}
	// Another name or kind is another decode.
	if e, _ := c.Decode(data, "COMMAND.md", KindCommand); e == nil || e.File != "COMMAND.md" || c.n != 2 {
		t.Errorf("Decode(COMMAND.md) = %+v with %d entries, want its own decode", e, c.n)
	}
	var none *EntrypointCache
	if e, _ := none.Decode(data, "SKILL.md", KindSkill); !reflect.DeepEqual(e, want) {
		t.Errorf("nil cache Decode = %+v, want %+v", e, want)
	}
}

func TestEntrypointCacheIsBounded(t *testing.T) {
	var c EntrypointCache
	for i := range maxCachedEntrypoints + 10 {
		data := []byte(fmt.Sprintf("---\nname: s%d\n---\n", i))
		if e, _ := c.Decode(data, "SKILL.md", KindSkill); e.Text("name") != fmt.Sprintf("s%d", i) {
			t.Fatalf("Decode(s%d) name = %q", i, e.Text("name"))
		}
	}
	if c.n != maxCachedEntrypoints {
		t.Errorf("cache holds %d entries, want at most %d", c.n, maxCachedEntrypoints)
	}
}

// Load through a cache loads what Load alone does, diagnostics included,
// and a second Load of the same bytes is a hit.
func TestLoadWithEntrypointCache(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":     {Data: []byte("---\nname: x\ndescription: 5\nx: [1, 2]\n---\n# x\n")},
		"ref/guide.md": {Data: []byte("g")},
	}
	want, wantDiags := Load(fsys, LoadOptions{})
	var c EntrypointCache
	for i := range 2 {
		got, diags := Load(fsys, LoadOptions{Entrypoints: &c})
		got.FS, want.FS = nil, nil
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(diags, wantDiags) {
			t.Errorf("Load #%d with a cache = %+v %v, want %+v %v", i+1, got, diags, want, wantDiags)
		}
	}
	if c.n != 1 {
		t.Errorf("two Loads made %d cache entries, want 1", c.n)
	}
}
