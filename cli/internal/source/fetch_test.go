package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// collection is a repository offering skills in every discovered layout.
func collection() map[string]string {
	return map[string]string{
		"README.md":                           "# skills\n",
		"skills/alpha/SKILL.md":               skillMD("alpha", "Alpha skill. Use for alpha work."),
		"skills/alpha/references/guide.md":    "guide\n",
		"skills/writing/beta/SKILL.md":        skillMD("beta", "Beta skill. Use for beta work."),
		".claude/skills/gamma/SKILL.md":       skillMD("gamma", "Gamma skill. Use for gamma work."),
		"plugins/tools/skills/delta/SKILL.md": skillMD("delta", "Delta skill. Use for delta work."),
		"plugins/tools/skills/delta/x.txt":    "x\n",
		".claude-plugin/marketplace.json": `{"name":"m","plugins":[{"name":"tools","source":"./plugins/tools"},` +
			`{"name":"remote","source":{"source":"github","repo":"a/b"}}]}`,
		"docs/notes/deep/er/est/SKILL.md": skillMD("too-deep", "Never found, five levels down."),
		"packaged/SKILL.md":               skillMD("packaged", "A package with its own manifest."),
		"packaged/skill.yaml": "schemaVersion: 1\nname: packaged\nkind: skill\nversion: 2.1.0\ndescription: A package.\n" +
			"license: MIT\nfiles:\n  - SKILL.md\n",
		"packaged/notes.txt": "not in files\n",
	}
}

func fetchOpts(t *testing.T, fx *gitFixture) Options {
	return Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Dir: filepath.Join(t.TempDir(), "out"), Getenv: fx.getenv}
}

func mustParse(t *testing.T, s string) Ref {
	t.Helper()
	r, ok, err := Parse(s, "/", nil)
	if err != nil || !ok {
		t.Fatalf("Parse(%q) = %v, %v", s, ok, err)
	}
	return r
}

func TestFetchDiscovery(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/skills", collection())
	opts := fetchOpts(t, fx)
	opts.List = true
	res, err := Fetch(context.Background(), mustParse(t, "acme/skills"), opts)
	if err != nil {
		t.Fatalf("Fetch(list) = %v", err)
	}
	var got []string
	for _, f := range res.Found {
		got = append(got, f.Name+"@"+f.Path)
	}
	want := []string{"alpha@skills/alpha", "beta@skills/writing/beta", "delta@plugins/tools/skills/delta",
		"gamma@.claude/skills/gamma", "packaged@packaged"}
	if !slices.Equal(got, want) {
		t.Errorf("Fetch(list).Found = %v, want %v", got, want)
	}
	if res.Source != "github:acme/skills" || len(res.Commit) != 40 {
		t.Errorf("Fetch(list) = source %q commit %q, want github:acme/skills and a SHA", res.Source, res.Commit)
	}

	// Several skills, none named, not interactive: a usage error listing them.
	opts.List = false
	_, err = Fetch(context.Background(), mustParse(t, "acme/skills"), opts)
	if codeOf(err) != "ASK_SOURCE_AMBIGUOUS" || !strings.Contains(shownErr(err), "gamma") {
		t.Errorf("Fetch(several) = %v, want ASK_SOURCE_AMBIGUOUS listing gamma", err)
	}
	// Interactive: Pick is asked.
	opts.Interactive = true
	opts.Pick = func(fs []Found) ([]Found, error) { return fs[1:2], nil }
	res, err = Fetch(context.Background(), mustParse(t, "acme/skills"), opts)
	if err != nil || len(res.Packages) != 1 || res.Packages[0].Name != "beta" {
		t.Errorf("Fetch(pick) = %+v, %v, want beta", res, err)
	}
}

