package maintain

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/validate"
)

func planFor(t *testing.T, root string) *Plan {
	t.Helper()
	p := NewPlan(mustAudit(t, root))
	// Through the file format, as the commands do.
	back, err := DecodePlan(Encode(p), "plan.json")
	if err != nil {
		t.Fatalf("DecodePlan(Encode(plan)) = %v", err)
	}
	return back
}

func evolveOpts(fault func(string) error) EvolveOptions {
	return EvolveOptions{Catalog: validate.Options{}, Fault: fault}
}

// snapshot returns every file below root: path → bytes.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func without(m map[string]string, key string) map[string]string {
	c := map[string]string{}
	for k, v := range m {
		if k != key {
			c[k] = v
		}
	}
	return c
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestApplyStaleCatalog(t *testing.T) {
	root := files(t, twoSkills())
	write(t, root, catalog.FileName, `{"schemaVersion": 1, "skills": []}`)
	if err := os.Chmod(filepath.Join(root, catalog.FileName), 0o600); err != nil {
		t.Fatal(err)
	}
	p := planFor(t, root)
	before := snapshot(t, root)
	pv, err := RunPreview(root, p, evolveOpts(nil))
	if err != nil || !pv.Current || len(pv.Steps) != 1 {
		t.Fatalf("RunPreview = %+v, %v; want current with one step", pv, err)
	}
	if !equalMaps(before, snapshot(t, root)) {
		t.Fatal("the preview changed the collection")
	}
	rc, err := Apply(context.Background(), root, p, evolveOpts(nil))
	if err != nil {
		t.Fatalf("Apply = %v", err)
	}
	if rc.Outcome != OutcomeApplied || !rc.Verification.CatalogFresh || !rc.Verification.PackagesUnchanged || rc.Verification.Packages != 2 {
		t.Errorf("receipt = %+v", rc)
	}
	if rc.Catalog.Before == rc.Catalog.After || rc.Catalog.After != rc.Catalog.Written || rc.Rollback != nil {
		t.Errorf("receipt catalog = %+v, rollback %+v", rc.Catalog, rc.Rollback)
	}
	file := filepath.Join(root, catalog.FileName)
	if !equalMaps(without(before, file), without(snapshot(t, root), file)) {
		t.Error("Apply changed a file other than the catalog")
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the catalog's mode is %v (%v), want the preimage's 0600", fi.Mode(), err)
	}
	if a := mustAudit(t, root); a.Catalog.State != StateFresh {
		t.Errorf("after Apply the catalog is %s", a.Catalog.State)
	}
}

func TestApplyRefusesChangedTree(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(root string)
		want string
	}{
		{"package", func(root string) { write(t, root, "beta/SKILL.md", skill("beta")+"edited\n") }, "changed: package beta"},
		{"new package", func(root string) { write(t, root, "gamma/SKILL.md", skill("gamma")) }, "added: package gamma"},
		{"removed", func(root string) { os.RemoveAll(filepath.Join(root, "alpha")) }, "removed: package alpha"},
		{"catalog", func(root string) { write(t, root, catalog.FileName, "{}") }, "changed: skills-catalog.json (absent → sha256-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := files(t, twoSkills())
			p := planFor(t, root)
			tt.edit(root)
			before := snapshot(t, root)
			rc, err := Apply(context.Background(), root, p, evolveOpts(nil))
			if !askerr.Is(err, CodeChanged) || rc != nil {
				t.Fatalf("Apply after a change = %+v, %v; want %s and no receipt", rc, err, CodeChanged)
			}
			detail := askerr.DetailOf(err)
			if !slices.ContainsFunc(detail, func(s string) bool { return len(s) >= len(tt.want) && s[:len(tt.want)] == tt.want }) {
				t.Errorf("detail = %q, want a line starting %q", detail, tt.want)
			}
			if !equalMaps(before, snapshot(t, root)) {
				t.Error("a refused Apply changed the collection")
			}
		})
	}
}

func TestApplyRollsBack(t *testing.T) {
	injected := errors.New("injected")
	fault := func(point string) error {
		if point == FaultAfterCatalogWrite {
			return injected
		}
		return nil
	}
	t.Run("present", func(t *testing.T) {
		root := files(t, twoSkills())
		pre := []byte("{\"schemaVersion\": 1,\n \"skills\": []}\n")
		write(t, root, catalog.FileName, string(pre))
		p := planFor(t, root)
		before := snapshot(t, root)
		rc, err := Apply(context.Background(), root, p, evolveOpts(fault))
		if !askerr.Is(err, CodeEvolveFailed) || rc == nil {
			t.Fatalf("Apply with a fault = %+v, %v; want %s and a receipt", rc, err, CodeEvolveFailed)
		}
		if got := read(t, root, catalog.FileName); !bytes.Equal(got, pre) {
			t.Errorf("the catalog is %q after the rollback, want the preimage %q", got, pre)
		}
		if !equalMaps(before, snapshot(t, root)) {
			t.Error("the rollback left the collection changed")
		}
		if rc.Outcome != OutcomeRolledBack || rc.Rollback == nil || !rc.Rollback.Restored || rc.Rollback.Preimage != nil ||
			rc.Catalog.After != rc.Catalog.Before || rc.Catalog.Written == "" || rc.Steps[0].Status != "rolled-back" {
			t.Errorf("receipt = %+v, rollback %+v", rc, rc.Rollback)
		}
	})
	t.Run("absent", func(t *testing.T) {
		root := files(t, twoSkills())
		p := planFor(t, root)
		rc, err := Apply(context.Background(), root, p, evolveOpts(fault))
		if !askerr.Is(err, CodeEvolveFailed) || rc == nil || !rc.Rollback.Restored {
			t.Fatalf("Apply with a fault = %+v, %v", rc, err)
		}
		if _, err := os.Lstat(filepath.Join(root, catalog.FileName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the catalog exists after rolling back its creation (%v)", err)
		}
		if rc.Catalog.After != CatalogAbsent {
			t.Errorf("receipt catalog = %+v, want after absent", rc.Catalog)
		}
	})
}

func TestApplyNothingAndMismatch(t *testing.T) {
	root := files(t, map[string]string{"alpha/SKILL.md": skill("alpha"), "beta/SKILL.md": "---\nname: beta\n---\n"})
	p := planFor(t, root)
	if len(p.Steps) != 0 || len(p.Handoffs) == 0 {
		t.Fatalf("plan = %+v, want no step and handoffs", p)
	}
	rc, err := Apply(context.Background(), root, p, evolveOpts(nil))
	if err != nil || rc.Outcome != OutcomeNothingToApply || len(rc.Handoffs) != len(p.Handoffs) {
		t.Errorf("Apply = %+v, %v; want nothing-to-apply with the handoffs", rc, err)
	}
	if _, err := Apply(context.Background(), root, p, EvolveOptions{ID: "other"}); !askerr.Is(err, CodeMismatch) {
		t.Errorf("Apply for another id = %v, want %s", err, CodeMismatch)
	}
}
