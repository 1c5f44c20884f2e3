package source

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// gateCollection is a local folder with skills that pass the install gate
// (ok, a numeric metadata value, a link to a sibling) and two that do not
// (no description; a link that leaves the collection).
func gateCollection(t *testing.T) Ref {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"c/skills/ok/SKILL.md":      skillMD("ok", "Fine. Use it."),
		"c/skills/meta/SKILL.md":    "---\nname: meta\ndescription: Meta. Use it.\nmetadata:\n  version: 1.0\n---\n# meta\n",
		"c/skills/alpha/SKILL.md":   "---\nname: alpha\ndescription: Alpha. Use it.\n---\nSee [ok](../ok/SKILL.md).\n",
		"c/skills/nodesc/SKILL.md":  "---\nname: nodesc\n---\n# nodesc\n",
		"c/skills/escapes/SKILL.md": "---\nname: escapes\ndescription: Escapes. Use it.\n---\nSee [x](../../README.md).\n",
	})
	r, ok, err := Parse("./c", dir, nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	return r
}

// names returns the names of the packages and of the skipped skills.
func names(res *Result) (pkgs, skipped []string) {
	for _, p := range res.Packages {
		pkgs = append(pkgs, p.Name)
	}
	for _, s := range res.Skipped {
		skipped = append(skipped, s.Name)
	}
	return pkgs, skipped
}

func TestFetchWildcardSkips(t *testing.T) {
	r := gateCollection(t)
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Skills: []string{"*"}, Gate: validate.GateInstall}
	res, err := Fetch(context.Background(), r, opts)
	if err != nil {
		t.Fatalf("Fetch(*, install gate) = %v", err)
	}
	pkgs, skipped := names(res)
	if want := []string{"alpha", "meta", "ok"}; !slices.Equal(pkgs, want) {
		t.Errorf("Fetch(*).Packages = %v, want %v", pkgs, want)
	}
	if want := []string{"escapes", "nodesc"}; !slices.Equal(skipped, want) {
		t.Errorf("Fetch(*).Skipped = %v, want %v", skipped, want)
	}
	for _, s := range res.Skipped {
		if s.Code != "ASK_VALIDATION_FAILED" || len(s.Diagnostics) == 0 || s.Diagnostics.HasErrors() != true {
			t.Errorf("Fetch(*).Skipped %s = %+v, want ASK_VALIDATION_FAILED with its errors", s.Name, s)
		}
		if _, err := os.Stat(filepath.Join(opts.Dir, s.Name)); err == nil {
			t.Errorf("Fetch(*) materialised the skipped %s", s.Name)
		}
	}
	for _, p := range res.Packages {
		want := map[string]string{"alpha": "ASK_LINK_OUTSIDE_PACKAGE", "meta": "ASK_FRONTMATTER_FIELD_INVALID"}[p.Name]
		if got := codesOf(p.Diagnostics); want != "" && (len(got) != 1 || got[0] != want) || want == "" && len(got) != 0 {
			t.Errorf("Fetch(*) %s warnings = %v, want %q", p.Name, got, want)
		}
	}

	// The default gate (install --strict): the same skills fail, all at
	// once, when everything must pass.
	opts.Gate, opts.AllOrNothing, opts.Dir = validate.GateDefault, true, filepath.Join(t.TempDir(), "out")
	_, err = Fetch(context.Background(), r, opts)
	if codeOf(err) != "ASK_VALIDATION_FAILED" || !strings.Contains(err.Error(), "4 skills from") ||
		!strings.Contains(err.Error(), "(alpha, escapes, meta, nodesc)") {
		t.Errorf("Fetch(*, strict) = %v, want the four failing skills named", err)
	}
	if ents, _ := os.ReadDir(opts.Dir); len(ents) != 0 {
		t.Errorf("a refused Fetch(*, strict) left %d folders in Dir", len(ents))
	}
}

func TestFetchNamedIsAllOrNothing(t *testing.T) {
	r := gateCollection(t)
	for _, skills := range [][]string{{"ok", "nodesc"}, {"*", "nodesc"}} {
		opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Skills: skills, Gate: validate.GateInstall}
		_, err := Fetch(context.Background(), r, opts)
		if codeOf(err) != "ASK_VALIDATION_FAILED" || !strings.Contains(err.Error(), "skill nodesc from") {
			t.Errorf("Fetch(%v) = %v, want nodesc's ASK_VALIDATION_FAILED", skills, err)
		}
		if ents, _ := os.ReadDir(opts.Dir); len(ents) != 0 {
			t.Errorf("a refused Fetch(%v) left %d folders in Dir", skills, len(ents))
		}
	}
}