func TestFetchChoose(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/skills", collection())
	tests := []struct {
		ref    string
		skills []string
		want   []string
		code   string
	}{
		{ref: "acme/skills@gamma", want: []string{"gamma"}},
		{ref: "acme/skills", skills: []string{"alpha", "delta"}, want: []string{"alpha", "delta"}},
		{ref: "acme/skills", skills: []string{"*"}, want: []string{"alpha", "beta", "delta", "gamma", "packaged"}},
		{ref: "acme/skills/skills/writing", want: []string{"beta"}},
		{ref: "acme/skills/skills/alpha", want: []string{"alpha"}},
		{ref: "acme/skills/packaged", want: []string{"packaged"}},
		{ref: "acme/skills", skills: []string{"nope"}, code: "ASK_SOURCE_NOT_FOUND"},
		{ref: "acme/skills/missing", code: "ASK_SOURCE_NOT_FOUND"},
		{ref: "acme/skills#no-such-branch", code: "ASK_SOURCE_NOT_FOUND"},
		{ref: "acme/absent", code: "ASK_SOURCE_NOT_FOUND"},
		{ref: "acme/skills@alpha#" + sha, want: []string{"alpha"}},
		{ref: "acme/skills@alpha#" + sha[:10], want: []string{"alpha"}},
		{ref: "acme/skills#" + strings.Repeat("0", 40), code: "ASK_SOURCE_NOT_FOUND"},
	}
	for _, tt := range tests {
		opts := fetchOpts(t, fx)
		opts.Skills = tt.skills
		res, err := Fetch(context.Background(), mustParse(t, tt.ref), opts)
		if tt.code != "" {
			if codeOf(err) != tt.code {
				t.Errorf("Fetch(%q, %v) = %v, want %s", tt.ref, tt.skills, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("Fetch(%q, %v) = %v", tt.ref, tt.skills, err)
			continue
		}
		var got []string
		for _, p := range res.Packages {
			got = append(got, p.Name)
			if p.Commit != sha || !strings.HasPrefix(p.Resolved, "file://"+fx.base+"/acme/skills.git#"+sha+":") {
				t.Errorf("Fetch(%q) package %s = commit %s resolved %s, want commit %s", tt.ref, p.Name, p.Commit, p.Resolved, sha)
			}
			if _, err := os.Stat(filepath.Join(opts.Dir, p.Name, "skill.yaml")); err != nil {
				t.Errorf("Fetch(%q) package %s has no skill.yaml: %v", tt.ref, p.Name, err)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Fetch(%q, %v) = %v, want %v", tt.ref, tt.skills, got, tt.want)
		}
	}
}

func TestFetchPackageFiles(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/skills", collection())
	opts := fetchOpts(t, fx)
	opts.Skills = []string{"packaged", "alpha"}
	res, err := Fetch(context.Background(), mustParse(t, "acme/skills"), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Packages {
		files := readTree(t, p.Dir)
		switch p.Name {
		case "packaged":
			if p.Synthesised || p.Version != "2.1.0" || files["notes.txt"] != "" || len(files) != 2 {
				t.Errorf("Fetch(packaged) = synth %v version %s files %v, want its own manifest and files only", p.Synthesised, p.Version, files)
			}
		case "alpha":
			if !p.Synthesised || !strings.HasPrefix(p.Version, "0.0.0-20260102030405-") || files["references/guide.md"] != "guide\n" {
				t.Errorf("Fetch(alpha) = synth %v version %s files %v, want a pseudo-version and its references", p.Synthesised, p.Version, files)
			}
			want := synthHeader + "schemaVersion: 1\nname: alpha\nkind: skill\nversion: " + p.Version +
				"\ndescription: Alpha skill. Use for alpha work.\nfiles:\n  - SKILL.md\n  - references/\n  - skill.yaml\n"
			if files["skill.yaml"] != want {
				t.Errorf("Fetch(alpha) skill.yaml = %q, want %q", files["skill.yaml"], want)
			}
		}
	}
}

func TestFetchTagVersion(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One skill. Use for one."), "LICENSE": "MIT\n"})
	fx.tag("acme/one", "v1.4.0")
	fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "Changed after the tag.")})
	opts := fetchOpts(t, fx)
	res, err := Fetch(context.Background(), mustParse(t, "acme/one#v1.4.0"), opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Packages[0]
	if p.Version != "1.4.0" || p.Subpath != "" || !strings.Contains(readTree(t, p.Dir)["SKILL.md"], "Use for one.") {
		t.Errorf("Fetch(#v1.4.0) = version %s subpath %q, want 1.4.0 at the root with the tagged bytes", p.Version, p.Subpath)
	}
}

// A locked install survives a force-push and restores byte-identical
// folders; a changed digest is refused.
func TestRestore(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/skills", collection())
	opts := fetchOpts(t, fx)
	res, err := Fetch(context.Background(), mustParse(t, "acme/skills@beta#"+sha), opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Packages[0]
	before := readTree(t, p.Dir)

	// Rewrite history: main now points at an unrelated commit.
	runGit(t, filepath.Join(fx.work, "acme/skills"), "commit", "-q", "--amend", "-m", "rewritten")
	writeFiles(t, filepath.Join(fx.work, "acme/skills"), map[string]string{"skills/writing/beta/SKILL.md": skillMD("beta", "Rewritten.")})
	fx.commit("acme/skills", nil)

	pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Resolved: p.Resolved, Commit: p.Commit, Subpath: p.Subpath, Integrity: p.Integrity}
	ropts := fetchOpts(t, fx)
	got, err := Restore(context.Background(), pin, ropts)
	if err != nil {
		t.Fatalf("Restore(%+v) = %v", pin, err)
	}
	after := readTree(t, got.Dir)
	if len(after) != len(before) {
		t.Errorf("Restore files = %v, want %v", after, before)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("Restore file %s = %q, want %q", k, after[k], v)
		}
	}
	if got.Integrity != p.Integrity {
		t.Errorf("Restore integrity = %s, want %s", got.Integrity, p.Integrity)
	}

	pin.Integrity = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	ropts = fetchOpts(t, fx)
	if _, err := Restore(context.Background(), pin, ropts); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Restore(wrong integrity) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
	if ents, _ := os.ReadDir(ropts.Dir); len(ents) != 0 {
		t.Errorf("Restore(wrong integrity) left %d entries in Dir, want none", len(ents))
	}
}

// The same skill through the shorthand and the git URL has one identity.
func TestFetchSameSource(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One skill. Use for one.")})
	a, err := Fetch(context.Background(), mustParse(t, "acme/one"), fetchOpts(t, fx))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fetch(context.Background(), mustParse(t, "file://"+fx.base+"/acme/one.git"), fetchOpts(t, fx))
	if err != nil {
		t.Fatal(err)
	}
	if a.Packages[0].Source != b.Packages[0].Source || a.Packages[0].Integrity != b.Packages[0].Integrity {
		t.Errorf("Fetch(shorthand).Source = %s, Fetch(url).Source = %s, want equal", a.Packages[0].Source, b.Packages[0].Source)
	}
}

func TestFetchRegistrySource(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/reg", map[string]string{"registry/skills.yaml": "schemaVersion: 1\nname: r\nskills: []\n",
		"skills/a/SKILL.md": skillMD("a-skill", "A.")})
	res, err := Fetch(context.Background(), mustParse(t, "acme/reg"), fetchOpts(t, fx))
	if err != nil || !res.Registry || res.RegistryURL != "file://"+fx.base+"/acme/reg.git#"+sha || len(res.Packages) != 0 {
		t.Errorf("Fetch(registry) = %+v, %v, want Registry with its URL", res, err)
	}
}

