package maintain

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/validate"
)

// files writes a collection: path → content, below a new temporary
// folder named coll, and returns the folder.
func files(t *testing.T, m map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "coll")
	for p, c := range m {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func skill(name string) string {
	return "---\nname: " + name + "\ndescription: " + name + " does things. Use when " + name + ".\n---\n# " + name + "\n"
}

// twoSkills is a valid collection of two bare skills, without a catalog.
func twoSkills() map[string]string {
	return map[string]string{"alpha/SKILL.md": skill("alpha"), "beta/SKILL.md": skill("beta")}
}

func auditOpts() AuditOptions {
	return AuditOptions{Validate: validate.Options{}, Catalog: validate.Options{}}
}

func mustAudit(t *testing.T, root string) *Audit {
	t.Helper()
	a, err := RunAudit(context.Background(), root, auditOpts())
	if err != nil {
		t.Fatalf("RunAudit(%s) = %v", root, err)
	}
	return a
}

func write(t *testing.T, root, p, c string) {
	t.Helper()
	f := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, root, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func osDirFS(root string) fs.FS { return os.DirFS(root) }
