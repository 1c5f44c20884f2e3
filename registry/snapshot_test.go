package registry

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestSnapshotVerifiesTheBytesItHolds(t *testing.T) {
	root := t.TempDir()
	writeLocalRegistry(t, root)
	reg, err := Open(Spec{Name: "loc", URL: root, Kind: KindLocal}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pkg, integrity, err := Snapshot(ctx, reg, "alpha", "1.0.0")
	if err != nil {
		t.Fatalf("Snapshot(alpha) = %v", err)
	}
	if pkg.Name() != "alpha" || integrity == "" {
		t.Fatalf("Snapshot(alpha) = %s, %q", pkg.Name(), integrity)
	}
	// Changing the registry afterwards does not change the snapshot.
	p := filepath.Join(root, "skills", "alpha", "SKILL.md")
	before, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(before, "tampered\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := pkg.FS.Open("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	buf := make([]byte, len(before)+20)
	n, _ := got.Read(buf)
	if string(buf[:n]) != string(before) {
		t.Errorf("snapshot SKILL.md changed with the registry")
	}
	if _, _, err := Snapshot(ctx, reg, "alpha", "1.0.0"); err == nil {
		t.Errorf("Snapshot of a tampered package succeeded, want ASK_INTEGRITY_MISMATCH")
	}
}

// writeLocalRegistry writes a one-package registry (alpha 1.0.0) at root.
func writeLocalRegistry(t *testing.T, root string) {
	t.Helper()
	pkg := filepath.Join(root, "skills", "alpha")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"skill.yaml": "schemaVersion: 1\nname: alpha\nversion: 1.0.0\ndescription: Alpha.\nfiles: [SKILL.md]\n",
		"SKILL.md":   "---\nname: alpha\ndescription: Alpha. Use when testing.\n---\n# Alpha\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := format.Digest(os.DirFS(pkg), []string{"SKILL.md", "skill.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	index := "schemaVersion: 1\nskills:\n  - name: alpha\n    versions:\n      - version: 1.0.0\n        path: skills/alpha\n        integrity: " + sum + "\n"
	os.MkdirAll(filepath.Join(root, "registry"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "registry", "skills.yaml"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
}
