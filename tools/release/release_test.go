package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

const fixtureVersions = `# the fixture's modules
module-sets:
  fixture:
    version: v0.0.0 # the placeholder
    modules:
      - github.com/agent-skills/agent-skills/a
      - github.com/agent-skills/agent-skills/b
excluded-modules:
  - github.com/agent-skills/agent-skills/tests/c
`

// fixture writes a tree of three modules: b requires a, the excluded c
// requires b (and a, indirectly), each with replace directives.
func fixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"versions.yaml":   fixtureVersions,
		"a/go.mod":        "module github.com/agent-skills/agent-skills/a\n\ngo 1.26.0\n",
		"a/a.go":          "package a\n\n// A is a.\nconst A = \"a\"\n",
		"a/nested/go.mod": "module example.com/nested\n\ngo 1.26.0\n",
		"a/nested/n.go":   "package nested\n",
		"b/go.mod": `module github.com/agent-skills/agent-skills/b

go 1.26.0

require (
	// a is the sibling.
	github.com/agent-skills/agent-skills/a v0.0.0
	golang.org/x/mod v0.42.0
)

replace github.com/agent-skills/agent-skills/a => ../a
`,
		"b/b.go": "package b\n\nimport \"github.com/agent-skills/agent-skills/a\"\n\n// B is b.\nconst B = a.A + \"b\"\n",
		"tests/c/go.mod": `module github.com/agent-skills/agent-skills/tests/c

go 1.26.0

require github.com/agent-skills/agent-skills/b v0.0.0

require github.com/agent-skills/agent-skills/a v0.0.0 // indirect

replace github.com/agent-skills/agent-skills/a => ../../a

replace github.com/agent-skills/agent-skills/b => ../../b
`,
	}
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func mustBump(t *testing.T, root, v string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-C", root, "bump", v}, &out, &errOut); code != 0 {
		t.Fatalf("bump %s: exit %d: %s", v, code, errOut.String())
	}
	return out.String()
}

