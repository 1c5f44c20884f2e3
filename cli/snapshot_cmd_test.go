package cli

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// snapshotWorld is a throw-away HOME and a folder with one package.
type snapshotWorld struct{ home, dir string }

func (w snapshotWorld) getenv(k string) string {
	switch k {
	case "HOME":
		return w.home
	case "AGENT_SKILLS_HOME":
		return filepath.Join(w.home, ".agent-skills")
	case "NO_COLOR", "AGENT_SKILLS_NO_UPDATE_NOTIFIER":
		return "1"
	}
	return ""
}

func (w snapshotWorld) run(ctx context.Context, args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := run(ctx, args, nil, &out, &errb, w.getenv)
	return code, out.String() + errb.String()
}

func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSnapshotRestoreFaultLeavesDest: a failure after the staged copy was
// checked, right before the swap, leaves the destination exactly as it
// was and nothing beside it; the same restore without the fault then
// puts the package back.
func TestSnapshotRestoreFaultLeavesDest(t *testing.T) {
	base := t.TempDir()
	w := snapshotWorld{home: filepath.Join(base, "home"), dir: filepath.Join(base, "work")}
	pkg := filepath.Join(w.dir, "pkg")
	writeFile(t, filepath.Join(pkg, "SKILL.md"), "---\nname: pkg\ndescription: A skill.\n---\nBody.\n")
	writeFile(t, filepath.Join(pkg, "references", "a.md"), "# A\n")
	snap := filepath.Join(w.dir, "pkg.json")
	if code, out := w.run(t.Context(), "snapshot", "capture", pkg, "--out", snap); code != 0 {
		t.Fatalf("capture exited %d\n%s", code, out)
	}
	writeFile(t, filepath.Join(pkg, "references", "a.md"), "# A, edited\n")
	writeFile(t, filepath.Join(pkg, "mine.txt"), "mine\n")
	before := listTree(t, pkg)

	injected := errors.New("injected fault")
	var points []string
	ctx := withFault(t.Context(), func(p string) error { points = append(points, p); return injected })
	code, out := w.run(ctx, "snapshot", "restore", snap, pkg, "--force")
	if code == 0 || !strings.Contains(out, "injected fault") {
		t.Fatalf("restore with a fault exited %d, want a failure naming the fault\n%s", code, out)
	}
	if !slices.Equal(points, []string{pointRestoreStaged}) {
		t.Errorf("fault points %v, want [%s]", points, pointRestoreStaged)
	}
	if after := listTree(t, pkg); !maps.Equal(before, after) {
		t.Errorf("after a failed restore the folder holds %v, want %v", after, before)
	}
	entries, _ := os.ReadDir(w.dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"pkg", "pkg.json"}) {
		t.Errorf("beside the folder: %v, want [pkg pkg.json] (no staging folder left)", names)
	}

	if code, out := w.run(t.Context(), "snapshot", "restore", snap, pkg, "--force"); code != 0 {
		t.Fatalf("restore exited %d\n%s", code, out)
	}
	want := map[string]string{"SKILL.md": "---\nname: pkg\ndescription: A skill.\n---\nBody.\n", "references/a.md": "# A\n"}
	if after := listTree(t, pkg); !maps.Equal(after, want) {
		t.Errorf("after restore: %v, want %v", after, want)
	}
}