func TestFetchInvalidSkill(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/bad", map[string]string{
		"skills/Bad_Name/SKILL.md": "---\nname: Bad_Name\ndescription: x\n---\nbody\n",
		"skills/nodesc/SKILL.md":   "---\nname: nodesc\n---\nbody\n",
	})
	for _, s := range []string{"Bad_Name", "nodesc"} {
		opts := fetchOpts(t, fx)
		opts.Skills = []string{s}
		_, err := Fetch(context.Background(), mustParse(t, "acme/bad"), opts)
		if codeOf(err) != "ASK_VALIDATION_FAILED" || len(err.(*Error).Diagnostics) == 0 {
			t.Errorf("Fetch(%s) = %v, want ASK_VALIDATION_FAILED with diagnostics", s, err)
		}
	}
}

func TestFetchLocal(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"my-skill/SKILL.md": skillMD("my-skill", "Mine. Use always."), "my-skill/a.txt": "a\n"})
	r, ok, err := Parse("./my-skill", dir, nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out")}
	res, err := Fetch(context.Background(), r, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Packages[0]
	if p.Source != filepath.Join(dir, "my-skill") || !strings.HasPrefix(p.Version, "0.0.0-local-") || p.Commit != "" {
		t.Errorf("Fetch(local) = %+v, want source %s and a content version", p, filepath.Join(dir, "my-skill"))
	}
	home, ok, err := Parse("~/my-skill", "/elsewhere", nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	hres, err := Fetch(context.Background(), home, Options{CacheDir: t.TempDir(), Dir: t.TempDir(), Getenv: func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}})
	if err != nil || hres.Source != p.Source || hres.Packages[0].Integrity != p.Integrity {
		t.Errorf("Fetch(~/my-skill) = %+v, %v, want source %s", hres, err, p.Source)
	}
	pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Subpath: p.Subpath, Integrity: p.Integrity}
	if _, err := Restore(context.Background(), pin, Options{CacheDir: t.TempDir(), Dir: t.TempDir()}); err != nil {
		t.Errorf("Restore(local) = %v", err)
	}
	writeFiles(t, dir, map[string]string{"my-skill/a.txt": "edited\n"})
	if _, err := Restore(context.Background(), pin, Options{CacheDir: t.TempDir(), Dir: t.TempDir()}); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Restore(edited local) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
	// A symbolic link inside a local skill is never copied.
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "my-skill", "link")); err != nil {
		t.Skip(err)
	}
	if _, err := Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), Dir: t.TempDir()}); codeOf(err) != "ASK_PACKAGE_UNSAFE_FILE" {
		t.Errorf("Fetch(symlink) = %v, want ASK_PACKAGE_UNSAFE_FILE", err)
	}
}

