package install

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"

	"github.com/agent-skills/agent-skills/agents"
)

func TestInstallProjectBothAgents(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	it := writePkg(t, w.base, pkgSpec{name: "go-review", version: "1.0.0", extra: map[string]string{"a.md": "A"}})
	rep := mustInstall(t, opts, it)
	got := outcomes(w, rep)
	want := []string{"go-review .agents/skills installed", "go-review .claude/skills installed"}
	if !slices.Equal(got, want) {
		t.Fatalf("Install outcomes = %q, want %q", got, want)
	}
	for _, p := range []string{
		".claude/skills/go-review/SKILL.md", ".claude/skills/go-review/references/a.md",
		".agents/skills/go-review/SKILL.md", ".agents/skills/go-review/agents/openai.yaml",
		".claude/skills/.agent-skills/receipts/go-review.json", ".agents/skills/.agent-skills/receipts/go-review.json",
	} {
		if !exists(filepath.Join(w.project, p)) {
			t.Errorf("Install: %s missing", p)
		}
	}
	for _, p := range []string{".claude/skills/.agent-skills/staging", ".agents/skills/.agent-skills/receipts/go-review.json.pending"} {
		if exists(filepath.Join(w.project, p)) {
			t.Errorf("Install left %s behind", p)
		}
	}
	rec, _, err := readReceipt(filepath.Join(w.project, ".agents/skills"), "go-review")
	if err != nil || rec == nil {
		t.Fatalf("readReceipt = %v, %v", rec, err)
	}
	if rec.Version != "1.0.0" || rec.Integrity != it.Integrity || !slices.Equal(rec.Agents, []string{"codex"}) || len(rec.Files) != 4 {
		t.Errorf("receipt = %+v, want version 1.0.0, integrity %s, agents [codex], 4 files", rec, it.Integrity)
	}
	list, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].State != StateOK || list[1].State != StateOK || list[0].Version != "1.0.0" {
		t.Errorf("Scan() = %+v, want two ok entries at 1.0.0", list)
	}
}

func TestInstallOutcomes(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	v1 := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})
	v2 := writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0"})
	v2b := v2
	v2b.Role = resolve.RoleDependency
	steps := []struct {
		item  Item
		force bool
		edit  bool
		want  Outcome
	}{
		{v1, false, false, OutcomeInstalled},
		{v1, false, false, OutcomeUnchanged},
		{v2, false, false, OutcomeUpgraded},
		{v1, false, false, OutcomeDowngraded},
		{v1, true, true, OutcomeReinstalled},
		{v2, false, false, OutcomeUpgraded},
		{v2b, false, false, OutcomeUnchanged},
	}
	skill := filepath.Join(w.project, ".claude/skills/s/SKILL.md")
	for i, s := range steps {
		if s.edit {
			if err := os.WriteFile(skill, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		o := opts
		o.Force = s.force
		rep := mustInstall(t, o, s.item)
		if got := rep.Results[0].Outcome; got != s.want {
			t.Errorf("step %d: Install(%s) = %s, want %s", i, s.item.Pkg.Version(), got, s.want)
		}
		if !strings.Contains(readFile(t, skill), "Version "+s.item.Pkg.Version()) {
			t.Errorf("step %d: SKILL.md does not hold version %s", i, s.item.Pkg.Version())
		}
	}
	rec, _, _ := readReceipt(filepath.Join(w.project, ".claude/skills"), "s")
	if rec.Role != resolve.RoleDependency {
		t.Errorf("receipt role = %q, want %q after an unchanged install with a new role", rec.Role, resolve.RoleDependency)
	}
}

func TestInstallRefusesModifiedAndUnmanaged(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, w *world)
		want  string
	}{
		{"changed", func(t *testing.T, w *world) {
			os.WriteFile(filepath.Join(w.project, ".claude/skills/s/SKILL.md"), []byte("edited"), 0o644)
		}, "SKILL.md (changed)"},
		{"missing", func(t *testing.T, w *world) {
			os.Remove(filepath.Join(w.project, ".agents/skills/s/agents/openai.yaml"))
		}, "agents/openai.yaml (missing)"},
		{"unmanaged", func(t *testing.T, w *world) {
			os.Remove(filepath.Join(w.project, ".claude/skills/.agent-skills/receipts/s.json"))
		}, "no receipt"},
		{"broken-receipt", func(t *testing.T, w *world) {
			os.WriteFile(filepath.Join(w.project, ".claude/skills/.agent-skills/receipts/s.json"), []byte("{"), 0o644)
		}, "receipt cannot be read"},
		{"added-collides", func(t *testing.T, w *world) {
			os.MkdirAll(filepath.Join(w.project, ".claude/skills/s/references"), 0o755)
			os.WriteFile(filepath.Join(w.project, ".claude/skills/s/references/new.md"), []byte("mine"), 0o644)
		}, "references/new.md (added by you"},
		{"added-under-new-file", func(t *testing.T, w *world) {
			os.MkdirAll(filepath.Join(w.project, ".claude/skills/s/references/new.md"), 0o755)
			os.WriteFile(filepath.Join(w.project, ".claude/skills/s/references/new.md/x"), []byte("mine"), 0o644)
		}, "references/new.md/x (added by you; the new version has a file references/new.md)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			opts := w.opts(t, agents.ScopeProject)
			mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"}),
				writePkg(t, w.base, pkgSpec{name: "other", version: "1.0.0"}))
			tt.setup(t, w)
			v2 := writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0", extra: map[string]string{"new.md": "theirs"}})
			o2 := writePkg(t, w.base, pkgSpec{name: "other", version: "2.0.0"})
			before := snapshot(t, w.base)
			rep, err := Install(t.Context(), []Item{o2, v2}, opts)
			var ie *askerr.Error
			if !errors.As(err, &ie) || ie.ErrorCode() != "ASK_MODIFIED_INSTALL" {
				t.Fatalf("Install over %s = %v, want ASK_MODIFIED_INSTALL", tt.name, err)
			}
			if !strings.Contains(shown(err), tt.want) {
				t.Errorf("Install over %s = %q, want it to name %q", tt.name, err, tt.want)
			}
			refused := 0
			for _, r := range rep.Results {
				if r.Outcome == OutcomeRefused {
					refused++
				}
			}
			if refused != 1 {
				t.Errorf("Install over %s refused %d results, want 1: %v", tt.name, refused, outcomes(w, rep))
			}
			if after := snapshot(t, w.base); after != before {
				t.Errorf("Install over %s changed the tree:\n%s\nwant\n%s", tt.name, after, before)
			}
			opts.Force = true
			rep = mustInstall(t, opts, o2, v2)
			for _, r := range rep.Results {
				if r.Outcome == OutcomeRefused || r.Outcome == OutcomeUnchanged {
					t.Errorf("Install --force: %s %s = %s", r.Name, r.Root, r.Outcome)
				}
			}
			list, _ := Scan(t.Context(), opts)
			for _, in := range list {
				if in.State != StateOK {
					t.Errorf("Scan after --force: %s in %s = %s %v", in.Name, in.Root, in.State, in.ModifiedFiles)
				}
			}
		})
	}
}