func TestFetchCheckRefuses(t *testing.T) {
	r := gateCollection(t)
	check := func(pkg *format.Package) format.Diagnostics {
		if pkg.Name() != "meta" {
			return nil
		}
		return format.Diagnostics{{File: "SKILL.md", Severity: format.SeverityError, Code: "ASK_AGENT_CONSTRAINT", Message: "an agent drops it"}}
	}
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Skills: []string{"*"}, Gate: validate.GateInstall, Check: check}
	res, err := Fetch(context.Background(), r, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, skipped := names(res); !slices.Contains(skipped, "meta") {
		t.Errorf("Fetch(*) with a check refusing meta skipped %v, want meta among them", skipped)
	}
}

func TestSiblingsOf(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"skills/a/SKILL.md": "x", "skills/b/SKILL.md": "x", "skills/notes/x.md": "x", "SKILL.md": "x"})
	fsys, err := openTreeFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	if got := siblingsOf(fsys, "skills/a"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("siblingsOf(skills/a) = %v, want [b]", got)
	}
	if got := siblingsOf(fsys, ""); got != nil {
		t.Errorf("siblingsOf(root) = %v, want none", got)
	}
}

// codesOf returns the codes of ds.
func codesOf(ds format.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

// countingFS counts the folders listed through it.
type countingFS struct {
	fs.FS
	lists int
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.lists++
	return fs.ReadDir(c.FS, name)
}

func TestSiblingIndexListsParentOnce(t *testing.T) {
	files := map[string]string{"skills/notes/x.md": "x"}
	var names []string
	for i := range 20 {
		n := fmt.Sprintf("s%02d", i)
		names = append(names, n)
		files["skills/"+n+"/SKILL.md"] = "x"
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	tfs, err := openTreeFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tfs.Close()
	c := &countingFS{FS: tfs}
	idx := newSiblingIndex(c)
	for _, n := range names {
		want := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == n })
		if got := idx.of("skills/" + n); !slices.Equal(got, want) {
			t.Errorf("of(skills/%s) = %v, want %v", n, got, want)
		}
	}
	if c.lists != 1 {
		t.Errorf("20 skills of one folder listed it %d times, want once", c.lists)
	}
}

// Restore validates a skill that links to a sibling as Fetch did — the
// link passes the install gate with its warning — and one that links
// nowhere else without listing the skills beside it.
func TestRestoreSiblingLinks(t *testing.T) {
	r := gateCollection(t)
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Skills: []string{"*"}, Gate: validate.GateInstall}
	res, err := Fetch(context.Background(), r, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Packages {
		if p.Name != "alpha" && p.Name != "ok" {
			continue
		}
		pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Resolved: p.Resolved, Subpath: p.Subpath, Integrity: p.Integrity}
		for _, inPlace := range []bool{false, true} {
			ropts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Gate: validate.GateInstall, InPlace: inPlace}
			got, err := Restore(context.Background(), pin, ropts)
			if err != nil {
				t.Fatalf("Restore(%s, in place %v) = %v", p.Name, inPlace, err)
			}
			if g, w := codesOf(got.Diagnostics), codesOf(p.Diagnostics); !slices.Equal(g, w) {
				t.Errorf("Restore(%s, in place %v) warnings = %v, Fetch gave %v", p.Name, inPlace, g, w)
			}
			got.Close()
		}
		// Only alpha's validation without the siblings asks for them.
		alone := validate.Package(p.Pkg, validate.Options{Gate: validate.GateInstall, DirName: p.Name})
		if want := p.Name == "alpha"; leavesPackage(alone) != want {
			t.Errorf("leavesPackage(%s validated alone) = %v, want %v", p.Name, !want, want)
		}
	}
	if len(codesOf(func() format.Diagnostics {
		for _, p := range res.Packages {
			if p.Name == "alpha" {
				return p.Diagnostics
			}
		}
		return nil
	}())) == 0 {
		t.Errorf("Fetch gave alpha, which links to its sibling ok, no warning")
	}
}