func TestFetchTooLarge(t *testing.T) {
	fx := newFixture(t)
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB, incompressible enough when varied
	files := map[string]string{"SKILL.md": skillMD("big", "Big.")}
	for i := range 4 {
		files[filepath.Join("data", string(rune('a'+i)))] = big + string(rune('a'+i))
	}
	fx.commit("acme/big", files)
	opts := fetchOpts(t, fx)
	opts.MaxBytes = 64 << 10
	if _, err := Fetch(context.Background(), mustParse(t, "acme/big"), opts); codeOf(err) != "ASK_SOURCE_TOO_LARGE" {
		t.Errorf("Fetch(big) = %v, want ASK_SOURCE_TOO_LARGE", err)
	}
}

func TestTags(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One.")})
	for _, tag := range []string{"v1.2.0", "v1.10.0", "1.3.0", "release-x", "v2.0.0-rc.1"} {
		fx.tag("acme/one", tag)
	}
	got, err := Tags(context.Background(), mustParse(t, "acme/one"), fetchOpts(t, fx))
	want := []string{"v2.0.0-rc.1", "v1.10.0", "1.3.0", "v1.2.0"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Tags(acme/one) = %v, %v, want %v", got, err, want)
	}
	if _, err := Tags(context.Background(), mustParse(t, "acme/none"), fetchOpts(t, fx)); codeOf(err) != "ASK_SOURCE_NOT_FOUND" {
		t.Errorf("Tags(acme/none) = %v, want ASK_SOURCE_NOT_FOUND", err)
	}
}

// A server that will not serve an unadvertised commit by name (protocol
// v0 without allowAnySHA1InWant) still gives a locked commit, through a
// full fetch.
func TestFetchSHAFallback(t *testing.T) {
	fx := newFixture(t)
	old := fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "Old. Use it.")})
	fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "New. Use it.")})
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[protocol]\n\tversion = 0\n[uploadpack]\n\tallowAnySHA1InWant = false\n\tallowReachableSHA1InWant = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Fetch(context.Background(), mustParse(t, "acme/one#"+old), fetchOpts(t, fx))
	if err != nil || res.Commit != old || !strings.Contains(readTree(t, res.Packages[0].Dir)["SKILL.md"], "Old.") {
		t.Fatalf("Fetch(#old sha) = %+v, %v, want commit %s with the old bytes", res, err, old)
	}
	missing := strings.Repeat("1", 40)
	if _, err := Fetch(context.Background(), mustParse(t, "acme/one#"+missing), fetchOpts(t, fx)); codeOf(err) != "ASK_SOURCE_NOT_FOUND" {
		t.Errorf("Fetch(#missing sha) = %v, want ASK_SOURCE_NOT_FOUND", err)
	}
}

// A sub-path is checked out sparsely: nothing outside it reaches the disk.
func TestFetchCommitSparse(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/skills", collection())
	opts := fetchOpts(t, fx)
	work := t.TempDir()
	g, err := newGitRunner("file://"+fx.base+"/acme/skills.git", work, &opts)
	if err != nil {
		t.Fatal(err)
	}
	co, err := g.fetchCommit(context.Background(), "main", "skills/writing")
	if err != nil || co.commit != sha {
		t.Fatalf("fetchCommit(main, skills/writing) = %+v, %v, want commit %s", co, err, sha)
	}
	var got []string
	for p := range readTree(t, work) {
		if !strings.HasPrefix(p, ".git/") {
			got = append(got, p)
		}
	}
	if want := []string{"skills/writing/beta/SKILL.md"}; !slices.Equal(got, want) {
		t.Errorf("fetchCommit(sparse) checked out %v, want %v", got, want)
	}
}

