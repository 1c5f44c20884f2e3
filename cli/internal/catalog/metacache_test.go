//go:build linux

package catalog

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// quiet shortens the racy window and lets the coarse file-system clock
// move past the files just written, so that a scan caches them and a
// later change gets a later change time.
func quiet(t *testing.T) {
	t.Helper()
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
	time.Sleep(30 * time.Millisecond)
}

func scanWith(t *testing.T, roots []Root, c *MetaCache, manifest bool) []Skill {
	t.Helper()
	skills, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: manifest, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	return skills
}

func byName(skills []Skill) map[string]Skill {
	m := map[string]Skill{}
	for _, s := range skills {
		m[s.Name] = s
	}
	return m
}

func TestMetaCacheAnswersUnchangedSkills(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":   skillMD("alpha", "Alpha one."),
		"alpha/skill.yaml": manifest("alpha", "1.0.0", "Alpha."),
		"bare/SKILL.md":    skillMD("bare", "Bare one."),
		"broken/SKILL.md":  "no front matter\n",
		"empty/.keep":      "",
	})
	roots := []Root{{Path: dir, Scope: "global", Readers: []string{"claude-code"}}}
	quiet(t)
	c := NewMetaCache()
	first := scanWith(t, roots, c, true)
	if got := c.Len(); got != 3 {
		t.Fatalf("cache holds %d folders after the first scan, want 3 (alpha, bare, broken; not the folder without SKILL.md)", got)
	}
	gen := c.gen
	second := scanWith(t, roots, c, true)
	if !reflect.DeepEqual(first, second) {
		t.Errorf("cached scan differs:\n got %+v\nwant %+v", second, first)
	}
	if c.gen != gen {
		t.Errorf("an unchanged tree changed the cache")
	}
	if uncached := scanWith(t, roots, nil, true); !reflect.DeepEqual(uncached, second) {
		t.Errorf("cached scan differs from an uncached one:\n got %+v\nwant %+v", second, uncached)
	}
}

func TestMetaCacheSeesEveryChange(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":   skillMD("alpha", "Alpha one."),
		"alpha/skill.yaml": manifest("alpha", "1.0.0", "Alpha."),
		"beta/SKILL.md":    skillMD("beta", "Beta one."),
		"gamma/SKILL.md":   skillMD("gamma", "Gamma one."),
		"eps/SKILL.md":     skillMD("eps", "Eps one."),
	})
	roots := []Root{{Path: dir, Scope: "global"}}
	quiet(t)
	c := NewMetaCache()
	scanWith(t, roots, c, true)
	time.Sleep(30 * time.Millisecond)

	// The same number of bytes, rewritten in place: only the change time
	// tells.
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":   skillMD("alpha", "Alpha two."),
		"alpha/skill.yaml": manifest("alpha", "1.0.1", "Alpha."),
		"beta/skill.yaml":  manifest("beta", "2.0.0", "Beta."),
		"delta/SKILL.md":   skillMD("delta", "Delta one."),
		"eps/SKILL.md":     skillMD("eps", "Eps two."),
	})
	if err := os.RemoveAll(filepath.Join(dir, "gamma")); err != nil {
		t.Fatal(err)
	}
	quiet(t)
	got := byName(scanWith(t, roots, c, true))
	want := byName(scanWith(t, roots, nil, true))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cached scan after changes:\n got %+v\nwant %+v", got, want)
	}
	if got["alpha"].Description != "Alpha two." || got["alpha"].Version != "1.0.1" {
		t.Errorf("alpha = %+v, want the rewritten description and version", got["alpha"])
	}
	if got["eps"].Description != "Eps two." {
		t.Errorf("eps = %+v, want the description rewritten in place", got["eps"])
	}
	if got["beta"].Version != "2.0.0" {
		t.Errorf("beta = %+v, want the version of its new skill.yaml", got["beta"])
	}
	if _, ok := got["gamma"]; ok {
		t.Errorf("gamma was removed but is still listed")
	}
	if c.snapshot()[dir].find("gamma") != nil {
		t.Errorf("the cache still remembers the removed gamma")
	}

	// A skill.yaml removed, and SKILL.md replaced by a link.
	time.Sleep(30 * time.Millisecond)
	if err := os.Remove(filepath.Join(dir, "beta", "skill.yaml")); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(dir, "delta", "SKILL.md")
	if err := os.Rename(md, md+".orig"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("SKILL.md.orig", md); err != nil {
		t.Fatal(err)
	}
	got = byName(scanWith(t, roots, c, true))
	if got["beta"].Version != "" {
		t.Errorf("beta = %+v, want no version once skill.yaml is gone", got["beta"])
	}
	if got["delta"].Problem == "" || got["delta"].Description != "" {
		t.Errorf("delta = %+v, want a problem for a linked SKILL.md", got["delta"])
	}
}

