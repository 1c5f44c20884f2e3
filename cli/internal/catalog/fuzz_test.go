package catalog

import (
	"path"
	"reflect"
	"strings"
	"testing"
)

// FuzzCheckResource: an accepted path is always SKILL.md or a clean .md
// path under references/ that cannot leave the package.
func FuzzCheckResource(f *testing.F) {
	for _, s := range []string{"", "SKILL.md", "references/a.md", "../x", "%2e%2e/", "references/../../x.md", "/abs", `a\b`, "references//a.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := CheckResource(s)
		if err != nil {
			return
		}
		if res != "SKILL.md" && (!strings.HasPrefix(res, "references/") || path.Ext(res) != ".md") {
			t.Fatalf("CheckResource(%q) = %q, want SKILL.md or references/*.md", s, res)
		}
		if path.Clean(res) != res || strings.Contains(res, "..") && strings.Contains("/"+res+"/", "/../") || strings.ContainsAny(res, `%\`) {
			t.Fatalf("CheckResource(%q) = %q, which is not a clean confined path", s, res)
		}
	})
}

// FuzzDecode: Decode never panics, and what it accepts re-encodes to a
// catalog it accepts again with the same content.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":1,"skills":[{"name":"a","path":"a","description":"d","digest":"sha256-x","keywords":[],"kind":"skill"}]}`))
	f.Add([]byte(`{"schemaVersion":1,"skills":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data)
		if err != nil {
			return
		}
		again, err := Decode(c.Encode())
		if err != nil {
			t.Fatalf("Decode(Encode(Decode(%q))) = %v, want nil", data, err)
		}
		if len(Diff(c, again)) != 0 {
			t.Fatalf("Decode(%q) did not survive a round trip: %v", data, Diff(c, again))
		}
	})
}

// FuzzDecodeMetaCache: decoding never panics, and what it accepts encodes
// to bytes that decode to the same entries.
func FuzzDecodeMetaCache(f *testing.F) {
	f.Add([]byte(cacheMagic + "\x00"))
	f.Add(encodeMetaCache(map[string]*rootCache{
		"/r": {dir: fileID{9, 9, 9, 9, 9, 9}, ents: []rootEnt{
			{name: "a", cached: true, e: cacheEntry{md: fileID{1, 2, 3, 4, 5, 6}, yamlRead: true, yaml: fileID{7, 8, 9, 10, 11, 12}, meta: skillMeta{"d", "1.0.0", "", []string{"k"}}}},
			{name: "b", cached: true, e: cacheEntry{md: fileID{1, 3, 3, 4, 5, 6}, yamlRead: true, yamlAbsent: true, meta: skillMeta{problem: "p"}}},
			{name: "c", link: true},
			{name: "d"},
		}},
		"/s": {ents: []rootEnt{}},
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := decodeMetaCache(string(data))
		if err != nil {
			return
		}
		again, err := decodeMetaCache(string(encodeMetaCache(entries)))
		if err != nil || !reflect.DeepEqual(again, entries) {
			t.Fatalf("re-decoding %x gave %+v, %v; want %+v", data, again, err, entries)
		}
	})
}
