package validate

import (
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// withPrefix copies fsys under dir into out.
func withPrefix(out, fsys fstest.MapFS, dir string) {
	for name, f := range fsys {
		out[path.Join(dir, name)] = f
	}
}

func TestCollection(t *testing.T) {
	root := fstest.MapFS{
		"README.md":               {Data: []byte("# Collection\n")},
		"registry/skills.yaml":    {Data: []byte("schemaVersion: 1\nskills: []\n")},
		"node_modules/x/SKILL.md": {Data: []byte("---\nname: Broken\n---\n")},
		".git/SKILL.md":           {Data: []byte("not a package")},
	}
	withPrefix(root, pkgFS(nil), "skills/java-performance")
	withPrefix(root, pkgFS(nil), "skills/wrong-dir")
	// Two packages with the same bad licence: the Collection-wide licence
	// cache must report it for both.
	for _, dir := range []string{"skills/lic-a", "skills/lic-b"} {
		name := path.Base(dir)
		withPrefix(root, pkgFS(map[string]string{
			"skill.yaml": strings.NewReplacer("java-performance", name, "Apache-2.0", "Apache 2").Replace(goodManifest),
			"SKILL.md":   strings.Replace(goodSkill, "java-performance", name, 1),
		}), dir)
	}
	withPrefix(root, pkgFS(map[string]string{"skill.yaml": ""}), "skills/nested/java-performance")
	// A package's own subfolders are not validated as more packages, but
	// reported as nested in it (issue 13, item 3).
	root["skills/java-performance/references/inner/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: Inner\n---\n")}
	root["skills/java-performance/references/inner/deeper/skill.yaml"] = &fstest.MapFile{Data: []byte("x")}
	root["skills/java-performance/examples/b/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: b\n---\n")}
	root["skills/java-performance/node_modules/c/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: c\n---\n")}

	results, err := Collection(root, testOpts)
	if err != nil {
		t.Fatalf("Collection() error = %v", err)
	}
	want := []struct {
		path   string
		diags  []string
		nested []string
	}{
		{"skills/java-performance", nil, []string{"examples/b", "references/inner", "references/inner/deeper"}},
		{"skills/lic-a", []string{"skill.yaml:6:10 error ASK_LICENSE_INVALID"}, nil},
		{"skills/lic-b", []string{"skill.yaml:6:10 error ASK_LICENSE_INVALID"}, nil},
		{"skills/nested/java-performance", nil, nil},
		{"skills/wrong-dir", []string{"skill.yaml:2:7 error ASK_NAME_MISMATCH"}, nil},
	}
	if len(results) != len(want) {
		t.Fatalf("Collection() = %d results %+v, want %d", len(results), results, len(want))
	}
	for i, w := range want {
		got := render(results[i].Diagnostics)
		if results[i].Path != w.path || strings.Join(got, "|") != strings.Join(w.diags, "|") {
			t.Errorf("Collection()[%d] = %s %v, want %s %v", i, results[i].Path, got, w.path, w.diags)
		}
		if !slices.Equal(results[i].Nested, w.nested) {
			t.Errorf("Collection()[%d] (%s) nested = %v, want %v", i, w.path, results[i].Nested, w.nested)
		}
	}
}

func TestCollectionRootPackage(t *testing.T) {
	results, err := Collection(pkgFS(nil), Options{DirName: "java-performance"})
	if err != nil || len(results) != 1 || results[0].Path != "." || len(results[0].Diagnostics) != 0 {
		t.Fatalf("Collection(single package) = %+v, %v; want one clean result at \".\"", results, err)
	}
	inner := pkgFS(nil)
	inner["templates/t/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: t\n---\n")}
	results, err = Collection(inner, Options{DirName: "java-performance"})
	if err != nil || len(results) != 1 || !slices.Equal(results[0].Nested, []string{"templates/t"}) {
		t.Errorf("Collection(single package with a nested one) = %+v, %v; want one result with nested templates/t", results, err)
	}
	results, _ = Collection(pkgFS(nil), Options{DirName: "elsewhere"})
	if len(results) != 1 || len(results[0].Diagnostics) != 1 || results[0].Diagnostics[0].Code != "ASK_NAME_MISMATCH" {
		t.Errorf("Collection(single package, wrong DirName) = %+v, want one ASK_NAME_MISMATCH", results)
	}
}

func TestPackageDirs(t *testing.T) {
	root := fstest.MapFS{
		"README.md":               {Data: []byte("# Collection\n")},
		"node_modules/x/SKILL.md": {Data: []byte("x")},
		"a/SKILL.md":              {Data: []byte("x")},
		"a/examples/b/SKILL.md":   {Data: []byte("x")},
		"c/d/skill.yaml":          {Data: []byte("x")},
	}
	got, err := PackageDirs(root)
	if want := []string{"a", "c/d"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("PackageDirs() = %v, %v; want %v, nil", got, err, want)
	}
	got, err = PackageDirs(pkgFS(nil))
	if want := []string{"."}; err != nil || !slices.Equal(got, want) {
		t.Errorf("PackageDirs(one package) = %v, %v; want %v, nil", got, err, want)
	}
}

func TestCollectionEmpty(t *testing.T) {
	results, err := Collection(fstest.MapFS{"a/b.txt": {Data: []byte("x")}}, Options{})
	if err != nil || len(results) != 0 {
		t.Errorf("Collection(no packages) = %v, %v; want none, nil", results, err)
	}
}

// TestCollectionOriginRegistry validates the shared registry fixture, a real
// collection of published skills, over the OS file system.
func TestCollectionOriginRegistry(t *testing.T) {
	dir := "../../shared/fixtures/origin-registry"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("fixture %s not available: %v", dir, err)
	}
	results, err := Collection(os.DirFS(dir), Options{OverrideKeys: map[string][]string{"codex": {"interface"}, "claude-code": {}}})
	if err != nil {
		t.Fatalf("Collection(%s) error = %v", dir, err)
	}
	if len(results) < 8 {
		t.Fatalf("Collection(%s) = %d packages, want at least 8", dir, len(results))
	}
	for _, r := range results {
		if !strings.HasPrefix(r.Path, "skills/") && !strings.HasPrefix(r.Path, "extra/skills/") {
			t.Errorf("Collection(%s) found a package at %s, want only skills/<name>", dir, r.Path)
		}
		if r.Diagnostics.HasErrors() {
			t.Errorf("Collection(%s) %s = %v, want no errors", dir, r.Path, r.Diagnostics)
		}
	}
}

func TestCollectionScan(t *testing.T) {
	fsys := fstest.MapFS{
		"clean/SKILL.md":  {Data: []byte("---\nname: clean\ndescription: Clean. Use when testing.\n---\nNothing here.\n")},
		"hidden/SKILL.md": {Data: []byte("---\nname: hidden\ndescription: Hidden. Use when testing.\n---\nRead\u200b this.\n")},
	}
	results, err := Collection(fsys, Options{Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || results[0].Scan == nil || len(results[0].Scan.Findings) != 0 ||
		results[1].Scan == nil || len(results[1].Scan.Findings) != 1 || results[1].Scan.Findings[0].Rule != "hidden-zero-width" {
		t.Fatalf("Collection(Scan) = %+v, want clean unflagged and hidden with one hidden-zero-width", results)
	}
	if results, _ := Collection(fsys, Options{}); results[1].Scan != nil {
		t.Error("Collection without Scan scanned")
	}
}
