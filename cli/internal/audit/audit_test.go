package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// write creates the files under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func skill(name, body string) string {
	return "---\nname: " + name + "\ndescription: A test skill. Use when testing.\n---\n# " + name + "\n" + body + "\n"
}

// hostile holds a zero-width space (hidden-zero-width, critical) on line 6,
// column 7, and a bidi override (hidden-bidi, critical) on line 7.
const hostileBody = "Hello\u200bworld.\nSee \u202etxt.exe\u202c here."

func TestFolderCollection(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"README.md":                      "# Collection\n",
		"skills/clean/SKILL.md":          skill("clean", "Nothing to see."),
		"skills/bad/SKILL.md":            skill("bad", hostileBody),
		"skills/bad/examples/x/SKILL.md": skill("x", "\u200b"),
		"node_modules/dep/SKILL.md":      skill("dep", "\u200b"),
	})
	targets, err := Folder(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, tg := range targets {
		rel, _ := filepath.Rel(root, tg.Dir)
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	if want := []string{"skills/bad", "skills/clean"}; !slices.Equal(dirs, want) {
		t.Fatalf("Folder() = %v, want %v", dirs, want)
	}
	res, err := Scan(context.Background(), targets, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := res.Packages[0]
	var rules []string
	for _, f := range bad.Report.Findings {
		rules = append(rules, f.File+":"+f.Rule)
	}
	// The nested package folder is a file of skills/bad: its finding counts.
	for _, want := range []string{"SKILL.md:hidden-zero-width", "SKILL.md:hidden-bidi", "examples/x/SKILL.md:hidden-zero-width"} {
		if !slices.Contains(rules, want) {
			t.Errorf("findings of skills/bad = %v, want %s among them", rules, want)
		}
	}
	if n := len(res.Packages[1].Report.Findings); n != 0 {
		t.Errorf("skills/clean has %d findings, want 0: %v", n, res.Packages[1].Report.Findings)
	}
	if c := res.Counts(); c[scan.Critical] != len(bad.Report.Findings) || c[scan.Critical] < 3 {
		t.Errorf("Counts() = %v, want every finding critical (%d)", c, len(bad.Report.Findings))
	}
	if n, pkgs := res.AtLeast(scan.High); n != len(bad.Report.Findings) || pkgs != 1 {
		t.Errorf("AtLeast(high) = %d, %d; want %d, 1", n, pkgs, len(bad.Report.Findings))
	}
}

func TestFolderSinglePackages(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"SKILL.md": skill("one", "x"), "references/a.md": "\u200b\n"})
	targets, err := Folder(root)
	if err != nil || len(targets) != 1 || targets[0].Dir != root {
		t.Fatalf("Folder(package) = %+v, %v; want the root alone", targets, err)
	}
	cmd := t.TempDir()
	write(t, cmd, map[string]string{"COMMAND.md": "---\ndescription: x\n---\nrun \u200b it\n"})
	targets, err = Folder(cmd)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Folder(bare COMMAND.md) = %+v, %v; want the root alone", targets, err)
	}
	res, _ := Scan(context.Background(), targets, scan.Options{})
	if len(res.Packages[0].Report.Findings) != 1 || res.Packages[0].Report.Findings[0].File != "COMMAND.md" {
		t.Errorf("audit of a bare COMMAND.md = %+v, want one finding in COMMAND.md", res.Packages[0].Report.Findings)
	}
	empty := t.TempDir()
	write(t, empty, map[string]string{"notes.md": "\u200b"})
	if targets, err := Folder(empty); err != nil || len(targets) != 0 {
		t.Errorf("Folder(no package) = %+v, %v; want none", targets, err)
	}
}

