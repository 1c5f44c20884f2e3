package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// toggleSet is what the disable tests install for Claude Code and Codex:
// a skill with a SKILL.md of its own below references/ (which Codex,
// Copilot and OpenCode list too), a plain skill, and a Claude Code
// command.
func toggleSet(t testing.TB, w *world, version string) []Item {
	return []Item{
		writePkg(t, w.base, pkgSpec{name: "a", version: version, extra: map[string]string{
			"nested/SKILL.md": "---\nname: nested\ndescription: A nested skill.\n---\nbody\n", "r.md": "r " + version}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: version}),
		writePkg(t, w.base, pkgSpec{name: "c", version: version, kind: "command"}),
	}
}

// listedFiles returns every file below the project's agent folders that an
// agent would list — a SKILL.md, or a *.md below .claude/commands —
// outside the .agent-skills metadata.
func listedFiles(t testing.TB, w *world) []string {
	t.Helper()
	var out []string
	for _, root := range []string{".claude/skills", ".agents/skills", ".claude/commands"} {
		dir := filepath.Join(w.project, root)
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == metaDir {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(w.project, p)
			if !d.IsDir() && (strings.EqualFold(d.Name(), "SKILL.md") || root == ".claude/commands" && strings.HasSuffix(d.Name(), ".md")) {
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	slices.Sort(out)
	return out
}

func TestSetDisabledHidesAndEnableRestores(t *testing.T) {
	for _, noExchange := range []bool{false, true} {
		t.Run(map[bool]string{false: "exchange", true: "rename-aside"}[noExchange], func(t *testing.T) {
			w := newWorld(t)
			opts := w.opts(t, agents.ScopeProject)
			opts.noExchange = noExchange
			mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
			mine := filepath.Join(w.project, ".claude/skills/a/mine.txt")
			if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, w.project)
			if got := listedFiles(t, w); len(got) != 7 {
				t.Fatalf("listed before disabling = %v, want 7 files", got)
			}

			rep, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts)
			if err != nil {
				t.Fatalf("SetDisabled(true) = %v", err)
			}
			want := []string{"a .agents/skills disabled", "a .claude/skills disabled", "b .agents/skills disabled",
				"b .claude/skills disabled", "c .claude/commands disabled"}
			if got := outcomes(w, rep); !slices.Equal(got, want) {
				t.Errorf("SetDisabled(true) outcomes = %v, want %v", got, want)
			}
			if got := listedFiles(t, w); len(got) != 0 {
				t.Errorf("files agents list after disabling = %v, want none", got)
			}
			if got := readFile(t, mine); got != "mine" {
				t.Errorf("your file after disabling = %q", got)
			}
			cmd := filepath.Join(w.project, ".claude/commands/c.md.disabled")
			if !strings.Contains(readFile(t, cmd), "Do c 1.0.0.") {
				t.Errorf("the disabled command lost its text: %q", readFile(t, cmd))
			}
			list, err := Scan(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 5 {
				t.Fatalf("Scan after disabling found %d packages, want 5: %+v", len(list), list)
			}
			for _, in := range list {
				if !in.Disabled || in.State != StateOK || in.Version != "1.0.0" {
					t.Errorf("Scan: %s in %s = disabled %v, state %s, version %s; want disabled, ok, 1.0.0", in.Name, in.Root, in.Disabled, in.State, in.Version)
				}
				if in.Name == "c" && in.Dest != cmd {
					t.Errorf("Scan: c is at %s, want %s", in.Dest, cmd)
				}
			}
			checkConsistent(t, opts, nil)

			rep, err = SetDisabled(t.Context(), []string{"a", "c"}, true, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.Outcome != OutcomeUnchanged {
					t.Errorf("disabling %s in %s again = %s, want unchanged", r.Name, r.Root, r.Outcome)
				}
			}

			rep, err = SetDisabled(t.Context(), []string{"a", "b", "c"}, false, opts)
			if err != nil {
				t.Fatalf("SetDisabled(false) = %v", err)
			}
			for _, r := range rep.Results {
				if r.Outcome != OutcomeEnabled {
					t.Errorf("enabling %s in %s = %s, want enabled", r.Name, r.Root, r.Outcome)
				}
			}
			// Every byte, mode and receipt is as it was before.
			if after := snapshot(t, w.project); after != before {
				t.Errorf("the tree after disabling and enabling:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

func TestSetDisabledRefuses(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
	code := func(err error) string {
		var e *askerr.Error
		if errors.As(err, &e) {
			return e.Code
		}
		return ""
	}

	t.Run("not installed", func(t *testing.T) {
		_, err := SetDisabled(t.Context(), []string{"zzz"}, true, opts)
		if code(err) != CodeNotInstalled {
			t.Errorf("SetDisabled(zzz) = %v, want %s", err, CodeNotInstalled)
		}
		if _, err := SetDisabled(t.Context(), []string{"../x"}, true, opts); err == nil {
			t.Errorf("SetDisabled(../x) = nil, want a name error")
		}
	})
	t.Run("modified, then forced", func(t *testing.T) {
		edited := filepath.Join(w.project, ".agents/skills/b/SKILL.md")
		if err := os.WriteFile(edited, []byte("---\nname: b\ndescription: mine\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, w.project)
		_, err := SetDisabled(t.Context(), []string{"a", "b"}, true, opts)
		if code(err) != CodeModifiedInstall || !strings.Contains(shown(err), "SKILL.md (changed)") {
			t.Fatalf("SetDisabled of an edited skill = %v, want %s naming SKILL.md", shown(err), CodeModifiedInstall)
		}
		if after := snapshot(t, w.project); after != before {
			t.Fatalf("a refused disable changed the tree:\n%s\nwant\n%s", after, before)
		}
		opts := opts
		opts.Force = true
		if _, err := SetDisabled(t.Context(), []string{"b"}, true, opts); err != nil {
			t.Fatalf("SetDisabled --force = %v", err)
		}
		if got := readFile(t, edited+disabledSuffix); !strings.Contains(got, "mine") {
			t.Errorf("the forced disable lost the edit: %q", got)
		}
		list, _ := Scan(t.Context(), Options{Scope: opts.Scope, Env: opts.Env, Agents: opts.Agents, Names: []string{"b"}})
		for _, in := range list {
			if in.Root == filepath.Join(w.project, ".agents/skills") && (in.State != StateModified || !in.Disabled) {
				t.Errorf("the forced disable: %s is %s, disabled %v; want modified and disabled", in.Dest, in.State, in.Disabled)
			}
		}
		if _, err := SetDisabled(t.Context(), []string{"b"}, false, opts); err != nil {
			t.Fatalf("enabling it again = %v", err)
		}
		if got := readFile(t, edited); !strings.Contains(got, "mine") {
			t.Errorf("enabling lost the edit: %q", got)
		}
	})
	t.Run("unmanaged", func(t *testing.T) {
		hand := filepath.Join(w.project, ".claude/skills/hand")
		os.MkdirAll(hand, 0o755)
		os.WriteFile(filepath.Join(hand, "SKILL.md"), []byte("---\nname: hand\ndescription: by hand\n---\n"), 0o644)
		_, err := SetDisabled(t.Context(), []string{"hand"}, true, opts)
		if code(err) != CodeModifiedInstall || !strings.Contains(shown(err), "not installed by agent-skills") {
			t.Errorf("SetDisabled of a skill put there by hand = %v, want %s", shown(err), CodeModifiedInstall)
		}
		if !exists(filepath.Join(hand, "SKILL.md")) {
			t.Errorf("the refused disable renamed a file it does not manage")
		}
	})
	t.Run("a file in the way", func(t *testing.T) {
		in := filepath.Join(w.project, ".claude/skills/a/SKILL.md.disabled")
		os.WriteFile(in, []byte("mine"), 0o644)
		defer os.Remove(in)
		opts := opts
		opts.Force = true
		before := snapshot(t, w.project)
		_, err := SetDisabled(t.Context(), []string{"a"}, true, opts)
		if code(err) != CodeModifiedInstall || !strings.Contains(err.Error(), "a file is in the way") || !strings.Contains(shown(err), "your file SKILL.md.disabled") {
			t.Errorf("SetDisabled with a file in the way = %v, want it refused naming the file", shown(err))
		}
		if after := snapshot(t, w.project); after != before {
			t.Errorf("a blocked disable changed the tree")
		}
	})
}

func TestInstallKeepsTheState(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
	if _, err := SetDisabled(t.Context(), []string{"a", "c"}, true, opts); err != nil {
		t.Fatal(err)
	}
	// An upgrade stays disabled; Item.Disabled says nothing about a
	// package that is there: b stays enabled.
	v2 := toggleSet(t, w, "2.0.0")
	for i := range v2 {
		v2[i].Disabled = v2[i].Pkg.Name() == "b"
	}
	d := writePkg(t, w.base, pkgSpec{name: "d", version: "1.0.0"})
	d.Disabled = true
	rep := mustInstall(t, opts, append(v2, d)...)
	for _, r := range rep.Results {
		if r.Outcome == OutcomeSkipped {
			continue // Codex has no commands
		}
		want := OutcomeUpgraded
		if r.Name == "d" {
			want = OutcomeInstalled
		}
		if r.Outcome != want {
			t.Errorf("%s in %s = %s, want %s", r.Name, r.Root, r.Outcome, want)
		}
	}
	if got, want := listedFiles(t, w), []string{".agents/skills/b/SKILL.md", ".claude/skills/b/SKILL.md"}; !slices.Equal(got, want) {
		t.Errorf("files agents list after the upgrade = %v, want %v", got, want)
	}
	if got := readFile(t, filepath.Join(w.project, ".claude/commands/c.md.disabled")); !strings.Contains(got, "Do c 2.0.0.") {
		t.Errorf("the disabled command was not upgraded: %q", got)
	}
	if exists(filepath.Join(w.project, ".claude/commands/c.md")) {
		t.Errorf("the upgrade of a disabled command left c.md")
	}
	checkConsistent(t, opts, map[string]string{"a": "2.0.0", "b": "2.0.0", "c": "2.0.0", "d": "1.0.0"})
	// The same versions again change nothing.
	rep = mustInstall(t, opts, append(v2, d)...)
	for _, r := range rep.Results {
		if r.Outcome != OutcomeUnchanged && r.Outcome != OutcomeSkipped {
			t.Errorf("installing %s again in %s = %s, want unchanged", r.Name, r.Root, r.Outcome)
		}
	}
	// Enabled, they are exactly what an install of them writes.
	if _, err := SetDisabled(t.Context(), []string{"a", "c", "d"}, false, opts); err != nil {
		t.Fatal(err)
	}
	rep = mustInstall(t, opts, append(v2, d)...)
	for _, r := range rep.Results {
		if r.Outcome != OutcomeUnchanged && r.Outcome != OutcomeSkipped {
			t.Errorf("installing %s after enabling it in %s = %s, want unchanged", r.Name, r.Root, r.Outcome)
		}
	}
}

func TestUninstallDisabled(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
	mine := filepath.Join(w.project, ".agents/skills/a/mine.txt")
	os.WriteFile(mine, []byte("mine"), 0o644)
	if _, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts); err != nil {
		t.Fatal(err)
	}
	rep, err := Uninstall(t.Context(), []string{"a", "b", "c"}, opts)
	if err != nil {
		t.Fatalf("Uninstall of disabled packages = %v", err)
	}
	want := []string{"a .agents/skills preserved", "a .claude/skills removed", "b .agents/skills removed",
		"b .claude/skills removed", "c .claude/commands removed"}
	if got := outcomes(w, rep); !slices.Equal(got, want) {
		t.Errorf("Uninstall outcomes = %v, want %v", got, want)
	}
	list, _ := Scan(t.Context(), opts)
	for _, in := range list {
		if in.State != StateUnmanaged || in.Name != "a" {
			t.Errorf("left after the uninstall: %s in %s (%s)", in.Name, in.Root, in.State)
		}
	}
	for _, p := range []string{".claude/skills/a", ".claude/skills/b", ".agents/skills/b", ".claude/commands/c.md.disabled", ".agents/skills/a/SKILL.md.disabled"} {
		if exists(filepath.Join(w.project, p)) {
			t.Errorf("%s is still there", p)
		}
	}
	if readFile(t, mine) != "mine" {
		t.Errorf("your file did not survive")
	}
}

func TestDisabledNames(t *testing.T) {
	for _, c := range []struct {
		rel          string
		shape        agents.Shape
		hidden, back string
	}{
		{"SKILL.md", agents.ShapeDirectory, "SKILL.md.disabled", "SKILL.md"},
		{"references/x/SKILL.md", agents.ShapeDirectory, "references/x/SKILL.md.disabled", "references/x/SKILL.md"},
		{"references/x/skill.md", agents.ShapeDirectory, "references/x/skill.md.disabled", "references/x/skill.md"},
		{"references/notes.md", agents.ShapeDirectory, "references/notes.md", "references/notes.md"},
		{"notes.disabled", agents.ShapeDirectory, "notes.disabled", "notes.disabled"},
		{"SKILL.mdx", agents.ShapeDirectory, "SKILL.mdx", "SKILL.mdx"},
		{"c.md", agents.ShapeFile, "c.md.disabled", "c.md"},
	} {
		if got := hiddenPath(c.rel, c.shape); got != c.hidden {
			t.Errorf("hiddenPath(%q, %s) = %q, want %q", c.rel, c.shape, got, c.hidden)
		}
		if got := shownPath(c.hidden, c.shape); got != c.back {
			t.Errorf("shownPath(%q, %s) = %q, want %q", c.hidden, c.shape, got, c.back)
		}
	}
	if got := ambiguousName([]fileRecord{{Path: "SKILL.md"}, {Path: "x/SKILL.md.disabled"}}, agents.ShapeDirectory); got != "x/SKILL.md.disabled" {
		t.Errorf("ambiguousName = %q, want x/SKILL.md.disabled", got)
	}
}

// TestHostileDisabledReceipt: a committed receipt that claims its package
// is disabled and names files outside the package folder cannot make
// enable (or disable) rename anything: it is refused as unreadable and the
// files stay where they are.
func TestHostileDisabledReceipt(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
	outside := filepath.Join(w.project, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "SKILL.md.disabled"), []byte("not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	rp := filepath.Join(w.project, ".claude/skills", metaDir, "receipts", "a.json")
	raw := readFile(t, rp)
	hostile := strings.Replace(raw, `"path": "SKILL.md"`, `"path": "../../outside/SKILL.md.disabled"`, 1)
	hostile = strings.Replace(hostile, `"files":`, `"disabled": true, "files":`, 1)
	if hostile == raw || !strings.Contains(hostile, `"disabled": true`) || !strings.Contains(hostile, "outside") {
		t.Fatalf("could not plant the hostile receipt in:\n%s", raw)
	}
	if err := os.WriteFile(rp, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, w.project)
	for _, disabled := range []bool{false, true} {
		o := opts
		o.Force = true
		if _, err := SetDisabled(t.Context(), []string{"a"}, disabled, o); err == nil {
			t.Errorf("SetDisabled(a, %v) with a receipt naming ../../outside = nil, want it refused", disabled)
		}
		if after := snapshot(t, w.project); after != before {
			t.Errorf("SetDisabled(a, %v) with a hostile receipt changed the tree:\n%s\nwant\n%s", disabled, after, before)
		}
	}
}
