package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// A run journal (receipts/.run-<id>.pending) a clone ships is checked
// entry by entry as strictly as a <name>.json.pending file: every
// operation refuses one that names anything but its own package's place,
// and nothing changes, in the project or outside it.
func TestHostileRunJournalIsRefused(t *testing.T) {
	const meta = ".claude/skills/.agent-skills/"
	const journal = meta + "receipts/.run-0123456789abcdef.pending"
	wrap := func(entries ...string) string {
		return `{"schemaVersion": 1, "entries": [` + strings.Join(entries, ",") + `]}`
	}
	cases := map[string]map[string]string{
		"another destination": {
			".claude/skills/lnk": "-> ../../../victim",
			journal:              wrap(`{"name": "zz", "dest": "stolen", "aside": "lnk/secret-dir"}`),
		},
		"aside outside staging": {
			".claude/skills/lnk": "-> ../../../victim",
			journal:              wrap(`{"name": "zz", "dest": "zz"}`, `{"name": "yy", "dest": "yy", "aside": "lnk/secret-dir"}`),
		},
		"a destination outside the root": {journal: wrap(`{"name": "zz", "dest": "../../../victim/secret-dir"}`)},
		"a name that is a path":          {journal: wrap(`{"name": "../../../victim", "dest": "../../../victim"}`)},
		"a hidden name":                  {journal: wrap(`{"name": ".agent-skills", "dest": ".agent-skills"}`)},
		"the journal is a link":          {journal: "-> ../../../../../victim/Documents/thesis.tex"},
	}
	for name, entries := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			v := victim(t, w)
			plant(t, w.project, entries)
			opts := w.opts(t, agents.ScopeProject, "claude-code")
			opts.Env.Canonical = Canonicalizer(w.project, w.home)
			item := writePkg(t, w.base, pkgSpec{name: "zz", version: "1.0.0"})
			beforeV, beforeP := snapshot(t, v), snapshot(t, w.project)
			ops := map[string]func() error{
				"install": func() error { _, err := Install(t.Context(), []Item{item}, opts); return err },
				"uninstall --force": func() error {
					o := opts
					o.Force = true
					_, err := Uninstall(t.Context(), []string{"zz"}, o)
					return err
				},
				"recover": func() error { return Recover(t.Context(), opts) },
				"scan":    func() error { _, err := Scan(t.Context(), opts); return err },
			}
			for op, f := range ops {
				var ie *askerr.Error
				if err := f(); !errors.As(err, &ie) || ie.Code != CodeRootUnsafe {
					t.Errorf("%s = %v, want ASK_ROOT_UNSAFE", op, err)
				}
			}
			if after := snapshot(t, v); after != beforeV {
				t.Errorf("the folder outside the project changed:\n%s\nwant\n%s", after, beforeV)
			}
			if after := snapshot(t, w.project); after != beforeP {
				t.Errorf("the project changed:\n%s\nwant\n%s", after, beforeP)
			}
		})
	}
}

// A torn run journal names nothing (it was being written before any swap
// of its run): recovery removes it and changes nothing else; one that
// parses is settled like the pending receipts it holds.
func TestRunJournalRecovery(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}))
	root := filepath.Join(w.project, ".claude/skills")
	torn := filepath.Join(receiptsDir(root), ".run-0123456789abcdef.pending")
	os.WriteFile(torn, []byte(`{"schemaVersion": 1, "entries": [{"name": "a", "dest": "a", "rec`), 0o644)
	before := snapshot(t, filepath.Join(root, "a"))
	receipt := readFile(t, receiptPath(root, "a"))
	if err := Recover(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if exists(torn) {
		t.Errorf("recovery left the torn run journal")
	}
	if snapshot(t, filepath.Join(root, "a")) != before || readFile(t, receiptPath(root, "a")) != receipt {
		t.Errorf("recovery from a torn run journal changed the package or its receipt")
	}
	// A journal whose receipt is in place (killed before the receipt
	// was written) gives the receipt back.
	os.Remove(receiptPath(root, "a"))
	rec, _, _ := readReceipt(root, "a")
	if rec != nil {
		t.Fatal("receipt still there")
	}
	var entry strings.Builder
	entry.WriteString(`{"schemaVersion": 1, "entries": [{"name": "a", "dest": "a", "receipt": `)
	entry.WriteString(strings.TrimSpace(receipt))
	entry.WriteString(`}]}`)
	os.WriteFile(torn, []byte(entry.String()), 0o644)
	list, err := Scan(t.Context(), opts)
	if err != nil || len(list) != 1 || list[0].State != StateOK || !list[0].Pending {
		t.Fatalf("Scan with a run journal = %+v, %v; want a, ok, pending", list, err)
	}
	if err := Recover(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if exists(torn) || readFile(t, receiptPath(root, "a")) != receipt {
		t.Errorf("recovery did not settle the run journal: receipt %q", readFile(t, receiptPath(root, "a")))
	}
	checkConsistent(t, opts, map[string]string{"a": "1.0.0"})
}
