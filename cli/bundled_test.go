package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/skills"
)

// TestBundledIndexFresh fails when skills/registry/skills.yaml no longer
// matches the packages of the collection. Update it with
//
//	UPDATE_BUNDLED_INDEX=1 go test -run TestBundledIndexFresh ./cli
//
// (scripts/bundled-index.sh regenerates it and skills/skills-catalog.json
// together), or, package by package, with agent-skills publish <pkg> --registry skills --write.
func TestBundledIndexFresh(t *testing.T) {
	built, err := registry.BuildIndex(skills.FS, "bundled")
	if err != nil {
		t.Fatalf("BuildIndex(skills) = %v", err)
	}
	want := built.EncodeYAML()
	path := filepath.Join("..", "skills", filepath.FromSlash(workspace.BundledIndexPath))
	if os.Getenv("UPDATE_BUNDLED_INDEX") != "" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := fs.ReadFile(skills.FS, workspace.BundledIndexPath)
	if err != nil {
		t.Fatalf("the bundled collection has no %s: %v (set UPDATE_BUNDLED_INDEX=1)", workspace.BundledIndexPath, err)
	}
	committed, err := registry.DecodeIndex(got, workspace.BundledIndexPath)
	if err != nil {
		t.Fatalf("DecodeIndex(committed) = %v", err)
	}
	if !bytes.Equal(indexIdentity(committed), indexIdentity(built)) {
		t.Errorf("skills/%s is stale:\n%s\nwant the packages' current state:\n%s\n(set UPDATE_BUNDLED_INDEX=1 to regenerate)",
			workspace.BundledIndexPath, indexIdentity(committed), indexIdentity(built))
	}
}

// indexIdentity lists name, version, path and integrity of every version,
// the part of an index that must match the packages.
func indexIdentity(x *registry.Index) []byte {
	var b bytes.Buffer
	for _, s := range x.Skills {
		for _, v := range s.Versions {
			b.WriteString(s.Name + " " + v.Version + " " + v.Path + v.Tarball + " " + v.Integrity + "\n")
		}
	}
	return b.Bytes()
}

// TestBundledCatalogFresh fails when skills/skills-catalog.json is not what
// agent-skills catalog build skills writes, so that catalog build skills
// --check passes on every commit. UPDATE_BUNDLED_INDEX=1 rewrites it (as
// scripts/bundled-index.sh does).
func TestBundledCatalogFresh(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("AGENT_SKILLS_HOME", filepath.Join(home, ".agent-skills"))
	t.Setenv("AGENT_SKILLS_NO_UPDATE_NOTIFIER", "1")
	t.Setenv("AGENT_SKILLS_OFFLINE", "1")
	args := []string{"catalog", "build", filepath.Join("..", "skills")}
	if os.Getenv("UPDATE_BUNDLED_INDEX") == "" {
		args = append(args, "--check")
	}
	var stdout, stderr bytes.Buffer
	if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Errorf("agent-skills %s = exit %d:\n%s%s\n(run scripts/bundled-index.sh, or set UPDATE_BUNDLED_INDEX=1, to regenerate)",
			strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
}
