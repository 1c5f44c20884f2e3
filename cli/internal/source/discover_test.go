package source

import (
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
		{name: "agent folders", fsys: fstest.MapFS{".agents/skills/a/SKILL.md": md("a"), ".codex/skills/b/SKILL.md": md("b"),
			".github/skills/c/SKILL.md": md("c"), ".hidden/d/SKILL.md": md("d"), "node_modules/e/SKILL.md": md("e")},
			want: []string{"a@.agents/skills/a", "b@.codex/skills/b", "c@.github/skills/c"}},
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