func TestInstalled(t *testing.T) {
	base := t.TempDir()
	claude := filepath.Join(base, "project", ".claude", "skills")
	agentsDir := filepath.Join(base, "project", ".agents", "skills")
	global := filepath.Join(base, "home", ".claude", "skills")
	write(t, claude, map[string]string{"twin/SKILL.md": skill("twin", "clean"), ".hidden/SKILL.md": skill("h", "\u200b")})
	// The same name in a second root of the scope, with other content:
	// it must be audited too.
	write(t, agentsDir, map[string]string{"twin/SKILL.md": skill("twin", hostileBody)})
	write(t, global, map[string]string{"g/SKILL.md": skill("g", "\u2066x\u2069")})
	outside := filepath.Join(base, "outside")
	write(t, outside, map[string]string{"SKILL.md": skill("linked", "\u200b")})
	if err := os.Symlink(outside, filepath.Join(global, "linked")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	roots := []catalog.Root{
		{Path: claude, Scope: "project", Readers: []string{"claude-code"}},
		{Path: agentsDir, Scope: "project", Readers: []string{"codex"}},
		{Path: global, Scope: "global", Readers: []string{"claude-code"}},
		{Path: filepath.Join(base, "missing"), Scope: "global"},
	}
	targets, err := Installed(context.Background(), roots)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range targets {
		got = append(got, tg.Scope+" "+tg.Name+" "+strings.Join(tg.Agents, ",")+" "+tg.Skipped)
	}
	want := []string{
		"project twin claude-code ",
		"project twin codex ",
		"global g claude-code ",
		"global linked claude-code a symbolic link: not followed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Installed() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res, err := Scan(context.Background(), targets, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := []int{}
	for _, p := range res.Packages {
		counts = append(counts, len(p.Report.Findings))
	}
	if counts[0] != 0 || counts[1] < 2 || counts[2] < 1 || counts[3] != 0 {
		t.Errorf("findings per package = %v, want [0 ≥2 ≥1 0]: the link is not followed", counts)
	}
}

func TestInstalledFiles(t *testing.T) {
	base := t.TempDir()
	cmds := filepath.Join(base, ".claude", "commands")
	write(t, cmds, map[string]string{
		"clean.md":   "---\ndescription: Clean. Use when testing.\n---\nDo it.\n",
		"sly.md":     "---\ndescription: Sly. Use when testing.\n---\nDo \u2067it\u2069.\n",
		".hidden.md": "x\u200b\n",
		"notes.txt":  "x\u200b\n",
	})
	outside := filepath.Join(base, "outside.md")
	write(t, base, map[string]string{"outside.md": "x\u200b\n"})
	if err := os.Symlink(outside, filepath.Join(cmds, "linked.md")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	targets, err := InstalledFiles([]FileRoot{
		{Path: cmds, Scope: "project", Readers: []string{"claude-code"}, Kind: format.KindCommand, Ext: ".md"},
		{Path: filepath.Join(base, "missing"), Scope: "global", Kind: format.KindCommand, Ext: ".md"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range targets {
		got = append(got, tg.Name+" "+tg.File+" "+tg.Skipped)
	}
	want := []string{"clean clean.md ", "linked linked.md a symbolic link: not followed", "sly sly.md "}
	if !slices.Equal(got, want) {
		t.Fatalf("InstalledFiles() = %q, want %q", got, want)
	}
	res, err := Scan(context.Background(), targets, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Packages[0].Report.Findings); n != 0 {
		t.Errorf("clean.md: %d findings, want none", n)
	}
	if fs := res.Packages[2].Report.Findings; len(fs) != 2 || fs[0].File != "sly.md" || fs[0].Rule != scan.RuleHiddenBidi || fs[0].Line != 4 {
		t.Errorf("sly.md: findings %v, want two hidden-bidi in sly.md from line 4", fs)
	}
}

func TestPlace(t *testing.T) {
	tg := Target{Dir: filepath.Join("/w", "proj", "skills", "a")}
	if !tg.Place("%SRCROOT%", filepath.Join("/w", "proj")) || tg.Rel != "skills/a" || tg.Base != "%SRCROOT%" {
		t.Errorf("Place(below) = %+v", tg)
	}
	if tg.Place("X", filepath.Join("/w", "pro")) || tg.Base != "%SRCROOT%" {
		t.Errorf("Place(outside) = true or changed %+v", tg)
	}
	if !tg.Place("R", tg.Dir) || tg.Rel != "." {
		t.Errorf("Place(itself) = %+v", tg)
	}
}

func TestFileURI(t *testing.T) {
	for _, c := range []struct{ rel, file, want string }{
		{".", "SKILL.md", "SKILL.md"},
		{"skills/a", "references/b c.md", "skills/a/references/b%20c.md"},
		{"skills/a", "references/gpj.\u202emd", "skills/a/references/gpj.%E2%80%AEmd"},
		{".", "a:b/SKILL.md", "./a:b/SKILL.md"},
		{".", "100%#?.md", "100%25%23%3F.md"},
	} {
		if got := FileURI(c.rel, c.file); got != c.want {
			t.Errorf("FileURI(%q, %q) = %q, want %q", c.rel, c.file, got, c.want)
		}
	}
}

func TestDocument(t *testing.T) {
	f := scan.Finding{Rule: scan.RuleHiddenZeroWidth, Severity: scan.Critical, File: "SKILL.md", Line: 6, Col: 6, Message: "m", Excerpt: "Hello<U+200B>world", Fix: "delete it"}
	res := Result{Packages: []Package{
		{Target: Target{Show: "skills/a", Name: "a"}, Report: scan.Report{Findings: []scan.Finding{f, {Rule: "x-low", Severity: scan.Low, File: "b.md"}}, Files: 2}},
		{Target: Target{Show: "skills/b", Name: "b"}},
		{Target: Target{Show: "skills/c", Name: "c", Skipped: "a symbolic link: not followed"}},
	}}
	high := scan.High
	doc := NewDocument(res, &high)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	sum := back["summary"].(map[string]any)
	for k, want := range map[string]float64{"packages": 3, "findings": 2, "critical": 1, "low": 1, "high": 0, "failing": 1, "skipped": 1} {
		if sum[k] != want {
			t.Errorf("summary.%s = %v, want %v (%s)", k, sum[k], want, b)
		}
	}
	pk := back["packages"].([]any)
	first := pk[0].(map[string]any)["findings"].([]any)[0].(map[string]any)
	if first["file"] != "skills/a/SKILL.md" || first["severity"] != "critical" || first["fingerprint"] != f.Fingerprint() || first["col"] != 6.0 {
		t.Errorf("first finding = %v; want its file below the package path, severity by name, the package-relative fingerprint", first)
	}
	if fs := pk[1].(map[string]any)["findings"]; fs == nil || len(fs.([]any)) != 0 {
		t.Errorf("a clean package's findings = %v, want []", fs)
	}
	if doc := NewDocument(res, nil); doc.FailOn != "none" || doc.Summary.Failing != 0 {
		t.Errorf("NewDocument(no fail-on) = %+v, want failOn none and nothing failing", doc.Summary)
	}
}

// TestScanDoesNotFollowLinks: a package file that is a symbolic link to a
// hostile file outside the package is not read.
func TestScanDoesNotFollowLinks(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{"outside.md": "\u200b\n", "pkg/SKILL.md": skill("pkg", "clean")})
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(base, "pkg", "notes.md")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	res, err := Scan(context.Background(), []Target{{Dir: filepath.Join(base, "pkg")}}, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Packages[0]; p.Err != nil || len(p.Report.Findings) != 0 || p.Report.Files != 1 {
		t.Errorf("scan of a package with a link out = %+v, %v; want SKILL.md alone read, no finding", p.Report, p.Err)
	}
}