func TestUserFilesSurvive(t *testing.T) {
	for _, noExchange := range []bool{false, true} {
		w := newWorld(t)
		opts := w.opts(t, agents.ScopeProject, "claude-code")
		opts.noExchange = noExchange
		mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0", extra: map[string]string{"old.md": "old"}}))
		dir := filepath.Join(w.project, ".claude/skills/s")
		os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
		os.WriteFile(filepath.Join(dir, "notes/mine.md"), []byte("my notes"), 0o600)
		os.Symlink("notes/mine.md", filepath.Join(dir, "link.md"))
		rep := mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.1.0", extra: map[string]string{"new.md": "new"}}))
		if r := rep.Results[0]; r.Outcome != OutcomeUpgraded || !slices.Equal(r.Preserved, []string{"link.md", "notes/mine.md"}) {
			t.Errorf("Install upgrade (noExchange=%v) = %s preserving %q, want upgraded preserving [link.md notes/mine.md]", noExchange, r.Outcome, r.Preserved)
		}
		if got := readFile(t, filepath.Join(dir, "notes/mine.md")); got != "my notes" {
			t.Errorf("user file after upgrade = %q, want %q", got, "my notes")
		}
		if info, _ := os.Stat(filepath.Join(dir, "notes/mine.md")); info == nil || info.Mode().Perm() != 0o600 {
			t.Errorf("user file mode after upgrade = %v, want 0600", info)
		}
		if target, _ := os.Readlink(filepath.Join(dir, "link.md")); target != "notes/mine.md" {
			t.Errorf("user link after upgrade = %q, want notes/mine.md", target)
		}
		if exists(filepath.Join(dir, "references/old.md")) || !exists(filepath.Join(dir, "references/new.md")) {
			t.Errorf("upgrade kept the old package file or lost the new one")
		}
		list, _ := Scan(t.Context(), opts)
		if len(list) != 1 || list[0].State != StateOK || !slices.Equal(list[0].AddedFiles, []string{"link.md", "notes/mine.md"}) {
			t.Errorf("Scan() = %+v, want ok with the user's files as added", list)
		}
		rep, err := Uninstall(t.Context(), []string{"s"}, opts)
		if err != nil {
			t.Fatalf("Uninstall(s) = %v", err)
		}
		if r := rep.Results[0]; r.Outcome != OutcomePreserved || !slices.Equal(r.Preserved, []string{"link.md", "notes/mine.md"}) {
			t.Errorf("Uninstall(s) = %s preserving %q, want preserved", r.Outcome, r.Preserved)
		}
		if got := snapshotNames(t, dir); got != "link.md notes notes/mine.md" {
			t.Errorf("folder after uninstall holds %q, want only the user's files", got)
		}
		if exists(filepath.Join(w.project, ".claude/skills/.agent-skills/receipts/s.json")) {
			t.Errorf("Uninstall left the receipt")
		}
	}
}

