package source

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/validate"
)

// The skills of a source fetched in place are materialised in parallel:
// what is installed, skipped and refused, and every digest and version,
// is what one goroutine gives, whatever the timing.
func TestFetchInPlaceParallelIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		n := fmt.Sprintf("s%02d", i)
		switch {
		case i%7 == 3: // no description: skipped by the gate
			files["c/skills/"+n+"/SKILL.md"] = "---\nname: " + n + "\n---\n# " + n + "\n"
		case i%9 == 4: // a link to a sibling
			files["c/skills/"+n+"/SKILL.md"] = "---\nname: " + n + "\ndescription: Links. Use it.\n---\nSee [x](../s00/SKILL.md).\n"
		default:
			files["c/skills/"+n+"/SKILL.md"] = skillMD(n, "Skill "+n+". Use it.")
			files["c/skills/"+n+"/references/guide.md"] = "guide " + n + "\n"
		}
	}
	writeFiles(t, dir, files)
	r, ok, err := Parse("./c", dir, nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	fetch := func(procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), InPlace: true, Skills: []string{"*"}, Gate: validate.GateInstall})
		if err != nil {
			t.Fatalf("Fetch(GOMAXPROCS=%d) = %v", procs, err)
		}
		defer res.Close()
		var out []string
		for _, p := range res.Packages {
			out = append(out, p.Name+" "+p.Version+" "+p.Integrity+" "+fmt.Sprint(codesOf(p.Diagnostics)))
		}
		for _, s := range res.Skipped {
			out = append(out, "skipped "+s.Name+" "+s.Code+" "+fmt.Sprint(codesOf(s.Diagnostics)))
		}
		return out
	}
	want := fetch(1)
	if len(want) != 40 {
		t.Fatalf("Fetch() gave %d packages and skips, want 40: %v", len(want), want)
	}
	for range 5 {
		if got := fetch(4); !slices.Equal(got, want) {
			t.Fatalf("Fetch(GOMAXPROCS=4) =\n%v\nwant (GOMAXPROCS=1)\n%v", got, want)
		}
	}
}

// Discovery reads the skill folders in parallel: what it offers — names,
// paths, nested skills, plugins, copies and conflicts — and the cap's
// refusal are what one goroutine gives.
func TestDiscoverParallelIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".claude-plugin/marketplace.json":    `{"name":"m","plugins":[{"name":"tools","source":"./plugins/tools"}]}`,
		"plugins/tools/skills/p1/SKILL.md":   skillMD("p1", "Plugin skill. Use it."),
		"skills/s05/examples/inner/SKILL.md": skillMD("inner", "Nested. Use never."),
		".claude/skills/s07/SKILL.md":        skillMD("s07", "Another s07. Use it."),
	}
	for i := range 30 {
		n := fmt.Sprintf("s%02d", i)
		files["skills/"+n+"/SKILL.md"] = skillMD(n, "Skill "+n+". Use it.")
	}
	files["docs/copy/s03/SKILL.md"] = files["skills/s03/SKILL.md"]
	writeFiles(t, dir, files)
	tree, err := openTreeFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	disc := func(procs, maxSkills int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		d, err := discover(newOnceFS(tree), "", maxSkills)
		return fmt.Sprintf("%+v %v", d.found, err)
	}
	for _, max := range []int{0, 10} {
		want := disc(1, max)
		for range 5 {
			if got := disc(4, max); got != want {
				t.Fatalf("discover(GOMAXPROCS=4, max %d) =\n%s\nwant (GOMAXPROCS=1)\n%s", max, got, want)
			}
		}
	}
	if got := disc(4, 10); !strings.Contains(got, "ASK_SOURCE_TOO_MANY_SKILLS") && !strings.Contains(got, "more than the 10") {
		t.Errorf("discover(max 10) = %s, want the cap's refusal", got)
	}
}
