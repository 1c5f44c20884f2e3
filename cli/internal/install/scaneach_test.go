package install

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// ScanEach gives, one at a time and in the same order, the packages Scan
// lists — every state, deprecated roots, duplicates — except SeenTwiceBy,
// and stops at fn's first error.
func TestScanEachIsScan(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeGlobal)
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0", extra: map[string]string{"notes.md": "notes\n"}}),
		writePkg(t, w.base, pkgSpec{name: "t", version: "2.0.0"}), writePkg(t, w.base, pkgSpec{name: "u", version: "1.0.0"}))
	old := filepath.Join(w.home, ".codex/skills/s")
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "SKILL.md"), []byte("---\nname: s\ndescription: old copy\n---\n"), 0o644)
	os.WriteFile(filepath.Join(old, "skill.yaml"), []byte("name: s\nversion: 0.9.0\n"), 0o644)
	root := filepath.Join(w.home, ".claude/skills")
	if err := os.WriteFile(filepath.Join(root, "s/references/notes.md"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(receiptPath(root, "t"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "u")); err != nil {
		t.Fatal(err)
	}
	for _, receiptsOnly := range []bool{false, true} {
		o := opts
		o.ReceiptsOnly = receiptsOnly
		want, err := Scan(t.Context(), o)
		if err != nil {
			t.Fatal(err)
		}
		twice := 0
		for i := range want {
			twice += len(want[i].SeenTwiceBy)
			want[i].SeenTwiceBy = nil
		}
		states := map[State]bool{}
		var got []Installed
		if err := ScanEach(t.Context(), o, func(in Installed) error {
			states[in.State] = true
			got = append(got, in)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ReceiptsOnly %v: ScanEach gave\n%+v\nScan listed\n%+v", receiptsOnly, got, want)
		}
		if twice == 0 || !states[StateOK] || !states[StateUnmanaged] || !states[StateReceiptBroken] || !states[StateModified] {
			t.Errorf("ReceiptsOnly %v: the roots lack a case: states %v, seen twice %d", receiptsOnly, states, twice)
		}
	}
	stop := errors.New("stop")
	calls := 0
	err := ScanEach(t.Context(), opts, func(Installed) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("ScanEach with fn failing = %v after %d calls, want fn's error after 1", err, calls)
	}
}