// snapshotNames lists the paths under dir, space-separated.
func snapshotNames(t *testing.T, dir string) string {
	var out []string
	for _, l := range strings.Split(snapshot(t, dir), "\n") {
		name := strings.Fields(l)[0]
		if name != "./" && name != "." {
			out = append(out, strings.TrimSuffix(name, "/"))
		}
	}
	return strings.Join(out, " ")
}

func TestSkipsAndCommands(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeGlobal)
	only := writePkg(t, w.base, pkgSpec{name: "claude-only", version: "1.0.0", compat: []string{"claude"}})
	cmd := writePkg(t, w.base, pkgSpec{name: "ship", version: "1.0.0", kind: "command"})
	rep := mustInstall(t, opts, only, cmd)
	got := outcomes(w, rep)
	want := []string{
		"claude-only codex skipped",
		"claude-only .claude/skills installed",
		"ship codex skipped",
		"ship .claude/commands installed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Install outcomes = %q, want %q", got, want)
	}
	if !strings.Contains(rep.Results[0].Reason, "compatibility.agents") {
		t.Errorf("skip reason = %q, want it to name compatibility.agents", rep.Results[0].Reason)
	}
	file := filepath.Join(w.home, ".claude/commands/ship.md")
	if !strings.Contains(readFile(t, file), "Do ship 1.0.0") {
		t.Errorf("command file %s does not hold the command", file)
	}
	if exists(filepath.Join(w.home, ".agents/skills/claude-only")) {
		t.Errorf("an incompatible agent's root was written")
	}
	rep = mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "ship", version: "1.2.0", kind: "command"}))
	if r := rep.Results[1]; r.Outcome != OutcomeUpgraded || !strings.Contains(readFile(t, file), "Do ship 1.2.0") {
		t.Errorf("command upgrade = %s, want upgraded in place", r.Outcome)
	}
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(t.Context(), []string{"ship"}, opts); err == nil || !strings.Contains(shown(err), "ship.md (changed)") {
		t.Errorf("Uninstall(modified command) = %v, want ASK_MODIFIED_INSTALL naming ship.md", err)
	}
	opts.Force = true
	if _, err := Uninstall(t.Context(), []string{"ship", "claude-only"}, opts); err != nil {
		t.Fatalf("Uninstall --force = %v", err)
	}
	if exists(file) || exists(filepath.Join(w.home, ".claude/skills/claude-only")) {
		t.Errorf("Uninstall --force left files behind")
	}
}

