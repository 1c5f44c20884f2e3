package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuildIndexMatchesFixture(t *testing.T) {
	root := fixture(t)
	built, err := BuildIndex(os.DirFS(filepath.Join(root, "skills")), "official")
	if err != nil {
		t.Fatalf("BuildIndex(fixture) = %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(root, indexPath))
	want, err := DecodeIndex(data, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(built.Skills) != len(want.Skills) {
		t.Fatalf("BuildIndex has %d skills, want %d", len(built.Skills), len(want.Skills))
	}
	for _, w := range want.Skills {
		b, ok := built.Skill(w.Name)
		if !ok {
			t.Errorf("BuildIndex lacks %q", w.Name)
			continue
		}
		if b.Versions[0].Integrity != w.Versions[0].Integrity || b.Latest != w.Latest {
			t.Errorf("BuildIndex(%q) = %s %s, want %s %s", w.Name, b.Latest, b.Versions[0].Integrity, w.Latest, w.Versions[0].Integrity)
		}
		if strings.Join(b.Keywords, ",") != strings.Join(w.Keywords, ",") {
			t.Errorf("BuildIndex(%q).Keywords = %v, want %v", w.Name, b.Keywords, w.Keywords)
		}
	}
	again, _ := BuildIndex(os.DirFS(filepath.Join(root, "skills")), "official")
	if !bytes.Equal(built.EncodeYAML(), again.EncodeYAML()) {
		t.Errorf("EncodeYAML of BuildIndex is not deterministic")
	}
	if bytes.Contains(built.EncodeYAML(), []byte("updatedAt")) {
		t.Errorf("BuildIndex output carries a time stamp")
	}
}

func TestBundledRegistry(t *testing.T) {
	fsys := fstest.MapFS{}
	for k, v := range samplePackage() {
		fsys["demo-skill/"+k] = v
	}
	r, err := Open(Spec{Name: "bundled", Kind: KindBundled}, Options{Bundled: fsys})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatalf("Index() = %v", err)
	}
	s, ok := idx.Skill("demo-skill")
	if !ok || s.Latest != "1.0.0" || s.Versions[0].Path != "demo-skill" {
		t.Fatalf("Index().Skill(demo-skill) = %+v", s)
	}
	dest := filepath.Join(t.TempDir(), "demo-skill")
	f, err := r.Fetch(t.Context(), "demo-skill", "1.0.0", dest)
	if err != nil || f.Resolved != "bundled:demo-skill" {
		t.Fatalf("Fetch() = %+v, %v", f, err)
	}
	// A committed index is used as is; a stale one fails verification.
	stale := strings.Replace(string(idx.EncodeYAML()), s.Versions[0].Integrity, goodIntegrity, 1)
	r2, _ := Open(Spec{Name: "bundled", Kind: KindBundled}, Options{Bundled: fsys, BundledIndex: []byte(stale)})
	if _, err := r2.Fetch(t.Context(), "demo-skill", "1.0.0", filepath.Join(t.TempDir(), "x")); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Fetch(stale committed index) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
}

func TestBuildIndexRejects(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"bad manifest", fstest.MapFS{"a-skill/skill.yaml": {Data: []byte("name: [\n")}}, "ASK_MANIFEST_INVALID"},
		{"bad name", fstest.MapFS{"Bad/SKILL.md": {Data: []byte("---\nname: Bad\nversion: 1.0.0\ndescription: x\n---\n")}}, `name "Bad" contains uppercase letters ("B"); names are lowercase`},
		{"duplicate", fstest.MapFS{
			"one/SKILL.md": {Data: []byte("---\nname: same-name\nversion: 1.0.0\ndescription: x\n---\n")},
			"two/SKILL.md": {Data: []byte("---\nname: same-name\nversion: 1.0.0\ndescription: x\n---\n")},
		}, "duplicate skill"},
	}
	for _, tt := range tests {
		_, err := BuildIndex(tt.fsys, "b")
		if codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: BuildIndex = %v, want ASK_REGISTRY_INVALID_INDEX containing %q", tt.name, err, tt.want)
		}
	}
}
