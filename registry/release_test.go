package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// within reports whether s is a slice of the bytes of text.
func within(s, text string) bool {
	if len(s) == 0 || len(text) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= lo && p < lo+uintptr(len(text))
}

// TestReleaseIndexLoadsAgain: once released, the index is read again on
// the next use (here it changed on disk in between), and the set releases
// every registry's.
func TestReleaseIndexLoadsAgain(t *testing.T) {
	r, _ := localSample(t)
	set := NewSet(nil, r)
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Index(t.Context()); again != idx {
		t.Fatalf("Index before ReleaseIndexes = a new value, want the kept one")
	}
	set.ReleaseIndexes()
	if r.(*registry).idx != nil {
		t.Fatalf("after ReleaseIndexes the registry still holds its index")
	}
	root := r.Spec().URL
	data, err := os.ReadFile(filepath.Join(root, indexPath))
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "description: Demo.", "description: Demo, changed.", 1))
	if err := os.WriteFile(filepath.Join(root, indexPath), data, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if fresh == idx {
		t.Fatalf("Index after ReleaseIndexes = the released value, want it loaded again")
	}
	if s, ok := fresh.Skill("demo-skill"); !ok || s.Description != "Demo, changed." {
		t.Errorf("Index after ReleaseIndexes: demo-skill = %+v, want the description read again", s)
	}
}

// TestReleaseIndexKeepsAFailure: a registry that could not be read is not
// asked again after a release (once per command).
func TestReleaseIndexKeepsAFailure(t *testing.T) {
	root := t.TempDir()
	r, err := Open(Spec{Name: "team", URL: root}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, first := r.Index(t.Context())
	if first == nil {
		t.Fatalf("Index of a folder without an index = nil error")
	}
	r.ReleaseIndex()
	if _, again := r.Index(t.Context()); again != first {
		t.Errorf("Index after ReleaseIndex = %v, want the kept failure %v", again, first)
	}
}

// TestKeptStringsAreNotIndexSlices: what the set and Snapshot hand out or
// keep past the index (the integrity, the kept package's name and
// version) does not point into the index's text, so releasing the index
// frees it.
func TestKeptStringsAreNotIndexSlices(t *testing.T) {
	r, _ := localSample(t)
	set := NewSet(nil, r)
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := idx.Skill("demo-skill")
	v := s.Versions[0]
	if !within(v.Integrity, v.Integrity) {
		t.Fatalf("within(x, x) = false")
	}
	// The resolver passes the index's own strings.
	if _, err := set.Requirements(t.Context(), "team", s.Name, v.Version); err != nil {
		t.Fatal(err)
	}
	for k := range set.kept {
		if within(k.version, v.Version) || within(k.name, s.Name) {
			t.Errorf("kept key %+v shares the index's strings", k)
		}
	}
	for k, ks := range set.kept {
		if within(ks.integrity, v.Integrity) {
			t.Errorf("kept integrity of %+v shares the index's string", k)
		}
	}
	_, integrity, err := r.Snapshot(t.Context(), s.Name, v.Version)
	if err != nil {
		t.Fatal(err)
	}
	if integrity != v.Integrity || within(integrity, v.Integrity) {
		t.Errorf("Snapshot integrity %q (shared: %v), want a copy of %q", integrity, within(integrity, v.Integrity), v.Integrity)
	}
}