func TestUninstall(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"x/y.md": "y"}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}))

	_, err := Uninstall(t.Context(), []string{"a", "nope"}, opts)
	var ie *askerr.Error
	if !errors.As(err, &ie) || ie.Code != "ASK_NOT_INSTALLED" || !strings.Contains(shown(err), `"nope"`) || !strings.Contains(shown(err), "installed: a, b") {
		t.Fatalf("Uninstall(nope) = %v, want ASK_NOT_INSTALLED listing a, b", err)
	}
	if !exists(filepath.Join(w.project, ".claude/skills/a")) {
		t.Fatalf("a failed Uninstall removed a")
	}

	os.MkdirAll(filepath.Join(w.project, ".claude/skills/hand"), 0o755)
	os.WriteFile(filepath.Join(w.project, ".claude/skills/hand/SKILL.md"), []byte("x"), 0o644)
	before := snapshot(t, w.base)
	if _, err := Uninstall(t.Context(), []string{"a", "hand"}, opts); !errors.As(err, &ie) || ie.Code != "ASK_MODIFIED_INSTALL" {
		t.Fatalf("Uninstall(unmanaged) = %v, want ASK_MODIFIED_INSTALL", err)
	}
	if after := snapshot(t, w.base); after != before {
		t.Errorf("a refused Uninstall changed the tree")
	}

	dry := opts
	dry.DryRun = true
	rep, err := Uninstall(t.Context(), []string{"a"}, dry)
	if err != nil || len(rep.Results) != 2 || snapshot(t, w.base) != before {
		t.Fatalf("Uninstall --dry-run = %v, %v; want two results and no change", outcomes(w, rep), err)
	}

	rep, err = Uninstall(t.Context(), []string{"a"}, opts)
	if err != nil {
		t.Fatalf("Uninstall(a) = %v", err)
	}
	if got := outcomes(w, rep); !slices.Equal(got, []string{"a .agents/skills removed", "a .claude/skills removed"}) {
		t.Errorf("Uninstall(a) = %q", got)
	}
	for _, p := range []string{".claude/skills/a", ".agents/skills/a", ".claude/skills/.agent-skills/receipts/a.json"} {
		if exists(filepath.Join(w.project, p)) {
			t.Errorf("Uninstall(a) left %s", p)
		}
	}
	if !exists(filepath.Join(w.project, ".claude/skills/b/SKILL.md")) {
		t.Errorf("Uninstall(a) touched b")
	}

	// A package whose folder the user deleted: the receipt goes quietly.
	os.RemoveAll(filepath.Join(w.project, ".agents/skills/b"))
	opts.Force = false
	if _, err := Uninstall(t.Context(), []string{"b"}, opts); err != nil {
		t.Errorf("Uninstall(b with its folder gone) = %v", err)
	}
	opts.Force = true
	if _, err := Uninstall(t.Context(), []string{"hand"}, opts); err != nil || exists(filepath.Join(w.project, ".claude/skills/hand")) {
		t.Errorf("Uninstall --force (unmanaged) = %v, want the folder removed", err)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	v1 := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})
	v2 := writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0"})
	for _, step := range []struct {
		install []Item
		want    Outcome
	}{{nil, OutcomeInstalled}, {[]Item{v1}, OutcomeUpgraded}} {
		if step.install != nil {
			mustInstall(t, opts, step.install...)
		}
		before := snapshot(t, w.base)
		dry := opts
		dry.DryRun = true
		rep, err := Install(t.Context(), []Item{v2}, dry)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.DryRun || len(rep.Results) != 2 || rep.Results[0].Outcome != step.want {
			t.Errorf("Install --dry-run = %q, want two %s", outcomes(w, rep), step.want)
		}
		if after := snapshot(t, w.base); after != before {
			t.Errorf("Install --dry-run changed the tree:\n%s\nwant\n%s", after, before)
		}
	}
}

func TestScanDuplicatesAndDeprecated(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeGlobal)
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"}))
	old := filepath.Join(w.home, ".codex/skills/s")
	os.MkdirAll(old, 0o755)
	os.WriteFile(filepath.Join(old, "SKILL.md"), []byte("---\nname: s\ndescription: old copy\n---\n"), 0o644)
	os.WriteFile(filepath.Join(old, "skill.yaml"), []byte("name: s\nversion: 0.9.0\n"), 0o644)
	list, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range list {
		got = append(got, strings.TrimPrefix(in.Root, w.home+"/")+" "+string(in.State)+" "+in.Version+
			" dep="+strings.Join(in.Deprecated, ",")+" twice="+strings.Join(in.SeenTwiceBy, ","))
	}
	want := []string{
		".agents/skills ok 1.0.0 dep= twice=codex",
		".claude/skills ok 1.0.0 dep= twice=",
		".codex/skills unmanaged 0.9.0 dep=codex twice=codex",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Scan() = %q, want %q", got, want)
	}
}

func TestLayoutErrorsAndBadItems(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	if _, err := Install(t.Context(), []Item{{}}, opts); err == nil {
		t.Errorf("Install(empty item) = nil, want an error")
	}
	a := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})
	if _, err := Install(t.Context(), []Item{a, a}, opts); err == nil || !strings.Contains(err.Error(), "both install") {
		t.Errorf("Install(same package twice) = %v, want a conflict", err)
	}
	if exists(filepath.Join(w.project, ".claude")) {
		t.Errorf("a failed plan wrote something")
	}
}

