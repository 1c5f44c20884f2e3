package publish

import (
	"context"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
)

// TestPrepareWithoutRegistry: a package prepared for no registry (publish
// --pack alone) is validated and digested, and the checks that need a
// registry are listed as skipped rather than run — a dependency no
// registry could resolve does not stop it.
func TestPrepareWithoutRegistry(t *testing.T) {
	dir := writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "1.0.0", extra: "dependencies:\n  - name: nowhere\n    version: ^1.0.0\n"})
	plan, err := Prepare(context.Background(), dir, nil, Options{})
	if err != nil {
		t.Fatalf("Prepare(no registry) = %v", err)
	}
	if len(plan.Skipped) != 2 || plan.Integrity == "" || plan.Path != "" {
		t.Errorf("Prepare(no registry) = skipped %q, integrity %q, path %q", plan.Skipped, plan.Integrity, plan.Path)
	}
	// With a registry the same package is refused: the check was really
	// skipped, not passed.
	if _, err := Prepare(context.Background(), dir, FolderTarget{Root: t.TempDir()}, Options{}); askerr.CodeOf(err) != "ASK_SKILL_NOT_FOUND" {
		t.Errorf("Prepare(empty registry) = %v, want ASK_SKILL_NOT_FOUND", err)
	}
}

// TestRegistryTargetChecksWithoutWriting: a registry opened read-only
// (publish --offline against a git registry's cache) answers the version
// and dependency checks, and refuses to be written.
func TestRegistryTargetChecksWithoutWriting(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	reg, err := registry.Open(registry.Spec{Name: "team", URL: root, Kind: registry.KindLocal}, registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	target := RegistryTarget{Registry: reg}
	if _, err := Prepare(ctx, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}), target, Options{}); askerr.CodeOf(err) != CodePublishVersionExists {
		t.Errorf("Prepare(alpha 1.0.0 again) = %v, want %s", err, CodePublishVersionExists)
	}
	dep := writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "1.0.0", extra: "dependencies:\n  - name: alpha\n    version: ^1.0.0\n"})
	plan, err := Prepare(ctx, dep, target, Options{})
	if err != nil {
		t.Fatalf("Prepare(beta needing alpha) = %v", err)
	}
	if plan.Dependencies["alpha"] != "1.0.0" || plan.Path != "skills/beta" {
		t.Errorf("plan = dependencies %v, path %s", plan.Dependencies, plan.Path)
	}
	if _, err := target.Write(ctx, plan, dep); askerr.CodeOf(err) != askerr.CodeUsage {
		t.Errorf("Write = %v, want %s", err, askerr.CodeUsage)
	}
}