func TestMetaCacheManifestOnDemand(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":   skillMD("alpha", "Alpha one."),
		"alpha/skill.yaml": manifest("alpha", "1.0.0", "Alpha."),
	})
	roots := []Root{{Path: dir, Scope: "global"}}
	quiet(t)
	c := NewMetaCache()
	if got := scanWith(t, roots, c, false)[0]; got.Version != "" {
		t.Fatalf("a scan without the manifest read a version: %+v", got)
	}
	if got := scanWith(t, roots, c, true)[0]; got.Version != "1.0.0" || len(got.Keywords) != 2 {
		t.Errorf("a scan wanting the manifest after one that did not = %+v, want version 1.0.0 and keywords", got)
	}
}

func TestMetaCacheSkipsRacyFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"alpha/SKILL.md": skillMD("alpha", "Alpha one.")})
	c := NewMetaCache()
	scanWith(t, []Root{{Path: dir, Scope: "global"}}, c, true)
	if c.Len() != 0 {
		t.Errorf("a file written just now was cached; its next change could share its time stamps")
	}
}

func TestMetaCacheKeepsOtherRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeTree(t, a, map[string]string{"alpha/SKILL.md": skillMD("alpha", "Alpha.")})
	writeTree(t, b, map[string]string{"beta/SKILL.md": skillMD("beta", "Beta.")})
	quiet(t)
	c := NewMetaCache()
	scanWith(t, []Root{{Path: a, Scope: "project"}}, c, true)
	scanWith(t, []Root{{Path: b, Scope: "global"}}, c, true)
	if c.Len() != 2 {
		t.Errorf("cache holds %d folders, want both roots' skills", c.Len())
	}
}

func TestMetaCacheSaveLoad(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":   skillMD("alpha", "Alpha one."),
		"alpha/skill.yaml": manifest("alpha", "1.0.0", "Alpha."),
		"bare/SKILL.md":    skillMD("bare", "Bare."),
	})
	roots := []Root{{Path: dir, Scope: "global"}}
	quiet(t)
	path := filepath.Join(t.TempDir(), "cache", "installed.bin")
	c := LoadMetaCache(path)
	if c.Len() != 0 {
		t.Fatalf("a missing cache file loaded %d entries", c.Len())
	}
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("saving an unchanged cache wrote a file (stat: %v)", err)
	}
	want := scanWith(t, roots, c, true)
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded := LoadMetaCache(path)
	if !reflect.DeepEqual(loaded.roots, c.roots) {
		t.Fatalf("loaded cache differs:\n got %+v\nwant %+v", loaded.roots, c.roots)
	}
	if got := scanWith(t, roots, loaded, true); !reflect.DeepEqual(got, want) || loaded.gen != 0 {
		t.Errorf("a scan from the loaded cache = %+v (generation %d), want %+v from the cache alone", got, loaded.gen, want)
	}
	info, _ := os.Stat(path)
	if err := loaded.Save(path); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.Stat(path); !again.ModTime().Equal(info.ModTime()) || !os.SameFile(info, again) {
		t.Errorf("saving a cache no scan changed rewrote the file")
	}

	for name, data := range map[string][]byte{
		"empty":     nil,
		"magic":     []byte("not a cache\n"),
		"truncated": encodeMetaCache(c.roots)[:len(encodeMetaCache(c.roots))-3],
		"trailing":  append(encodeMetaCache(c.roots), 0),
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if n := LoadMetaCache(path).Len(); n != 0 {
			t.Errorf("%s cache file loaded %d entries, want an empty cache", name, n)
		}
	}
}

// TestMetaCacheConcurrentScans: the MCP server may scan from several tool
// calls at once with one cache.
func TestMetaCacheConcurrentScans(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		name := "skill-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		files[name+"/SKILL.md"] = skillMD(name, "Skill "+name+".")
	}
	writeTree(t, dir, files)
	roots := []Root{{Path: dir, Scope: "global"}}
	quiet(t)
	c := NewMetaCache()
	want := scanWith(t, roots, nil, true)
	done := make(chan []Skill)
	for range 4 {
		go func() {
			skills, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: true, Cache: c})
			if err != nil {
				t.Error(err)
			}
			done <- skills
		}()
	}
	for range 4 {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Errorf("a concurrent cached scan differs from an uncached one")
		}
	}
	if c.Len() != 200 {
		t.Errorf("cache holds %d folders after concurrent scans, want 200", c.Len())
	}
}
