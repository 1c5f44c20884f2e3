package publish

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
)

func TestPackIsReproducible(t *testing.T) {
	src := t.TempDir()
	pkgDir := writePkg(t, src, pkgSpec{name: "alpha", version: "1.0.0", body: "Packed."})
	writeFile(t, filepath.Join(pkgDir, "references", "deep", "notes.md"), "notes\n")
	writeFile(t, filepath.Join(pkgDir, "skill.yaml"), "schemaVersion: 1\nname: alpha\nversion: 1.0.0\ndescription: Packed skill. Use when testing pack.\nlicense: MIT\nfiles:\n  - SKILL.md\n  - references/\n")
	plan, err := Prepare(context.Background(), pkgDir, FolderTarget{Root: t.TempDir()}, Options{})
	if err != nil {
		t.Fatalf("Prepare(alpha) = %v", err)
	}
	pkg, diags := format.Load(os.DirFS(pkgDir), format.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var archives [][]byte
	for i := 0; i < 2; i++ {
		dir := filepath.Join(t.TempDir(), "out")
		file, err := Pack(pkg, dir)
		if err != nil {
			t.Fatalf("Pack(alpha) = %v", err)
		}
		if filepath.Base(file) != "alpha-1.0.0.tar.gz" {
			t.Errorf("Pack(alpha) = %q, want alpha-1.0.0.tar.gz", file)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, data)
		// Touching the sources' times must not change the bytes.
		_ = os.Chtimes(filepath.Join(pkgDir, "SKILL.md"), plan2time(i), plan2time(i))
	}
	if !bytes.Equal(archives[0], archives[1]) {
		t.Errorf("Pack(alpha) twice gave different bytes (%d and %d)", len(archives[0]), len(archives[1]))
	}
	out := t.TempDir()
	if _, err := registry.Extract(context.Background(), bytes.NewReader(archives[0]), out, registry.DefaultExtractLimits()); err != nil {
		t.Fatalf("Extract(pack) = %v", err)
	}
	got, err := format.Digest(os.DirFS(out), plan.Files)
	if err != nil {
		t.Fatal(err)
	}
	if got != plan.Integrity {
		t.Errorf("digest of extracted pack = %q, want the plan's %q", got, plan.Integrity)
	}
}

// plan2time returns a distinct modification time per iteration.
func plan2time(i int) (t time.Time) { return time.Unix(int64(1_700_000_000+i*3600), 0) }