func TestBump(t *testing.T) {
	root := fixture(t)
	out := mustBump(t, root, "0.3.0")
	wantOut := "bump b/go.mod: 1 requirement(s) -> v0.3.0\n" +
		"bump tests/c/go.mod: 2 requirement(s) -> v0.3.0\n" +
		"bump b/go.sum: the siblings' hashes at v0.3.0\n" +
		"bump versions.yaml: fixture v0.0.0 -> v0.3.0\n"
	if out != wantOut {
		t.Errorf("bump said:\n%s\nwant:\n%s", out, wantOut)
	}
	wantB := `module github.com/agent-skills/agent-skills/b

go 1.26.0

require (
	// a is the sibling.
	github.com/agent-skills/agent-skills/a v0.3.0
	golang.org/x/mod v0.42.0
)

replace github.com/agent-skills/agent-skills/a => ../a
`
	if got := read(t, root, "b/go.mod"); got != wantB {
		t.Errorf("b/go.mod:\n%s\nwant:\n%s", got, wantB)
	}
	c := read(t, root, "tests/c/go.mod")
	for _, want := range []string{
		"require github.com/agent-skills/agent-skills/b v0.3.0\n",
		"require github.com/agent-skills/agent-skills/a v0.3.0 // indirect\n",
		"replace github.com/agent-skills/agent-skills/b => ../../b\n",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("tests/c/go.mod lacks %q:\n%s", want, c)
		}
	}
	if got, want := read(t, root, "versions.yaml"), strings.Replace(fixtureVersions, "v0.0.0 #", "v0.3.0 #", 1); got != want {
		t.Errorf("versions.yaml:\n%s\nwant:\n%s", got, want)
	}
	if got := read(t, root, "a/go.mod"); got != "module github.com/agent-skills/agent-skills/a\n\ngo 1.26.0\n" {
		t.Errorf("a/go.mod, which requires no sibling, changed:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(root, "a", "go.sum")); !os.IsNotExist(err) {
		t.Errorf("a, which requires no sibling, got a go.sum: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "tests", "c", "go.sum")); !os.IsNotExist(err) {
		t.Errorf("the excluded c, which keeps its replace directives, got a go.sum: %v", err)
	}
	sumLine := regexp.MustCompile(`^github\.com/agent-skills/agent-skills/a v0\.3\.0 h1:[A-Za-z0-9+/]{43}=\n` +
		`github\.com/agent-skills/agent-skills/a v0\.3\.0/go\.mod h1:[A-Za-z0-9+/]{43}=\n$`)
	if got := read(t, root, "b/go.sum"); !sumLine.MatchString(got) {
		t.Errorf("b/go.sum:\n%s\nwant a's two lines at v0.3.0", got)
	}
	// Again: nothing to do, nothing said.
	if out := mustBump(t, root, "v0.3.0"); out != "" {
		t.Errorf("second bump said %q", out)
	}
	// And on to the next version.
	mustBump(t, root, "0.3.1-rc.1")
	if !strings.Contains(read(t, root, "b/go.mod"), "agent-skills/a v0.3.1-rc.1\n") {
		t.Error("the second bump did not move b's requirement")
	}
	if got := read(t, root, "b/go.sum"); strings.Contains(got, "v0.3.0") || strings.Count(got, "agent-skills/a v0.3.1-rc.1") != 2 {
		t.Errorf("b/go.sum after the second bump:\n%s\nwant a's two lines at v0.3.1-rc.1 only", got)
	}
}

func TestBumpRefuses(t *testing.T) {
	tests := []struct {
		name, file, data, want string
	}{
		{"released requires excluded", "b/go.mod",
			"module github.com/agent-skills/agent-skills/b\n\ngo 1.26.0\n\nrequire github.com/agent-skills/agent-skills/tests/c v0.0.0\n",
			"never tagged"},
		{"wrong module path", "a/go.mod", "module example.com/a\n\ngo 1.26.0\n", "versions.yaml says"},
		{"two module sets", "versions.yaml",
			"module-sets:\n  x:\n    version: v0.0.0\n    modules: [github.com/agent-skills/agent-skills/a]\n  y:\n    version: v0.0.0\n    modules: [github.com/agent-skills/agent-skills/b]\n",
			"exactly one module set"},
		{"module twice", "versions.yaml",
			"module-sets:\n  x:\n    version: v0.0.0\n    modules: [github.com/agent-skills/agent-skills/a]\nexcluded-modules: [github.com/agent-skills/agent-skills/a]\n",
			"listed twice"},
		{"foreign module", "versions.yaml",
			"module-sets:\n  x:\n    version: v0.0.0\n    modules: [example.com/a]\n",
			"not a module path under"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture(t)
			if err := os.WriteFile(filepath.Join(root, tt.file), []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"-C", root, "bump", "0.1.0"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), tt.want)
			}
		})
	}
}