// A bare repository whose HEAD names a branch never pushed still gives
// its main branch.
func TestFetchDanglingHEAD(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One. Use it.")})
	runGit(t, filepath.Join(fx.base, "acme/one.git"), "symbolic-ref", "HEAD", "refs/heads/trunk")
	res, err := Fetch(context.Background(), mustParse(t, "acme/one"), fetchOpts(t, fx))
	if err != nil || res.Commit != sha {
		t.Fatalf("Fetch(dangling HEAD) = %+v, %v, want commit %s", res, err, sha)
	}
}

// OpenAI's layout from a git source: dot categories are discovered from
// the root and from a sub-path, a SKILL.md inside a skill is part of it,
// and "*" skips a name two folders offer with different contents,
// returning why in Result.Skipped (issue 13, item 3).
func TestFetchRealLayouts(t *testing.T) {
	fx := newFixture(t)
	fx.commit("openai/skills", map[string]string{
		"skills/.curated/gh-fix-ci/SKILL.md":            skillMD("gh-fix-ci", "Fix CI. Use when CI fails."),
		"skills/.curated/gh-fix-ci/examples/x/SKILL.md": skillMD("example", "An example. Use never."),
		"skills/.experimental/linear/SKILL.md":          skillMD("linear", "Linear. Use for issues."),
		"skills/.system/creator/SKILL.md":               skillMD("creator", "Create skills. Use when creating one."),
		".agents/skills/creator/SKILL.md":               skillMD("creator", "An older creator. Use when creating one."),
	})
	for _, ref := range []string{"openai/skills", "openai/skills/skills"} {
		opts := fetchOpts(t, fx)
		opts.List = true
		res, err := Fetch(context.Background(), mustParse(t, ref), opts)
		if err != nil {
			t.Fatalf("Fetch(%s, list) = %v", ref, err)
		}
		var got []string
		for _, f := range res.Found {
			got = append(got, f.Name+"@"+f.Path+strings.Join(f.Nested, ","))
		}
		want := []string{"creator@skills/.system/creator", "gh-fix-ci@skills/.curated/gh-fix-ci" + "examples/x", "linear@skills/.experimental/linear"}
		if ref == "openai/skills" {
			want = append([]string{"creator@.agents/skills/creator"}, want...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Fetch(%s, list).Found = %v, want %v", ref, got, want)
		}
	}

	opts := fetchOpts(t, fx)
	opts.Skills = []string{"*"}
	res, err := Fetch(context.Background(), mustParse(t, "openai/skills"), opts)
	if err != nil {
		t.Fatalf("Fetch(*) = %v", err)
	}
	var got []string
	for _, p := range res.Packages {
		got = append(got, p.Name+"@"+p.Subpath)
	}
	if !slices.Equal(got, []string{"gh-fix-ci@skills/.curated/gh-fix-ci", "linear@skills/.experimental/linear"}) {
		t.Errorf("Fetch(*).Packages = %v, want gh-fix-ci and linear", got)
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, "gh-fix-ci", "examples", "x", "SKILL.md")); err != nil {
		t.Errorf("Fetch(*): the nested SKILL.md was not materialised with its skill: %v", err)
	}
	want := []Skipped{
		{Name: "creator", Path: ".agents/skills/creator", Code: CodeSourceDuplicateSkill},
		{Name: "creator", Path: "skills/.system/creator", Code: CodeSourceDuplicateSkill},
	}
	if len(res.Skipped) != len(want) {
		t.Fatalf("Fetch(*).Skipped = %+v, want %+v", res.Skipped, want)
	}
	for i, w := range want {
		s := res.Skipped[i]
		if s.Name != w.Name || s.Path != w.Path || s.Code != w.Code || !strings.Contains(s.Reason, ".agents/skills/creator, skills/.system/creator") {
			t.Errorf("Fetch(*).Skipped[%d] = %+v, want %s at %s with %s naming both folders", i, s, w.Name, w.Path, w.Code)
		}
	}
	if _, err := os.Stat(filepath.Join(opts.Dir, "creator")); !os.IsNotExist(err) {
		t.Errorf("Fetch(*) materialised a skipped skill: %v", err)
	}

	// Its folder picks one.
	opts = fetchOpts(t, fx)
	opts.Skills = []string{"skills/.system/creator"}
	res, err = Fetch(context.Background(), mustParse(t, "openai/skills"), opts)
	if err != nil || len(res.Packages) != 1 || res.Packages[0].Subpath != "skills/.system/creator" || len(res.Skipped) != 0 {
		t.Errorf("Fetch(--skill skills/.system/creator) = %+v, %v, want that one folder", res, err)
	}
}
