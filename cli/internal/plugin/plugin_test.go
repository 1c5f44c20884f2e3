package plugin

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// collection is a small collection: two skills (one with an executable
// script and a reference) and a command.
func collection(t *testing.T) *Collection {
	t.Helper()
	fsys := fstest.MapFS{
		"alpha/SKILL.md":           {Data: []byte("---\nname: alpha\ndescription: Alpha does the first thing. Use when a test needs it.\nlicense: MIT\n---\n# Alpha\n")},
		"alpha/scripts/run.sh":     {Data: []byte("#!/bin/sh\necho alpha\n"), Mode: 0o755},
		"alpha/references/more.md": {Data: []byte("More.\n")},
		"beta/SKILL.md":            {Data: []byte("---\nname: beta\ndescription: Beta does the second thing. Use when a test needs it.\nlicense: MIT\n---\n# Beta\n")},
		"fix/skill.yaml":           {Data: []byte("name: fix\nkind: command\nversion: 1.0.0\ndescription: Fix it.\nlicense: MIT\nfiles: [COMMAND.md]\n")},
		"fix/COMMAND.md":           {Data: []byte("---\ndescription: Fix it.\n---\nFix.\n")},
	}
	c, err := LoadCollection(fsys, validate.Options{Gate: validate.GateDefault})
	if err != nil {
		t.Fatalf("LoadCollection = %v", err)
	}
	return c
}

func TestLoadCollection(t *testing.T) {
	c := collection(t)
	if len(c.Skills) != 2 || c.Skills[0].Name != "alpha" || c.Skills[1].Name != "beta" {
		t.Fatalf("Skills = %+v, want alpha and beta", c.Skills)
	}
	if strings.Join(c.Left, ",") != "fix (command)" {
		t.Errorf("Left = %q, want [fix (command)]", c.Left)
	}
	var paths []string
	for _, f := range c.Skills[0].Files {
		paths = append(paths, f.Path)
		if f.Exec != (f.Path == "scripts/run.sh") {
			t.Errorf("%s: Exec = %v", f.Path, f.Exec)
		}
	}
	if got := strings.Join(paths, ","); got != "SKILL.md,references/more.md,scripts/run.sh" {
		t.Errorf("alpha's files = %s", got)
	}
	if c.Skills[0].License != "MIT" {
		t.Errorf("License = %q, want MIT", c.Skills[0].License)
	}
}

func TestBuildDeterministicAndByteForByte(t *testing.T) {
	c := collection(t)
	o := Options{Name: "demo", MCP: true, Hooks: true}
	a, err := Build(c, o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Build(c, o)
	if len(a.Files) != len(b.Files) {
		t.Fatalf("two builds: %d and %d files", len(a.Files), len(b.Files))
	}
	for i := range a.Files {
		if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			t.Errorf("two builds differ at %s", a.Files[i].Path)
		}
		if i > 0 && a.Files[i-1].Path >= a.Files[i].Path {
			t.Errorf("files not sorted: %s before %s", a.Files[i-1].Path, a.Files[i].Path)
		}
		if json.Valid(a.Files[i].Data) != strings.HasSuffix(a.Files[i].Path, ".json") {
			t.Errorf("%s: valid JSON = %v", a.Files[i].Path, !strings.HasSuffix(a.Files[i].Path, ".json"))
		}
	}
	got := map[string]File{}
	for _, f := range a.Files {
		got[f.Path] = f
	}
	run := got["plugins/demo/skills/alpha/scripts/run.sh"]
	if !run.Exec || string(run.Data) != "#!/bin/sh\necho alpha\n" {
		t.Errorf("the script = %+v, want its bytes, executable", run)
	}
	for _, p := range []string{".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json",
		"plugins/demo/.claude-plugin/plugin.json", "plugins/demo/.codex-plugin/plugin.json", "plugins/demo/plugin.json",
		"plugins/demo/hooks/hooks.json", "plugins/demo/hooks/codex.json", "plugins/demo/hooks/copilot.json", "plugins/demo/.mcp.json"} {
		if _, ok := got[p]; !ok {
			t.Errorf("Build(all hosts) has no %s", p)
		}
	}
	if _, ok := got["plugins/demo/skills/fix/COMMAND.md"]; ok {
		t.Error("Build shipped a command")
	}
	// Codex fails a hook whose output carries both envelopes, so its
	// hooks file must run the session index as codex.
	if !bytes.Contains(got["plugins/demo/hooks/codex.json"].Data, []byte("--host codex")) {
		t.Errorf("codex hooks = %s", got["plugins/demo/hooks/codex.json"].Data)
	}
}