func TestVersions(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"1.2.3", "v1.2.3", true},
		{"v0.1.0", "v0.1.0", true},
		{"0.0.1-check", "v0.0.1-check", true},
		{"1.0.0-rc.1", "v1.0.0-rc.1", true},
		{"1.2", "", false},           // not canonical
		{"v1", "", false},            // not canonical
		{"1.2.3+build.5", "", false}, // build metadata
		{"2.0.0", "", false},         // needs /v2 module paths
		{"0.0.0", "", false},         // the placeholder
		{"01.2.3", "", false},
		{"latest", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := normalizeVersion(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("normalizeVersion(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"bump"}, {"bump", "1.0.0", "x"}, {"proxy", "1.0.0"}, {"release", "1.0.0"}, {"tag", "--dry-run"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage:") {
			t.Errorf("run(%q) = %d, %q; want 2 and the usage", args, code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-C", fixture(t), "bump", "1.2"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not a semantic version") {
		t.Errorf("bump 1.2 = %d, %q", code, errOut.String())
	}
}

// gitRepo makes the fixture a git repository with one commit.
func gitRepo(t *testing.T, root string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"AUTHOR", "COMMITTER"} {
		t.Setenv("GIT_"+k+"_NAME", "Release Test")
		t.Setenv("GIT_"+k+"_EMAIL", "release@example.com")
	}
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-qm", "fixture")
}

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(context.Background(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func tagRun(root string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"-C", root, "tag"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestTag(t *testing.T) {
	root := fixture(t)
	gitRepo(t, root)

	// Not bumped: refused.
	if code, _, errOut := tagRun(root, "0.2.0"); code != 1 || !strings.Contains(errOut, "versions.yaml says v0.0.0, not v0.2.0") {
		t.Errorf("unbumped tree: exit %d, %q", code, errOut)
	}
	// Bumped but not committed: refused.
	mustBump(t, root, "0.2.0")
	if code, _, errOut := tagRun(root, "0.2.0"); code != 1 || !strings.Contains(errOut, "uncommitted changes") {
		t.Errorf("dirty tree: exit %d, %q", code, errOut)
	}
	gitRun(t, root, "add", "-A") // bump made b/go.sum
	gitRun(t, root, "commit", "-qm", "v0.2.0")
	head := gitRun(t, root, "rev-parse", "--short=12", "HEAD")
	// Not semver: refused before anything else.
	if code, _, errOut := tagRun(root, "0.2"); code != 1 || !strings.Contains(errOut, "not a semantic version") {
		t.Errorf("0.2: exit %d, %q", code, errOut)
	}
	// A dry run says what it would do and does nothing.
	code, out, errOut := tagRun(root, "--dry-run", "0.2.0")
	if want := "would make a release commit on " + head + ": 1 go.mod file(s) without replace directives\n" +
		"would tag a/v0.2.0 at the release commit\nwould tag b/v0.2.0 at the release commit\nwould tag v0.2.0 at the release commit\n"; code != 0 || out != want {
		t.Errorf("dry run: exit %d, %q (%s); want %q", code, out, errOut, want)
	}
	if tags := gitRun(t, root, "tag"); tags != "" {
		t.Errorf("the dry run made tags: %q", tags)
	}
	// The real thing: an annotated tag per released module, none for c,
	// and the release tag v0.2.0, all on a release commit whose go.mod
	// files have no replace directives.
	code, out, errOut = tagRun(root, "v0.2.0")
	rel := gitRun(t, root, "rev-parse", "--short=12", "a/v0.2.0^{commit}")
	if want := "release commit " + rel + ": HEAD with 1 go.mod file(s) without replace directives\n" +
		"tagged a/v0.2.0 at " + rel + "\ntagged b/v0.2.0 at " + rel + "\ntagged v0.2.0 at " + rel + "\n" +
		"push them with: git push origin a/v0.2.0 b/v0.2.0 v0.2.0\n"; code != 0 || out != want {
		t.Fatalf("tag: exit %d, %q (%s); want %q", code, out, errOut, want)
	}
	if tags := gitRun(t, root, "tag"); tags != "a/v0.2.0\nb/v0.2.0\nv0.2.0" {
		t.Errorf("tags = %q", tags)
	}
	for _, tg := range []string{"a/v0.2.0", "b/v0.2.0", "v0.2.0"} {
		if typ := gitRun(t, root, "cat-file", "-t", tg); typ != "tag" {
			t.Errorf("%s is a %s, not an annotated tag", tg, typ)
		}
		if got := gitRun(t, root, "rev-parse", "--short=12", tg+"^{commit}"); got != rel {
			t.Errorf("%s is at %s, not the release commit %s", tg, got, rel)
		}
	}
	for tg, want := range map[string]string{"b/v0.2.0": "github.com/agent-skills/agent-skills/b v0.2.0", "v0.2.0": "agent-skills v0.2.0"} {
		if got := gitRun(t, root, "tag", "-l", "--format=%(contents:subject) %(taggername) %(taggeremail)", tg); got != want+" Release Test <release@example.com>" {
			t.Errorf("%s: message and tagger %q, want %q and the committer", tg, got, want)
		}
	}
	// GoReleaser's lookup (scripts/dist.sh --release) finds the release
	// tag at the release commit, and only it.
	if got := gitRun(t, root, "describe", "--tags", "--exact-match", "--match", "v[0-9]*", rel); got != "v0.2.0" {
		t.Errorf("git describe of the release commit = %q, want v0.2.0", got)
	}
	if got := gitRun(t, root, "rev-parse", "--short=12", rel+"^"); got != head {
		t.Errorf("the release commit's parent is %s, not HEAD %s", got, head)
	}
	if got := gitRun(t, root, "rev-parse", "--short=12", "HEAD"); got != head {
		t.Errorf("HEAD moved to %s", got)
	}
	if st := gitRun(t, root, "status", "--porcelain"); st != "" {
		t.Errorf("tag left the work tree dirty: %q", st)
	}
	if b := gitRun(t, root, "show", "b/v0.2.0:b/go.mod"); strings.Contains(b, "replace") || !strings.Contains(b, "agent-skills/a v0.2.0") {
		t.Errorf("b/go.mod at the tag:\n%s", b)
	}
	if c := gitRun(t, root, "show", "b/v0.2.0:tests/c/go.mod"); !strings.Contains(c, "replace") {
		t.Errorf("the excluded module lost its replaces at the tag:\n%s", c)
	}
	if b := read(t, root, "b/go.mod"); !strings.Contains(b, "replace") {
		t.Errorf("the work tree's b/go.mod lost its replace:\n%s", b)
	}
	// Again: the tags exist, refused, and none is moved.
	gitRun(t, root, "commit", "-q", "--allow-empty", "-m", "later")
	if code, _, errOut := tagRun(root, "0.2.0"); code != 1 || !strings.Contains(errOut, "already exist: a/v0.2.0, b/v0.2.0, v0.2.0; no tag was created") {
		t.Errorf("existing tags: exit %d, %q", code, errOut)
	}
	for _, tg := range []string{"a/v0.2.0", "v0.2.0"} {
		if got := gitRun(t, root, "rev-parse", "--short=12", tg+"^{commit}"); got != rel {
			t.Errorf("%s moved to %s", tg, got)
		}
	}
}

// TestTagRefusesExistingReleaseTag: a release tag made by hand (a
// lightweight vX.Y.Z) is refused like a module tag, and no module tag is
// created beside it.
func TestTagRefusesExistingReleaseTag(t *testing.T) {
	root := fixture(t)
	gitRepo(t, root)
	mustBump(t, root, "0.3.0")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-qm", "v0.3.0")
	gitRun(t, root, "tag", "v0.3.0")
	code, out, errOut := tagRun(root, "0.3.0")
	if code != 1 || out != "" || !strings.Contains(errOut, "tag(s) already exist: v0.3.0; no tag was created") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and the existing v0.3.0", code, out, errOut)
	}
	if tags := gitRun(t, root, "tag"); tags != "v0.3.0" {
		t.Errorf("tags = %q, want only the hand-made v0.3.0", tags)
	}
}

// TestCreateTagsAllOrNone: a tag that appears between tag's check and the
// creation (another tagger, a fetch) fails the whole transaction; none of
// the others is left behind.
func TestCreateTagsAllOrNone(t *testing.T) {
	root := fixture(t)
	gitRepo(t, root)
	head := gitRun(t, root, "rev-parse", "HEAD")
	gitRun(t, root, "tag", "b/v0.4.0")
	tags := []releaseTag{{"a/v0.4.0", "a v0.4.0"}, {"b/v0.4.0", "b v0.4.0"}, {"v0.4.0", "agent-skills v0.4.0"}}
	err := createTags(context.Background(), root, head, tags)
	if err == nil || !strings.Contains(err.Error(), "no tag was created") {
		t.Errorf("createTags with b/v0.4.0 existing = %v, want a failure that created none", err)
	}
	if got := gitRun(t, root, "tag"); got != "b/v0.4.0" {
		t.Errorf("tags = %q, want only the one that existed", got)
	}
	// Without the clash, all of them, annotated.
	gitRun(t, root, "tag", "-d", "b/v0.4.0")
	if err := createTags(context.Background(), root, head, tags); err != nil {
		t.Fatal(err)
	}
	if got := gitRun(t, root, "tag"); got != "a/v0.4.0\nb/v0.4.0\nv0.4.0" {
		t.Errorf("tags = %q", got)
	}
}

// TestReleaseTagsOfThisRepository: the repository's own versions.yaml
// gives the tags a release needs: cli/vX.Y.Z, which `go install
// …/cli/cmd/agent-skills@vX.Y.Z` resolves, every other module's, and the
// release tag vX.Y.Z that scripts/dist.sh and GoReleaser build from, last.
func TestReleaseTagsOfThisRepository(t *testing.T) {
	r, err := loadRepo(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	got := tagList(r, "v0.2.0")
	want := []string{"format/v0.2.0", "scan/v0.2.0", "validate/v0.2.0", "resolve/v0.2.0", "agents/v0.2.0",
		"registry/v0.2.0", "scaffold/v0.2.0", "skills/v0.2.0", "cli/v0.2.0", "v0.2.0"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tagList(v0.2.0) = %q, want %q", got, want)
	}
}

func TestProxy(t *testing.T) {
	root := fixture(t)
	dir := filepath.Join(t.TempDir(), "proxy")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-C", root, "proxy", "0.4.0", dir}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "release bump v0.4.0") {
		t.Errorf("proxy of an unbumped tree: exit %d, %q", code, errOut.String())
	}
	mustBump(t, root, "0.4.0")
	r, err := loadRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	out.Reset()
	if err := proxy(context.Background(), r, "v0.4.0", dir, now, &out); err != nil {
		t.Fatal(err)
	}
	// Twice: the list holds the version once.
	if err := proxy(context.Background(), r, "v0.4.0", dir, now, &out); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"a", "b"} {
		path := repoPath + "/" + m
		vdir := filepath.Join(dir, filepath.FromSlash(path), "@v")
		if got := read(t, vdir, "list"); got != "v0.4.0\n" {
			t.Errorf("%s list = %q", m, got)
		}
		var info struct{ Version, Time string }
		if err := json.Unmarshal([]byte(read(t, vdir, "v0.4.0.info")), &info); err != nil || info.Version != "v0.4.0" || info.Time != "2026-12-02T10:00:00Z" {
			t.Errorf("%s info = %+v, %v", m, info, err)
		}
		want := strings.Replace(read(t, root, m+"/go.mod"), "\nreplace github.com/agent-skills/agent-skills/a => ../a\n", "", 1)
		if got := read(t, vdir, "v0.4.0.mod"); got != want {
			t.Errorf("%s .mod:\n%s\nwant go.mod without replace:\n%s", m, got, want)
		}
		mv := module.Version{Path: path, Version: "v0.4.0"}
		cf, err := zip.CheckZip(mv, filepath.Join(vdir, "v0.4.0.zip"))
		if err != nil {
			t.Fatalf("%s zip: %v", m, err)
		}
		if err := cf.Err(); err != nil {
			t.Errorf("%s zip: %v", m, err)
		}
		got := strings.Join(cf.Valid, " ")
		pre := mv.String() + "/"
		want = pre + m + ".go " + pre + "go.mod"
		if m == "b" {
			want += " " + pre + "go.sum" // bump wrote a's hashes
		}
		if got != want {
			t.Errorf("%s zip holds %q, want %q (nested modules left out)", m, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(repoPath), "tests")); !os.IsNotExist(err) {
		t.Errorf("the excluded module is in the proxy: %v", err)
	}

	// The go command reads it back.
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(gobin, "mod", "download", "-json", repoPath+"/b@v0.4.0")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(dir), "GONOSUMDB="+repoPath,
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"), "GOFLAGS=-modcacherw", "GOWORK=off", "GO111MODULE=on")
	data, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go mod download: %v\n%s", err, data)
	}
	var dl struct{ Version, Error, Sum string }
	if err := json.Unmarshal(data, &dl); err != nil || dl.Version != "v0.4.0" || dl.Error != "" || !strings.HasPrefix(dl.Sum, "h1:") {
		t.Errorf("go mod download: %+v, %v\n%s", dl, err, data)
	}
}

func TestReleaseGoModRefusesForeignReplace(t *testing.T) {
	root := fixture(t)
	b := read(t, root, "b/go.mod") + "\nreplace golang.org/x/mod => ../mod\n"
	if err := os.WriteFile(filepath.Join(root, "b/go.mod"), []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	// bump hashes b's zip with its go.mod as the tag holds it, so it
	// refuses the replace already, before proxy or tag would.
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"-C", root, "bump", "0.5.0"}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "replaces golang.org/x/mod, which is not in the module set") {
		t.Errorf("exit %d, %q", code, errOut.String())
	}
}

// TestReleaseGoSumBuilds: at the release tag, b builds as GoReleaser
// builds cli (GOWORK=off, -mod=readonly, its own go.sum) with a from the
// file proxy: bump wrote a's hashes into b/go.sum, and they are the hashes
// of what proxy serves. A byte of a changed after the bump is a checksum
// mismatch.
func TestReleaseGoSumBuilds(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := fixture(t)
	// b without its third-party requirement: no module cache needed.
	bmod := "module github.com/agent-skills/agent-skills/b\n\ngo 1.26.0\n\nrequire github.com/agent-skills/agent-skills/a v0.0.0\n\nreplace github.com/agent-skills/agent-skills/a => ../a\n"
	if err := os.WriteFile(filepath.Join(root, "b", "go.mod"), []byte(bmod), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRepo(t, root)
	mustBump(t, root, "0.6.0")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-qm", "v0.6.0")
	if code, _, errOut := tagRun(root, "0.6.0"); code != 0 {
		t.Fatalf("tag: exit %d: %s", code, errOut)
	}
	// The release tag checked out, as GoReleaser has it.
	checkout := filepath.Join(t.TempDir(), "checkout")
	gitRun(t, root, "worktree", "add", "-q", "--detach", checkout, "v0.6.0")
	sum := read(t, checkout, "b/go.sum")
	if strings.Contains(read(t, checkout, "b/go.mod"), "replace") {
		t.Fatalf("b/go.mod at the tag has a replace directive; the build would not use the proxy")
	}

	build := func(proxyDir string) (string, error) {
		cmd := exec.Command(gobin, "build", "./...")
		cmd.Dir = filepath.Join(checkout, "b")
		cmd.Env = append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(proxyDir), "GONOSUMDB="+repoPath,
			"GOPRIVATE=", "GONOPROXY=", "GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"),
			"GOFLAGS=-mod=readonly -modcacherw", "GOWORK=off", "GO111MODULE=on", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	r, err := loadRepo(root)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	good := filepath.Join(t.TempDir(), "proxy")
	if err := proxy(context.Background(), r, "v0.6.0", good, now, io.Discard); err != nil {
		t.Fatal(err)
	}
	// The zip proxy serves is the one b/go.sum names.
	zh, err := dirhash.HashZip(filepath.Join(good, filepath.FromSlash(repoPath), "a", "@v", "v0.6.0.zip"), dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	if want := repoPath + "/a v0.6.0 " + zh + "\n"; !strings.Contains(sum, want) {
		t.Errorf("b/go.sum at the tag:\n%s\nlacks the proxy's zip hash %q", sum, want)
	}
	if out, err := build(good); err != nil {
		t.Fatalf("GOWORK=off -mod=readonly build of b at the tag: %v\n%s\nb/go.sum:\n%s", err, out, sum)
	}

	// One byte of a changed after the bump: its zip no longer matches.
	a := read(t, root, "a/a.go")
	if err := os.WriteFile(filepath.Join(root, "a", "a.go"), []byte(strings.Replace(a, `"a"`, `"A"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "proxy")
	if err := proxy(context.Background(), r, "v0.6.0", bad, now, io.Discard); err != nil {
		t.Fatal(err)
	}
	if out, err := build(bad); err == nil || !strings.Contains(out, "checksum mismatch") {
		t.Errorf("build against a changed a: %v\n%s\nwant a checksum mismatch", err, out)
	}
}
