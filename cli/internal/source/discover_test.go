package source

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/format"
)

func md(name string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(skillMD(name, "Skill "+name+". Use it."))}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name     string
		fsys     fstest.MapFS
		root     string
		want     []string // name@path
		registry bool
		code     string
	}{
		{name: "root skill wins", fsys: fstest.MapFS{"SKILL.md": md("root"), "skills/a/SKILL.md": md("a")}, want: []string{"root@"}},
		{name: "registry wins", fsys: fstest.MapFS{"registry/skills.yaml": {Data: []byte("x")}, "SKILL.md": md("root")}, registry: true},
		{name: "registry ignored under a sub-path", fsys: fstest.MapFS{"registry/skills.yaml": {Data: []byte("x")}, "skills/a/SKILL.md": md("a")}, root: "skills", want: []string{"a@skills/a"}},
		// A dot-folder that is not an agent folder is a category like any
		// other, as validate finds it (issue 13, item 3); an agent folder is
		// entered only through its skills/, never its checkouts.
		{name: "agent folders", fsys: fstest.MapFS{".agents/skills/a/SKILL.md": md("a"), ".codex/skills/b/SKILL.md": md("b"),
			".github/skills/c/SKILL.md": md("c"), ".hidden/d/SKILL.md": md("d"), "node_modules/e/SKILL.md": md("e"),
			".claude/worktrees/w/f/SKILL.md": md("f"), ".github/workflows/g/SKILL.md": md("g")},
			want: []string{"a@.agents/skills/a", "b@.codex/skills/b", "c@.github/skills/c", "d@.hidden/d"}},
		{name: "skills/ before agent folder on a clash", fsys: fstest.MapFS{".claude/skills/a/SKILL.md": md("a"), "skills/a/SKILL.md": md("a")},
			want: []string{"a@skills/a"}},
		{name: "no descent into a skill", fsys: fstest.MapFS{"skills/a/SKILL.md": md("a"), "skills/a/examples/b/SKILL.md": md("b")},
			want: []string{"a@skills/a"}},
		{name: "marketplace skills list and pluginRoot", fsys: fstest.MapFS{
			".claude-plugin/marketplace.json": {Data: []byte(`{"metadata":{"pluginRoot":"./plugins"},"plugins":[` +
				`{"name":"p","source":"p","skills":["./skills/x","./more"]},{"name":"esc","source":"../../outside"}]}`)},
			"plugins/p/skills/x/SKILL.md":   md("x"),
			"plugins/p/more/y/SKILL.md":     md("y"),
			"plugins/p/unlisted/z/SKILL.md": md("z"),
			"plugins/p/a/b/c/deep/SKILL.md": md("deep"),
		}, want: []string{"x@plugins/p/skills/x", "y@plugins/p/more/y", "z@plugins/p/unlisted/z"}},
		// OpenAI's published layout: categories that start with a dot (issue 13, c3).
		{name: "dot categories under skills/", fsys: fstest.MapFS{"skills/.curated/a/SKILL.md": md("a"),
			"skills/.experimental/b/SKILL.md": md("b"), "skills/.system/c/SKILL.md": md("c")},
			want: []string{"a@skills/.curated/a", "b@skills/.experimental/b", "c@skills/.system/c"}},
		{name: "dot categories under a named sub-path", fsys: fstest.MapFS{"skills/.curated/a/SKILL.md": md("a"),
			"skills/.system/c/SKILL.md": md("c")}, root: "skills",
			want: []string{"a@skills/.curated/a", "c@skills/.system/c"}},
		{name: "dot categories in agent folders and other folders", fsys: fstest.MapFS{".agents/skills/.curated/a/SKILL.md": md("a"),
			"tools/.beta/b/SKILL.md": md("b")},
			want: []string{"a@.agents/skills/.curated/a", "b@tools/.beta/b"}},
		{name: "never entered anywhere", fsys: fstest.MapFS{"skills/node_modules/a/SKILL.md": md("a"), "skills/.git/b/SKILL.md": md("b"),
			"skills/.agent-skills/c/SKILL.md": md("c"), ".agent-skills/d/SKILL.md": md("d"), "skills/e/SKILL.md": md("e")},
			want: []string{"e@skills/e"}},
		{name: "dot categories at the top of a named folder", fsys: fstest.MapFS{".curated/a/SKILL.md": md("a"), ".system/b/SKILL.md": md("b")},
			want: []string{"a@.curated/a", "b@.system/b"}},
		{name: "missing sub-path", fsys: fstest.MapFS{"SKILL.md": md("a")}, root: "nope", code: "ASK_SOURCE_NOT_FOUND"},
		{name: "nothing", fsys: fstest.MapFS{"README.md": {Data: []byte("x")}}},
	}
	for _, tt := range tests {
		d, err := discover(tt.fsys, tt.root, 0)
		if tt.code != "" {
			if codeOf(err) != tt.code {
				t.Errorf("discover(%s) = %v, want %s", tt.name, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("discover(%s) = %v", tt.name, err)
			continue
		}
		var got []string
		for _, f := range d.found {
			got = append(got, f.Name+"@"+f.Path)
		}
		if d.registry != tt.registry || !slices.Equal(got, tt.want) {
			t.Errorf("discover(%s) = %v registry %v, want %v registry %v", tt.name, got, d.registry, tt.want, tt.registry)
		}
	}
}

func TestSynthManifest(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":       {Data: []byte("---\nname: tricky\ndescription: \"Use when: a # b - c\"\nlicense: Complete terms in LICENSE.txt\n---\nbody\n")},
		"LICENSE.txt":    {Data: []byte("x")},
		"scripts/run.sh": {Data: []byte("x")},
	}
	b, err := readBare(fsys, "fallback")
	if err != nil {
		t.Fatal(err)
	}
	one, err := synthManifest(b, "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	two, _ := synthManifest(b, "1.0.0")
	if string(one) != string(two) {
		t.Errorf("synthManifest is not deterministic: %q vs %q", one, two)
	}
	var m struct {
		Name, Version, Description, License string
		Files                               []string
	}
	if err := yaml.Unmarshal(one, &m); err != nil {
		t.Fatalf("synthManifest = %q: %v", one, err)
	}
	if m.Name != "tricky" || m.Description != "Use when: a # b - c" || m.License != "" ||
		!slices.Equal(m.Files, []string{"LICENSE.txt", "SKILL.md", "scripts/", "skill.yaml"}) {
		t.Errorf("synthManifest = %+v, want the front matter's name and description, no free-text licence, every top-level entry", m)
	}
	fsys["skill.yaml"] = &fstest.MapFile{Data: one}
	if _, diags := format.Load(fsys, format.LoadOptions{}); diags.HasErrors() {
		t.Errorf("format.Load(synthesised) = %v, want no errors", diags)
	}
}

