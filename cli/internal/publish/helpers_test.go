package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// pkgSpec describes a test package.
type pkgSpec struct {
	name, version string
	body          string // SKILL.md body; varies the content
	extra         string // extra skill.yaml lines
	keywords      string
}

// writePkg creates the package folder dir/<name> and returns its path.
func writePkg(t testing.TB, dir string, p pkgSpec) string {
	t.Helper()
	root := filepath.Join(dir, p.name)
	kw := p.keywords
	if kw == "" {
		kw = "[test, sample]"
	}
	manifest := fmt.Sprintf(`schemaVersion: 1
name: %s
version: %s
description: The %s skill, for tests. Use when testing publish.
license: Apache-2.0
keywords: %s
files:
  - SKILL.md
%s`, p.name, p.version, p.name, kw, p.extra)
	skill := fmt.Sprintf("---\nname: %s\ndescription: The %s skill, for tests. Use when testing publish.\n---\n\n# %s\n\n%s\n", p.name, p.name, p.name, p.body)
	writeFile(t, filepath.Join(root, "skill.yaml"), manifest)
	writeFile(t, filepath.Join(root, "SKILL.md"), skill)
	return root
}

// writeFile writes content, creating parents.
func writeFile(t testing.TB, file, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// publishTo prepares and writes a package into a folder registry.
func publishTo(t testing.TB, root, pkgDir string) (*Plan, *WriteResult) {
	t.Helper()
	ctx := context.Background()
	target := FolderTarget{Root: root}
	plan, err := Prepare(ctx, pkgDir, target, Options{})
	if err != nil {
		t.Fatalf("Prepare(%q) = %v", pkgDir, err)
	}
	res, err := target.Write(ctx, plan, pkgDir)
	if err != nil {
		t.Fatalf("Write(%q) = %v", pkgDir, err)
	}
	return plan, res
}

// readIndex decodes root's index.
func readIndex(t testing.TB, root string) *registry.Index {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "registry", "skills.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := registry.DecodeIndex(data, "skills.yaml")
	if err != nil {
		t.Fatalf("DecodeIndex = %v\n%s", err, data)
	}
	return idx
}

// openLocal opens root as a local registry.
func openLocal(t testing.TB, root string) registry.Registry {
	t.Helper()
	reg, err := registry.Open(registry.Spec{Name: "test", URL: root, Kind: registry.KindLocal}, registry.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// codeOf returns the ASK_* code of err, or "".
func codeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}

// entries lists the names in dir, sorted, skipping none.
func entries(t testing.TB, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}
