package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// viewBytes counts the bytes of receipts-folder files and run journal
// entries a view holds.
func viewBytes(v *metaView) (files, runs int) {
	for _, rm := range v.roots {
		for _, f := range rm.files {
			files += len(f.data)
		}
		for _, e := range rm.runs {
			runs += len(e)
		}
	}
	return files, runs
}

// A Memo keeps the receipts a run wrote or read up to metaKeep bytes, and
// no run journal entry: an install of thousands does not hold every
// receipt until the command ends. The scans after it read the receipts it
// does not keep from their files, and see what they would without it.
func TestMemoKeepsReceiptsToABound(t *testing.T) {
	old := metaKeep
	metaKeep = 4 << 10
	t.Cleanup(func() { metaKeep = old })
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code", "codex")
	var items []Item
	for i := range 24 {
		items = append(items, writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("p%02d", i), version: "1.0.0"}))
	}
	m := NewMemo()
	opts.Memo = m
	if _, err := Install(t.Context(), items, opts); err != nil {
		t.Fatal(err)
	}
	files, runs := viewBytes(&m.v)
	if files > metaKeep || files != m.v.kept || runs != 0 {
		t.Errorf("after the install the Memo holds %d bytes of files (counted %d) and %d of run journal entries; want at most %d and none", files, m.v.kept, runs, metaKeep)
	}
	if files == 0 {
		t.Errorf("the Memo keeps no receipt at all")
	}
	want, err := Scan(t.Context(), Options{Scope: opts.Scope, Env: opts.Env, Agents: opts.Agents})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		opened := m.v.opened
		got, err := Scan(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Scan through the Memo =\n%v\nwant\n%v", got, want)
		}
		if m.v.opened == opened || m.v.opened-opened >= 2*len(items) {
			t.Errorf("Scan through the Memo opened %d receipts of %d: want those it does not keep, only", m.v.opened-opened, 2*len(items))
		}
		if files, _ := viewBytes(&m.v); files > metaKeep {
			t.Errorf("after a scan the Memo holds %d bytes of files, over %d", files, metaKeep)
		}
	}
}

// An install of more than planChunk items stages each chunk once it is
// planned, and puts in place exactly what one of a single chunk does; a
// refusal in a later chunk undoes what the earlier ones staged.
func TestInstallInChunks(t *testing.T) {
	old := planChunk
	planChunk = 2
	t.Cleanup(func() { planChunk = old })
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code", "codex")
	var v1, v2 []Item
	for i := range 5 {
		v1 = append(v1, writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("p%d", i), version: "1.0.0"}))
		v2 = append(v2, writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("p%d", i), version: "2.0.0", extra: map[string]string{"r.md": "two"}}))
	}
	mustInstall(t, opts, v1...)
	checkConsistent(t, opts, map[string]string{"p0": "1.0.0", "p1": "1.0.0", "p2": "1.0.0", "p3": "1.0.0", "p4": "1.0.0"})

	// p4, the last chunk's, was changed: nothing is upgraded.
	changed := filepath.Join(w.project, ".claude/skills/p4/SKILL.md")
	orig := readFile(t, changed)
	if err := os.WriteFile(changed, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, w.project)
	_, err := Install(t.Context(), v2, opts)
	var ie *askerr.Error
	if !errors.As(err, &ie) || ie.Code != CodeModifiedInstall {
		t.Fatalf("Install over a changed p4 = %v, want ASK_MODIFIED_INSTALL", err)
	}
	if after := snapshot(t, w.project); after != before {
		t.Errorf("a refused install in chunks changed the project:\n%s\nwant\n%s", after, before)
	}

	os.WriteFile(changed, []byte(orig), 0o644)
	mustInstall(t, opts, v2...)
	checkConsistent(t, opts, map[string]string{"p0": "2.0.0", "p1": "2.0.0", "p2": "2.0.0", "p3": "2.0.0", "p4": "2.0.0"})
	for _, root := range []string{".claude/skills", ".agents/skills"} {
		if ents, _ := os.ReadDir(filepath.Join(w.project, root, metaDir, "staging")); len(ents) > 0 {
			t.Errorf("%s: staging left %d entries", root, len(ents))
		}
	}
}

// A run that keeps few receipts (metaKeep) lets the others go once its
// run journals hold them, and its commits read them back from there: the
// receipt files are exactly what encodeReceipt gives, for new installs,
// upgrades and the rename-aside fallback, strings JSON escapes included.
func TestReceiptsReadBackFromTheJournal(t *testing.T) {
	old := metaKeep
	metaKeep = 1 << 10
	t.Cleanup(func() { metaKeep = old })
	for _, noExchange := range []bool{false, true} {
		w := newWorld(t)
		opts := w.opts(t, agents.ScopeProject, "claude-code", "codex")
		opts.noExchange = noExchange
		var v1, v2 []Item
		for i := range 12 {
			it := writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("p%02d", i), version: "1.0.0"})
			it.Registry = "r<&>\u2028"
			v1 = append(v1, it)
			it = writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("p%02d", i), version: "2.0.0", extra: map[string]string{"r.md": "two"}})
			it.Registry = "r<&>\u2028"
			v2 = append(v2, it)
		}
		versions := map[string]string{}
		for _, items := range [][]Item{v1, v2} {
			mustInstall(t, opts, items...)
			for _, it := range items {
				versions[it.Pkg.Name()] = it.Pkg.Version()
			}
			checkConsistent(t, opts, versions)
			for _, root := range []string{".claude/skills", ".agents/skills"} {
				for _, it := range items {
					p := receiptPath(filepath.Join(w.project, root), it.Pkg.Name())
					data := readFile(t, p)
					rec, err := decodeReceipt([]byte(data), it.Pkg.Name())
					if err != nil {
						t.Fatalf("%s: %v", p, err)
					}
					if want := string(encodeReceipt(rec)); data != want || rec.Registry != it.Registry {
						t.Errorf("%s =\n%s\nwant\n%s", p, data, want)
					}
				}
			}
		}
	}
}