// A front matter licence pointing at a file is kept only when the skill
// ships that file; otherwise validation would refuse the synthesised
// manifest for a licence SKILL.md is free to write.
func TestReadBareLicenseFile(t *testing.T) {
	for _, tc := range []struct {
		withFile bool
		want     string
	}{{true, "SEE LICENSE IN LICENSE.txt"}, {false, ""}} {
		fsys := fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: l\ndescription: d\nlicense: SEE LICENSE IN LICENSE.txt\n---\n")}}
		if tc.withFile {
			fsys["LICENSE.txt"] = &fstest.MapFile{Data: []byte("terms")}
		}
		b, err := readBare(fsys, "l")
		if err != nil || b.license != tc.want {
			t.Errorf("readBare(LICENSE.txt shipped: %v) licence = %q, %v, want %q", tc.withFile, b.license, err, tc.want)
		}
	}
}

func TestReadBareVersion(t *testing.T) {
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: v\ndescription: d\nversion: 3.1.4\nlicense: MIT\n---\n")}}
	b, err := readBare(fsys, "v")
	if err != nil || b.version != "3.1.4" || b.license != "MIT" {
		t.Errorf("readBare = %+v, %v, want version 3.1.4 and licence MIT", b, err)
	}
}

// A source offering more skill folders than the cap is refused with the
// count and the flag that raises it, never cut short (B13); at the cap
// every skill is offered.
func TestDiscoverCap(t *testing.T) {
	fsys := fstest.MapFS{
		".claude-plugin/marketplace.json": {Data: []byte(`{"plugins":[{"name":"p","source":"./plugins/p"}]}`)},
		"plugins/p/skills/m/SKILL.md":     md("m"),
	}
	for i := range 5 {
		n := string(rune('a' + i))
		fsys["skills/"+n+"/SKILL.md"] = md(n)
	}
	for _, tc := range []struct {
		max, want int
		code, msg string
	}{
		{max: 3, code: "ASK_SOURCE_TOO_MANY_SKILLS", msg: "the source offers 6 skills, more than the 3"},
		{max: 5, code: "ASK_SOURCE_TOO_MANY_SKILLS", msg: "the source offers 6 skills, more than the 5"},
		{max: 6, want: 6},
		{max: 0, want: 6}, // the default
	} {
		d, err := discover(fsys, "", tc.max)
		if tc.code == "" {
			if err != nil || len(d.found) != tc.want {
				t.Errorf("discover(6 skills, max %d) = %d skills, %v, want %d", tc.max, len(d.found), err, tc.want)
			}
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Code != tc.code || !strings.Contains(e.Message, tc.msg) || len(e.Try) == 0 || !strings.Contains(e.Try[0], "--max-skills 6") {
			t.Errorf("discover(6 skills, max %d) = %+v, want %s %q suggesting --max-skills 6", tc.max, err, tc.code, tc.msg)
		}
	}
	if _, err := discover(fsys, "skills", 2); codeOf(err) != "ASK_SOURCE_TOO_MANY_SKILLS" || !strings.Contains(err.Error(), `"skills" offers 5 skills`) {
		t.Errorf(`discover(skills, max 2) = %v, want ASK_SOURCE_TOO_MANY_SKILLS naming "skills"`, err)
	}
}

// A SKILL.md inside a skill's folder is part of that skill's package: not
// offered on its own, but named in Found.Nested (issue 13, item 3).
func TestDiscoverNested(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		root string
		want map[string][]string // path -> nested
	}{
		{name: "examples inside a skill", fsys: fstest.MapFS{
			"skills/a/SKILL.md":                      md("a"),
			"skills/a/examples/b/SKILL.md":           md("b"),
			"skills/a/examples/c/SKILL.md":           md("c"),
			"skills/a/examples/c/deeper/d/SKILL.md":  md("d"),
			"skills/a/node_modules/e/SKILL.md":       md("e"),
			"skills/a/one/two/three/four/f/SKILL.md": md("f"), // five levels down
			"skills/g/SKILL.md":                      md("g"),
		}, want: map[string][]string{"skills/a": {"examples/b", "examples/c", "examples/c/deeper/d"}, "skills/g": nil}},
		{name: "a root skill holds the rest", fsys: fstest.MapFS{"SKILL.md": md("root"), "skills/a/SKILL.md": md("a")},
			want: map[string][]string{"": {"skills/a"}}},
		{name: "a named skill folder", fsys: fstest.MapFS{"skills/a/SKILL.md": md("a"), "skills/a/t/SKILL.md": md("t")},
			root: "skills/a", want: map[string][]string{"skills/a": {"t"}}},
	}
	for _, tt := range tests {
		d, err := discover(tt.fsys, tt.root, 0)
		if err != nil {
			t.Fatalf("discover(%s) = %v", tt.name, err)
		}
		got := map[string][]string{}
		for _, f := range d.found {
			got[f.Path] = f.Nested
		}
		if len(got) != len(tt.want) {
			t.Errorf("discover(%s) found %v, want %v", tt.name, got, tt.want)
		}
		for p, want := range tt.want {
			if n, ok := got[p]; !ok || !slices.Equal(n, want) {
				t.Errorf("discover(%s) nested of %q = %v, want %v", tt.name, p, n, want)
			}
		}
	}
}

