package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// Scan with ReceiptsOnly reports what the receipts say without reading
// the files: an edited file is not seen, a package that is gone or was
// put in place by hand still is.
func TestScanReceiptsOnly(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"notes.md": "notes\n"}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}))
	root := filepath.Join(w.project, ".claude/skills")
	if err := os.WriteFile(filepath.Join(root, "a/references/notes.md"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "hand"), 0o755); err != nil {
		t.Fatal(err)
	}
	full, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ro := opts
	ro.ReceiptsOnly = true
	light, err := Scan(t.Context(), ro)
	if err != nil {
		t.Fatal(err)
	}
	state := func(list []Installed) map[string]string {
		m := map[string]string{}
		for _, in := range list {
			m[in.Name] = string(in.State) + " " + in.Version
			if len(in.Drift) > 0 || len(in.ModifiedFiles) > 0 {
				m[in.Name] += " drift"
			}
		}
		return m
	}
	if got := state(full); got["a"] != string(StateModified)+" 1.0.0 drift" {
		t.Fatalf("Scan() a = %q, want modified with drift", got["a"])
	}
	got := state(light)
	want := map[string]string{"a": string(StateOK) + " 1.0.0", "b": string(StateModified) + " 1.0.0", "hand": string(StateUnmanaged) + " "}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("Scan(ReceiptsOnly) %s = %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Scan(ReceiptsOnly) = %v, want %v", got, want)
	}
}
