package publish

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
)

// TestInitFolder: registry init writes an index that decodes with the
// registry's name and no skills, into a new folder or an existing one
// without an index; an existing registry is refused and left as it was.
func TestInitFolder(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	for _, dir := range []string{filepath.Join(base, "new", "reg"), filepath.Join(base, "existing")} {
		if strings.HasSuffix(dir, "existing") {
			writeFile(t, filepath.Join(dir, "README.md"), "kept\n")
		}
		res, err := Init(ctx, InitOptions{Dir: dir, Name: "team"})
		if err != nil {
			t.Fatalf("Init(%s) = %v", dir, err)
		}
		if res.Path != dir || res.Index != IndexFile || res.Commit != "" {
			t.Errorf("Init(%s) = %+v", dir, res)
		}
		idx := readIndex(t, dir)
		if idx.SchemaVersion != 1 || idx.Name != "team" || len(idx.Skills) != 0 {
			t.Errorf("Init(%s): index = schemaVersion %d, name %q, %d skills; want 1, team, none", dir, idx.SchemaVersion, idx.Name, len(idx.Skills))
		}
	}
	if data, err := os.ReadFile(filepath.Join(base, "existing", "README.md")); err != nil || string(data) != "kept\n" {
		t.Errorf("Init changed a file that was there: %q, %v", data, err)
	}
	before, _ := os.ReadFile(filepath.Join(base, "existing", IndexFile))
	_, err := Init(ctx, InitOptions{Dir: filepath.Join(base, "existing"), Name: "other"})
	if askerr.CodeOf(err) != CodeTargetExists {
		t.Errorf("Init(a registry) = %v, want %s", err, CodeTargetExists)
	}
	if after, _ := os.ReadFile(filepath.Join(base, "existing", IndexFile)); string(after) != string(before) {
		t.Errorf("Init(a registry) changed its index:\n%s", after)
	}
	if _, err := Init(ctx, InitOptions{Dir: filepath.Join(base, "x"), Name: "Not A Name"}); askerr.CodeOf(err) != askerr.CodeUsage {
		t.Errorf("Init(bad name) = %v, want %s", err, askerr.CodeUsage)
	}
	// Publishing into it works as into any registry folder.
	publishTo(t, filepath.Join(base, "new", "reg"), writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	if idx := readIndex(t, filepath.Join(base, "new", "reg")); idx.Name != "team" || len(idx.Skills) != 1 {
		t.Errorf("after publish: index name %q with %d skills, want team with 1", idx.Name, len(idx.Skills))
	}
}

// TestInitGit: with Git, the registry is a git repository on main whose
// one commit holds the index and a .gitattributes that stops line-ending
// conversion, and a git registry reading it sees the empty index.
func TestInitGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env := gitEnv(t, testIdentity)
	ctx := context.Background()
	for _, dir := range []string{filepath.Join(t.TempDir(), "reg"), t.TempDir()} { // new, and empty
		res, err := Init(ctx, InitOptions{Dir: dir, Name: "team", Git: true, Env: env})
		if err != nil {
			t.Fatalf("Init(%s, git) = %v", dir, err)
		}
		if res.Branch != "main" || len(res.Commit) < 40 {
			t.Errorf("Init(git) = %+v, want branch main and a commit id", res)
		}
		if got := runGit(t, env, dir, "rev-parse", "HEAD"); got != res.Commit {
			t.Errorf("HEAD = %s, want %s", got, res.Commit)
		}
		if files := runGit(t, env, dir, "ls-tree", "-r", "--name-only", "HEAD"); files != ".gitattributes\n"+IndexFile {
			t.Errorf("the first commit holds %q, want .gitattributes and %s", files, IndexFile)
		}
		if got := runGit(t, env, dir, "log", "--format=%an <%ae> %s"); got != "Test Publisher <publisher@example.com> Start the team registry" {
			t.Errorf("the first commit is %q", got)
		}
		if status := runGit(t, env, dir, "status", "--porcelain"); status != "" {
			t.Errorf("the work tree is not clean: %q", status)
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("the registry folder's mode is %v, %v; want 0755", fi.Mode(), err)
		}
		reg, err := registry.Open(registry.Spec{Name: "team", URL: "file://" + dir, Kind: registry.KindGit, Ref: "main"},
			registry.Options{CacheDir: t.TempDir(), GitEnv: append(os.Environ(), env...)})
		if err != nil {
			t.Fatal(err)
		}
		idx, err := reg.Index(ctx)
		if err != nil || idx.Name != "team" || len(idx.Skills) != 0 {
			t.Errorf("the git registry's index = %+v, %v", idx, err)
		}
	}
	notEmpty := t.TempDir()
	writeFile(t, filepath.Join(notEmpty, "x"), "x")
	if _, err := Init(ctx, InitOptions{Dir: notEmpty, Name: "team", Git: true, Env: env}); askerr.CodeOf(err) != CodeTargetExists {
		t.Errorf("Init(git, a folder with files) = %v, want %s", err, CodeTargetExists)
	}
}

// TestInitGitFailureLeavesNothing: without a git identity the commit
// cannot be made: ASK_PUBLISH_GIT_IDENTITY, and neither the folder nor a
// staging folder is left.
func TestInitGitFailureLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	env := gitEnv(t, "")
	base := t.TempDir()
	_, err := Init(context.Background(), InitOptions{Dir: filepath.Join(base, "reg"), Name: "team", Git: true, Env: env})
	if askerr.CodeOf(err) != CodePublishGitIdentity {
		t.Fatalf("Init(git, no identity) = %v, want %s", err, CodePublishGitIdentity)
	}
	if ents, _ := os.ReadDir(base); len(ents) != 0 {
		t.Errorf("Init left %v behind", ents)
	}
}