func TestReadmeWords(t *testing.T) {
	c := &Collection{Skills: []Skill{{Name: "x", Description: "X."}}}
	for _, sub := range []bool{false, true} {
		o, _ := Options{Name: "p", Hosts: []Host{Claude}}.resolve(c)
		if n := len(strings.Fields(string(readme(c, o, sub)))); n < 40 {
			t.Errorf("readme(submission=%v) has %d words, want at least 40", sub, n)
		}
	}
}

func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"plain words":             "plain words",
		"<img src=x onerror=y>":   `\<img src=x onerror=y\>`,
		"[link](http://x) *b*":    `\[link\](http://x) \*b\*`,
		"two\nlines\x1b[31m here": `two lines \[31m here`,
	} {
		if got := markdownText(in); got != want {
			t.Errorf("markdownText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIcon(t *testing.T) {
	a, b := Icon("demo"), Icon("demo")
	if !bytes.Equal(a, b) {
		t.Fatal("Icon(demo) twice gave different bytes")
	}
	if bytes.Equal(a, Icon("other")) {
		t.Error("Icon(demo) = Icon(other)")
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatalf("Icon is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 512 || r.Dy() != 512 {
		t.Errorf("Icon is %dx%d, want 512x512", r.Dx(), r.Dy())
	}
	if len(a) > 2<<20 {
		t.Errorf("Icon is %d bytes, over 2 MB", len(a))
	}
}

func TestSubmissionZip(t *testing.T) {
	c := collection(t)
	tr, err := Submission(c, Options{Name: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(tr.Stripped, ";") != "skills/alpha/scripts/run.sh: executable" {
		t.Errorf("Stripped = %q", tr.Stripped)
	}
	z1, err := tr.Zip()
	if err != nil {
		t.Fatal(err)
	}
	tr2, _ := Submission(c, Options{Name: "demo"})
	z2, _ := tr2.Zip()
	if !bytes.Equal(z1, z2) {
		t.Fatal("two submissions gave different ZIP bytes")
	}
	r, err := zip.NewReader(bytes.NewReader(z1), int64(len(z1)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
		if !f.Modified.Equal(time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: modified %v", f.Name, f.Modified)
		}
		if f.Mode() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", f.Name, f.Mode())
		}
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		for _, tf := range tr.Files {
			if tf.Path == f.Name && !bytes.Equal(tf.Data, data) {
				t.Errorf("%s: ZIP bytes differ from the folder's", f.Name)
			}
		}
	}
	want := ".claude-plugin/icon.png,.claude-plugin/plugin.json,README.md,skills/alpha/SKILL.md,skills/alpha/references/more.md,skills/beta/SKILL.md"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("ZIP entries = %s\nwant %s", got, want)
	}
}

func TestSubmissionRefusesHooks(t *testing.T) {
	c := collection(t)
	c.Skills[1].Hooks = true
	_, err := Submission(c, Options{Name: "demo"})
	if askerr.CodeOf(err) != CodeNotInert {
		t.Errorf("Submission(a skill with hooks) = %v, want %s", err, CodeNotInert)
	}
}

func TestLoadCollectionRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "c", "alpha"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "c", "alpha", "SKILL.md"), []byte("---\nname: alpha\ndescription: Alpha. Use when testing.\n---\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "secret"), []byte("secret"), 0o644))
	must(os.Symlink("../../secret", filepath.Join(dir, "c", "alpha", "s.md")))
	_, err := LoadCollection(os.DirFS(filepath.Join(dir, "c")), validate.Options{Gate: validate.GateDefault})
	if askerr.CodeOf(err) != format.CodePackageUnsafeFile {
		t.Errorf("LoadCollection(a link out) = %v, want %s", err, format.CodePackageUnsafeFile)
	}
}

func TestWriteDirForce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	show := func(s string) string { return s }
	tr := Tree{Files: []File{{Path: "a/b.txt", Data: []byte("b")}, {Path: "run", Data: []byte("#!"), Exec: true}}}
	if err := WriteDir(out, tr, false, show); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(out, tr, false, show); askerr.CodeOf(err) != CodeTargetExists {
		t.Errorf("WriteDir(not empty) = %v, want %s", err, CodeTargetExists)
	}
	if err := os.WriteFile(filepath.Join(out, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(out, tr, true, show); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "old")); !os.IsNotExist(err) {
		t.Errorf("--force kept the old folder's file: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(out, "run")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run: %v %v, want executable", fi, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside out: %v, want nothing", names)
	}
}