// Two folders with one skill name are one skill when their packages have
// the same digest, and a conflict when they differ (issue 13, item 3).
func TestDiscoverSameName(t *testing.T) {
	x := md("x")
	fsys := fstest.MapFS{
		"skills/x/SKILL.md":         x,
		"skills/x/ref.md":           {Data: []byte("r")},
		".claude/skills/x/SKILL.md": x,
		".claude/skills/x/ref.md":   {Data: []byte("r")},
		"plugins/p/x/SKILL.md":      x, // same SKILL.md, but without ref.md: a different package
		"skills/y/SKILL.md":         {Data: []byte(skillMD("y", "One y. Use it."))},
		".agents/skills/y/SKILL.md": {Data: []byte(skillMD("y", "Another y. Use it."))},
		"skills/z/SKILL.md":         md("z"),
		"skills/w/SKILL.md":         md("w"),
		".codex/skills/w/SKILL.md":  md("w"),
	}
	d, err := discover(fsys, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		at                string
		copies, conflicts []string
	}
	var got []row
	for _, f := range d.found {
		got = append(got, row{f.Name + "@" + f.Path, f.Copies, f.Conflicts})
	}
	want := []row{
		{"w@skills/w", []string{".codex/skills/w"}, nil},
		{"x@plugins/p/x", nil, []string{"skills/x"}},
		{"x@skills/x", []string{".claude/skills/x"}, []string{"plugins/p/x"}},
		{"y@.agents/skills/y", nil, []string{"skills/y"}},
		{"y@skills/y", nil, []string{".agents/skills/y"}},
		{"z@skills/z", nil, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("discover(same names) = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].at != want[i].at || !slices.Equal(got[i].copies, want[i].copies) || !slices.Equal(got[i].conflicts, want[i].conflicts) {
			t.Errorf("discover(same names)[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// choose: "*" skips every folder of a conflicting name with a reason, a
// name that several differing folders answer to asks for a folder, and a
// folder path picks exactly that one.
func TestChooseSameName(t *testing.T) {
	found := []Found{
		{Name: "x", Path: ".claude/skills/x", Conflicts: []string{"skills/x"}},
		{Name: "x", Path: "skills/x", Conflicts: []string{".claude/skills/x"}},
		{Name: "z", Path: "skills/z"},
	}
	names := func(fs []Found) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Name+"@"+f.Path)
		}
		return out
	}
	got, skipped, err := choose(found, Ref{}, &Options{Skills: []string{"*"}})
	if err != nil || !slices.Equal(names(got), []string{"z@skills/z"}) || len(skipped) != 2 {
		t.Fatalf("choose(*) = %v, %+v, %v, want z and two skipped", names(got), skipped, err)
	}
	for i, p := range []string{".claude/skills/x", "skills/x"} {
		s := skipped[i]
		if s.Name != "x" || s.Path != p || s.Code != CodeSourceDuplicateSkill ||
			!strings.Contains(s.Reason, "2 folders offer a skill named x with different contents (.claude/skills/x, skills/x)") {
			t.Errorf("choose(*) skipped[%d] = %+v, want x at %s with %s naming both folders", i, s, p, CodeSourceDuplicateSkill)
		}
	}

	_, _, err = choose(found, Ref{}, &Options{Skills: []string{"x"}})
	e, ok := err.(*Error)
	if !ok || e.Code != CodeSourceDuplicateSkill || !strings.Contains(e.Message, `answer to "x", with different contents: .claude/skills/x, skills/x`) ||
		!slices.Equal(e.Try, []string{"--skill .claude/skills/x", "--skill skills/x"}) {
		t.Errorf("choose(x) = %+v, want %s listing both folders and one --skill per folder", err, CodeSourceDuplicateSkill)
	}
	if _, _, err := choose(found, Ref{Skill: "x"}, &Options{}); codeOf(err) != CodeSourceDuplicateSkill {
		t.Errorf("choose(owner/repo@x) = %v, want %s", err, CodeSourceDuplicateSkill)
	}

	for _, tc := range []struct {
		skills []string
		want   []string
		nskip  int
	}{
		{skills: []string{"skills/x"}, want: []string{"x@skills/x"}},
		{skills: []string{"z", ".claude/skills/x"}, want: []string{"z@skills/z", "x@.claude/skills/x"}},
		{skills: []string{"*", "skills/x"}, want: []string{"z@skills/z", "x@skills/x"}, nskip: 1},
	} {
		got, skipped, err := choose(found, Ref{}, &Options{Skills: tc.skills})
		if err != nil || !slices.Equal(names(got), tc.want) || len(skipped) != tc.nskip {
			t.Errorf("choose(%v) = %v, %d skipped, %v, want %v, %d skipped", tc.skills, names(got), len(skipped), err, tc.want, tc.nskip)
		}
	}
	// Both folders of one name cannot be installed side by side.
	if _, _, err := choose(found, Ref{}, &Options{Skills: []string{"skills/x", ".claude/skills/x"}}); codeOf(err) != CodeSourceDuplicateSkill {
		t.Errorf("choose(both folders of x) = %v, want %s", err, CodeSourceDuplicateSkill)
	}
	pickBoth := &Options{Interactive: true, Pick: func(fs []Found) ([]Found, error) { return fs[:2], nil }}
	if _, _, err := choose(found, Ref{}, pickBoth); codeOf(err) != CodeSourceDuplicateSkill {
		t.Errorf("choose(picked both folders of x) = %v, want %s", err, CodeSourceDuplicateSkill)
	}
	// A folder name shared by two skills of different names is ambiguous too.
	byDir := []Found{{Name: "one", Path: "a/tool"}, {Name: "two", Path: "b/tool"}}
	if _, _, err := choose(byDir, Ref{}, &Options{Skills: []string{"tool"}}); codeOf(err) != CodeSourceDuplicateSkill {
		t.Errorf("choose(tool, two folders called tool) = %v, want %s", err, CodeSourceDuplicateSkill)
	}
}

// synthManifest writes what yaml.v3 writes for its mapping, whether
// format.AppendYAML writes it (the common case, asserted) or yaml.v3 does:
// the bytes are digested into skills.lock, so they may never change.
func TestSynthManifestBytesAreYAMLv3s(t *testing.T) {
	cases := []struct {
		b    bareSkill
		v    string
		fast bool
	}{
		{bareSkill{name: "bench-kotlin-006", description: "Help a kotlin developer. Use when asked.", license: "Apache-2.0", files: []string{"scripts/", "SKILL.md", "references/"}}, "0.0.0-local-954fc45045ec", true},
		{bareSkill{name: "tricky", description: "Use when: a # b - c", files: []string{"SKILL.md"}}, "0.0.0-20260102030405-0123456789ab", true},
		{bareSkill{name: "tagged", description: "true", files: []string{"SKILL.md", "it's/"}}, "v2-beta", true},
		{bareSkill{name: "semver", description: "x", files: []string{"SKILL.md"}}, "1.0.0", true},
		{bareSkill{name: "dated", description: "x", files: []string{"SKILL.md"}}, "2026-01-02", false},
		{bareSkill{name: "folded", description: "two\nlines\n", files: []string{"SKILL.md"}}, "0.0.0-local-1", false},
		{bareSkill{name: "unicode", description: "caf\u00e9", files: []string{"SKILL.md"}}, "0.0.0-local-1", false},
	}
	for _, c := range cases {
		got, err := synthManifest(c.b, c.v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := encodeSynth(synthNode(c.b, c.v))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("synthManifest(%s) =\n%s\nwant (yaml.v3)\n%s", c.b.name, got, want)
		}
		if _, fast := format.AppendYAML(nil, synthNode(c.b, c.v)); fast != c.fast {
			t.Errorf("format.AppendYAML(synthNode(%s)) wrote it = %v, want %v", c.b.name, fast, c.fast)
		}
	}
}

// encodeSynth is synthManifest's header and m written by yaml.v3 alone,
// the reference synthManifest's bytes are held to.
func encodeSynth(m *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(synthHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
