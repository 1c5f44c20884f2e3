//go:build unix

package install

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/agents"
)

// TestHostileMetadataIsRefused plants, in a project's Claude Code root,
// what a cloned repository can ship to aim recovery at the rest of the
// disk (issue 11, B02 and B03), and checks that every operation refuses
// with ASK_ROOT_UNSAFE and that nothing changes, in the project or in the
// folder outside it.
func TestHostileMetadataIsRefused(t *testing.T) {
	const meta = ".claude/skills/.agent-skills/"
	cases := []struct {
		name  string
		plant map[string]string
	}{
		// B02: recovery's staging clean-up deleted everything in victim.
		{name: "staging links out of the project", plant: map[string]string{meta + "staging": "-> ../../../../victim"}},
		{name: "staging links inside the root", plant: map[string]string{meta + "receipts/": "/", meta + "staging": "-> receipts"}},
		{name: ".agent-skills is a link", plant: map[string]string{".claude/skills/.agent-skills": "-> ../../../victim"}},
		{name: "receipts is a link", plant: map[string]string{meta + "receipts": "-> ../../../../victim/Documents"}},
		{name: "a receipt is a link", plant: map[string]string{meta + "receipts/zz.json": "-> ../../../../../victim/Documents/thesis.tex"}},
		{name: "a pending receipt is a link", plant: map[string]string{meta + "receipts/zz.json.pending": "-> ../../../../../victim/Documents/thesis.tex"}},
		// B03: recovery renamed victim/secret-dir into the project.
		{name: "pending names another destination", plant: map[string]string{
			".claude/skills/lnk":              "-> ../../../victim",
			meta + "receipts/zz.json.pending": `{"dest": "stolen", "aside": "lnk/secret-dir"}`,
		}},
		{name: "pending puts aside outside staging", plant: map[string]string{
			".claude/skills/lnk":              "-> ../../../victim",
			meta + "receipts/zz.json.pending": `{"dest": "zz", "aside": "lnk/secret-dir"}`,
		}},
		{name: "pending names a destination outside the root", plant: map[string]string{
			meta + "receipts/zz.json.pending": `{"dest": "../../../victim/secret-dir"}`,
		}},
		{name: "pending names another package's old version", plant: map[string]string{
			meta + "staging/yy.0123456789abcdef.old/SKILL.md": "x",
			meta + "receipts/zz.json.pending":                 `{"dest": "zz", "aside": ".agent-skills/staging/yy.0123456789abcdef.old"}`,
		}},
		{name: "pending's old version is a link", plant: map[string]string{
			meta + "staging/zz.0123456789abcdef.old": "-> ../../../../../victim/secret-dir",
			meta + "receipts/zz.json.pending":        `{"dest": "zz", "aside": ".agent-skills/staging/zz.0123456789abcdef.old"}`,
		}},
		{name: "pending of a hidden name", plant: map[string]string{
			meta + "receipts/.agent-skills.json.pending": `{"dest": ".agent-skills"}`,
		}},
		{name: "pending receipt of another shape", plant: map[string]string{
			meta + "receipts/zz.json.pending": `{"dest": "zz", "receipt": {"schemaVersion": 1, "name": "zz", "shape": "file", "files": [{"path": "zz", "digest": "sha256-x", "mode": "0644"}]}}`,
		}},
		// A project root that a link makes resolve outside the project.
		{name: "the root links out of the project", plant: map[string]string{".claude/skills": "-> ../../victim"}},
		{name: "the root's parent links out of the project", plant: map[string]string{".claude": "-> ../victim"}},
		{name: "the root links out by an absolute path", plant: map[string]string{".claude/skills": "-> /"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			v := victim(t, w)
			plant(t, w.project, tc.plant)
			opts := w.opts(t, agents.ScopeProject, "claude-code")
			opts.Env.Canonical = Canonicalizer(w.project, w.home)
			item := writePkg(t, w.base, pkgSpec{name: "zz", version: "1.0.0"})
			beforeV, beforeP := snapshot(t, v), snapshot(t, w.project)
			ops := map[string]func() error{
				"install": func() error { _, err := Install(t.Context(), []Item{item}, opts); return err },
				"install --force": func() error {
					o := opts
					o.Force = true
					_, err := Install(t.Context(), []Item{item}, o)
					return err
				},
				"install --dry-run": func() error {
					o := opts
					o.DryRun = true
					_, err := Install(t.Context(), []Item{item}, o)
					return err
				},
				"uninstall --force": func() error {
					o := opts
					o.Force = true
					_, err := Uninstall(t.Context(), []string{"zz"}, o)
					return err
				},
				"recover": func() error { return Recover(t.Context(), opts) },
				"scan":    func() error { _, err := Scan(t.Context(), opts); return err },
			}
			for _, op := range []string{"install", "install --force", "install --dry-run", "uninstall --force", "recover", "scan"} {
				err := ops[op]()
				var ie *askerr.Error
				if !errors.As(err, &ie) || ie.Code != CodeRootUnsafe || len(ie.Try) == 0 {
					t.Errorf("%s = %v, want ASK_ROOT_UNSAFE (exit 5) with hints", op, err)
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

// TestRecoveryRemovesOnlyItsOwnEntries checks that recovery clears the
// staging entries a killed run leaves and nothing else found there.
func TestRecoveryRemovesOnlyItsOwnEntries(t *testing.T) {
	w := newWorld(t)
	const stage = ".claude/skills/.agent-skills/staging/"
	plant(t, w.project, map[string]string{
		stage + "s.0123456789abcdef.staged/SKILL.md":                         "new",
		stage + "s.fedcba9876543210.old/SKILL.md":                            "old",
		stage + "c.0011223344556677.staged":                                  "a staged command",
		stage + "s.0123456789abcdef.old":                                     "-> ../../../../../victim",
		stage + "notes.txt":                                                  "not ours",
		stage + "s.0123456789ABCDEF.old/x":                                   "not ours: upper-case id",
		stage + "s.01234567.old/x":                                           "not ours: short id",
		".claude/skills/.agent-skills/receipts/.s.json.tmp-0123456789abcdef": "torn",
		".claude/skills/.agent-skills/receipts/.s.json.tmp-mine":             "not ours",
	})
	v := victim(t, w)
	beforeV := snapshot(t, v)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	if err := Recover(t.Context(), opts); err != nil {
		t.Fatalf("Recover() = %v", err)
	}
	var left []string
	for _, dir := range []string{stage, ".claude/skills/.agent-skills/receipts/"} {
		ents, _ := os.ReadDir(filepath.Join(w.project, dir))
		for _, e := range ents {
			left = append(left, dir+e.Name())
		}
	}
	want := []string{
		stage + "notes.txt", stage + "s.0123456789ABCDEF.old", stage + "s.01234567.old",
		".claude/skills/.agent-skills/receipts/.s.json.tmp-mine",
	}
	slices.Sort(left)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("Recover() left %q, want %q", left, want)
	}
	if after := snapshot(t, v); after != beforeV {
		t.Errorf("Recover() changed the folder a staging link points to:\n%s\nwant\n%s", after, beforeV)
	}
}

// TestHostileReceiptStaysInPackage checks that a committed receipt which
// names paths outside its package, or a package folder holding a link out
// of it, never makes an upgrade or an uninstall delete anything there.
func TestHostileReceiptStaysInPackage(t *testing.T) {
	const root = ".claude/skills/"
	cases := map[string]map[string]string{
		"receipt with ..": {
			root + "s/SKILL.md": "x",
			root + ".agent-skills/receipts/s.json": `{"schemaVersion": 1, "name": "s", "version": "1.0.0", "kind": "skill", "shape": "directory",
				"files": [{"path": "../../../../victim/Documents/thesis.tex", "digest": "sha256-x", "mode": "0644"}]}`,
		},
		"receipt with an absolute path": {
			root + "s/SKILL.md": "x",
			root + ".agent-skills/receipts/s.json": `{"schemaVersion": 1, "name": "s", "version": "1.0.0", "kind": "skill", "shape": "directory",
				"files": [{"path": "/etc/passwd", "digest": "sha256-x", "mode": "0644"}]}`,
		},
		"link in the package folder": {
			root + "s/SKILL.md": "x",
			root + "s/docs":     "-> ../../../../victim/Documents",
			root + ".agent-skills/receipts/s.json": `{"schemaVersion": 1, "name": "s", "version": "1.0.0", "kind": "skill", "shape": "directory",
				"files": [{"path": "docs/thesis.tex", "digest": "sha256-x", "mode": "0644"}]}`,
		},
		"the package folder is a link": {
			root + "s": "-> ../../../victim/secret-dir",
			root + ".agent-skills/receipts/s.json": `{"schemaVersion": 1, "name": "s", "version": "1.0.0", "kind": "skill", "shape": "directory",
				"files": [{"path": "plans.txt", "digest": "sha256-x", "mode": "0644"}]}`,
		},
	}
	for name, entries := range cases {
		for _, op := range []string{"install --force", "uninstall --force"} {
			t.Run(name+"/"+op, func(t *testing.T) {
				w := newWorld(t)
				v := victim(t, w)
				plant(t, w.project, entries)
				before := snapshot(t, v)
				opts := w.opts(t, agents.ScopeProject, "claude-code")
				opts.Env.Canonical = Canonicalizer(w.project, w.home)
				opts.Force = true
				var err error
				if op == "install --force" {
					_, err = Install(t.Context(), []Item{writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0"})}, opts)
				} else {
					_, err = Uninstall(t.Context(), []string{"s"}, opts)
				}
				if err != nil {
					t.Fatalf("%s = %v", op, err)
				}
				if after := snapshot(t, v); after != before {
					t.Errorf("%s changed the folder outside the package:\n%s\nwant\n%s", op, after, before)
				}
			})
		}
	}
}

// TestNamesStayBelowRoot checks that a name is one folder below an agent
// root: uninstall ../precious --force must not remove a folder beside it.
func TestNamesStayBelowRoot(t *testing.T) {
	w := newWorld(t)
	plant(t, w.project, map[string]string{".claude/precious/f": "keep", ".claude/skills/.agent-skills/x.json": "{}"})
	before := snapshot(t, w.project)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	opts.Force = true
	for _, name := range []string{"../precious", "..", ".agent-skills", "a/b", "", "../skills/.agent-skills/x"} {
		_, err := Uninstall(t.Context(), []string{name}, opts)
		var ie *askerr.Error
		if !errors.As(err, &ie) || ie.Code != "ASK_REFERENCE_INVALID" {
			t.Errorf("Uninstall(%q) = %v, want ASK_REFERENCE_INVALID", name, err)
		}
	}
	it := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})
	it.Pkg.Manifest.Name = "../precious"
	if _, err := Install(t.Context(), []Item{it}, opts); err == nil {
		t.Errorf("Install(a package named ../precious) = nil, want an error")
	}
	if after := snapshot(t, w.project); after != before {
		t.Errorf("the project changed:\n%s\nwant\n%s", after, before)
	}
}
