package publish

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// copyTree copies the regular files of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dst, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPublishIntoBundledCollection(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"java-basics", "jvm-gc-tuning"} {
		copyTree(t, filepath.Join("..", "..", "..", "skills", name), filepath.Join(root, name))
	}
	idx, err := registry.BuildIndex(os.DirFS(root), "bundled")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "registry", "skills.yaml"), "# Generated; publish --write keeps it current.\n"+string(idx.EncodeYAML()))
	pkgDir := filepath.Join(root, "java-basics")
	for _, f := range []string{"skill.yaml", "SKILL.md"} {
		data, err := os.ReadFile(filepath.Join(pkgDir, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(pkgDir, f), strings.Replace(string(data), "version: 1.2.0", "version: 1.3.0", 1))
	}
	before := entries(t, root)
	plan, res := publishTo(t, root, pkgDir)
	if plan.Path != "java-basics" {
		t.Errorf("Prepare(bundled java-basics).Path = %q, want java-basics", plan.Path)
	}
	if res.Copied {
		t.Errorf("Write(bundled java-basics).Copied = true, want nothing copied")
	}
	if got := entries(t, root); got != before {
		t.Errorf("registry root holds %q after Write, want %q", got, before)
	}
	if len(res.Dropped) != 1 || res.Dropped[0] != "java-basics@1.2.0" || len(res.Warnings) != 1 {
		t.Errorf("Write(bundled java-basics) dropped %v warnings %v, want java-basics@1.2.0 with a warning", res.Dropped, res.Warnings)
	}
	data, _ := os.ReadFile(filepath.Join(root, "registry", "skills.yaml"))
	if !strings.HasPrefix(string(data), "# Generated;") {
		t.Errorf("index lost its header comment:\n%s", data)
	}
	s, _ := readIndex(t, root).Skill("java-basics")
	if s.Latest != "1.3.0" || len(s.Versions) != 1 || s.Versions[0].Path != "java-basics" {
		t.Errorf("java-basics after Write = %+v, want only 1.3.0 at java-basics", s)
	}
	if _, err := openLocal(t, root).Package(context.Background(), "java-basics", "1.3.0"); err != nil {
		t.Errorf("Package(java-basics, 1.3.0) = %v, want verified", err)
	}
	// The rebuilt index of the collection now agrees with the patched one.
	rebuilt, err := registry.BuildIndex(os.DirFS(root), "bundled")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(readIndex(t, root).EncodeJSON()), string(rebuilt.EncodeJSON()); got != want {
		t.Errorf("patched index =\n%s\nwant BuildIndex's\n%s", got, want)
	}
}