func TestInstallEdgeCases(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	v1 := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"})
	mustInstall(t, opts, v1)

	// The user deleted the folder: nothing of theirs to protect.
	os.RemoveAll(filepath.Join(w.project, ".claude/skills/s"))
	if rep := mustInstall(t, opts, v1); rep.Results[0].Outcome != OutcomeInstalled {
		t.Errorf("Install over a deleted folder = %s, want installed", rep.Results[0].Outcome)
	}

	// --force over an unmanaged folder keeps the files the package lacks.
	hand := filepath.Join(w.project, ".claude/skills/hand")
	os.MkdirAll(hand, 0o755)
	os.WriteFile(filepath.Join(hand, "SKILL.md"), []byte("by hand"), 0o644)
	os.WriteFile(filepath.Join(hand, "notes.txt"), []byte("keep"), 0o644)
	opts.Force = true
	rep := mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "hand", version: "1.0.0"}))
	if r := rep.Results[0]; r.Outcome != OutcomeInstalled || !slices.Equal(r.Preserved, []string{"notes.txt"}) {
		t.Errorf("Install --force over unmanaged = %s preserving %q, want installed preserving [notes.txt]", r.Outcome, r.Preserved)
	}
	if got := readFile(t, filepath.Join(hand, "notes.txt")); got != "keep" {
		t.Errorf("notes.txt = %q, want %q", got, "keep")
	}
}

func TestInstallIOError(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0"}))
	// The Claude Code root's staging folder is a file.
	os.WriteFile(filepath.Join(w.project, ".claude/skills/.agent-skills/staging"), []byte("in the way"), 0o644)
	before := snapshot(t, w.project)
	_, err := Install(t.Context(), []Item{writePkg(t, w.base, pkgSpec{name: "s", version: "2.0.0"})}, opts)
	var ie *askerr.Error
	if !errors.As(err, &ie) || ie.ErrorCode() != "ASK_IO" || len(ie.ErrorTry()) == 0 {
		t.Fatalf("Install into a broken root = %v, want ASK_IO with hints", err)
	}
	if after := snapshot(t, w.project); after != before {
		t.Errorf("a failed Install changed the tree:\n%s\nwant\n%s", after, before)
	}
}

func TestCompatibilityMinVersion(t *testing.T) {
	tests := []struct {
		min, have string
		skipped   bool
	}{
		{">=2.0.0", "2.1.197", false},
		{">=3.0.0", "2.1.197", true},
		{"2.0.0", "1.9.0", true},
		{"2.0.0", "", false},
		{"", "1.0.0", false},
	}
	for _, tt := range tests {
		a, _ := agents.Default().Lookup("claude-code")
		c := formatCompat("claude-code", tt.min)
		got := versionMismatch(c, a, tt.have) != ""
		if got != tt.skipped {
			t.Errorf("versionMismatch(%q, %q) skipped = %v, want %v", tt.min, tt.have, got, tt.skipped)
		}
	}
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	opts.AgentVersions = map[string]string{"codex": "0.100.0"}
	it := writePkg(t, w.base, pkgSpec{name: "s", version: "1.0.0", compat: []string{"claude-code", "codex\n      minVersion: '>=0.169.0'"}})
	rep := mustInstall(t, opts, it)
	if got := outcomes(w, rep); !slices.Equal(got, []string{"s codex skipped", "s .claude/skills installed"}) {
		t.Errorf("Install with an old codex = %q", got)
	}
}

// A receipt records where a package came from, a source as skills.lock
// does; Scan reports it, and with Names only those packages.
func TestScanOriginAndNames(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeGlobal)
	a := writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"})
	a.Registry, a.Source, a.Subpath = "", "github:acme/skills", "skills/a"
	b := writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"})
	b.Registry = "team"
	mustInstall(t, opts, a, b)
	all, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Names = []string{"a"}
	only, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	render := func(list []Installed) []string {
		var out []string
		for _, in := range list {
			out = append(out, strings.TrimPrefix(in.Root, w.home+"/")+" "+in.Name+" registry="+in.Registry+" source="+in.Source+" subpath="+in.Subpath)
		}
		return out
	}
	want := []string{
		".agents/skills a registry= source=github:acme/skills subpath=skills/a",
		".agents/skills b registry=team source= subpath=",
		".claude/skills a registry= source=github:acme/skills subpath=skills/a",
		".claude/skills b registry=team source= subpath=",
	}
	if got := render(all); !slices.Equal(got, want) {
		t.Errorf("Scan() = %q, want %q", got, want)
	}
	if got := render(only); !slices.Equal(got, []string{want[0], want[2]}) {
		t.Errorf("Scan(Names: a) = %q, want only a's", got)
	}
	// The same bytes from elsewhere rewrite the receipt.
	a.Source, a.Subpath = "/forks/a", ""
	opts.Names = nil
	mustInstall(t, opts, a)
	again, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(again); got[0] != ".agents/skills a registry= source=/forks/a subpath=" {
		t.Errorf("Scan() after installing a from another source = %q, want the new source in its receipt", got)
	}
}
