package gitrun

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// world is a private HOME with its own global git configuration, and the
// environment a Runner gets in the tests: nothing of the machine's git
// configuration reaches them.
type world struct {
	t      *testing.T
	root   string
	config string // the global git configuration file
	env    []string
}

// newWorld makes a world; it skips the test when git is not installed.
func newWorld(t *testing.T) *world {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	w := &world{t: t, root: root, config: filepath.Join(root, "home", ".gitconfig")}
	if err := os.MkdirAll(filepath.Dir(w.config), 0o755); err != nil {
		t.Fatal(err)
	}
	w.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Dir(w.config), "GIT_CONFIG_GLOBAL=" + w.config,
		"GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME=" + filepath.Join(root, "xdg")}
	return w
}

// path returns a path under the world's root.
func (w *world) path(name string) string { return filepath.Join(w.root, filepath.FromSlash(name)) }

// git runs git for set-up, with the world's configuration plus a fixed
// identity, and returns its trimmed output.
func (w *world) git(dir string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// write writes files under dir.
func (w *world) write(dir string, files map[string]string) {
	w.t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			w.t.Fatal(err)
		}
	}
}

// repo commits files into a new repository and returns a bare clone's
// path and the commit. Set-up commits bytes as they are: the world's
// attributes are neutralised for the commit.
func (w *world) repo(name string, files map[string]string) (string, string) {
	w.t.Helper()
	src := w.path("src/" + name)
	if err := os.MkdirAll(src, 0o755); err != nil {
		w.t.Fatal(err)
	}
	w.git(src, "init", "-q")
	// A literal, not Attributes: the set-up must not depend on the code
	// under test.
	w.write(src, map[string]string{".git/info/attributes": "* -filter -text -eol -ident -working-tree-encoding\n"})
	w.write(src, files)
	w.git(src, "add", "-A")
	w.git(src, "commit", "-q", "-m", "x")
	bare := w.path("bare/" + name + ".git")
	w.git(w.root, "clone", "-q", "--bare", src, bare)
	return bare, w.git(src, "rev-parse", "HEAD")
}

// setConfig appends lines to the world's global git configuration.
func (w *world) setConfig(lines string) {
	w.t.Helper()
	f, err := os.OpenFile(w.config, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		w.t.Fatal(err)
	}
}

// runner makes a Runner for url in a new folder.
func (w *world) runner(url string, opts Options) *Runner {
	w.t.Helper()
	opts.URL, opts.Env = url, w.env
	if opts.Dir == "" {
		opts.Dir = w.t.TempDir()
	}
	r, err := New(opts)
	if err != nil {
		w.t.Fatalf("New(%q) = %v", url, err)
	}
	return r
}

// fetchCheckout does what every caller does: init, fetch ref, check out.
func fetchCheckout(ctx context.Context, r *Runner, ref string) error {
	if err := r.Init(ctx); err != nil {
		return err
	}
	if _, err := r.Run(ctx, "fetch", "-q", "--depth", "1", "--no-tags", "--end-of-options", r.URL(), ref); err != nil {
		return err
	}
	commit, err := r.Resolve(ctx, "FETCH_HEAD")
	if err != nil {
		return err
	}
	return r.Checkout(ctx, commit)
}

// marker returns a path that must never appear, and a shell command that
// creates it.
func (w *world) marker(name string) (string, string) {
	p := w.path("markers/" + name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return p, "touch " + p
}

// noMarkers fails the test for every marker that appeared.
func (w *world) noMarkers() {
	w.t.Helper()
	found, _ := filepath.Glob(w.path("markers/*"))
	for _, m := range found {
		w.t.Errorf("%s was created: a command from the repository or its configuration ran", filepath.Base(m))
	}
}

// An option-like branch name advertised by a server is refused by
// PickDefault, and even when passed to fetch after --end-of-options it is
// a refspec git cannot find, never --upload-pack.
func TestOptionLikeRefRunsNothing(t *testing.T) {
	w := newWorld(t)
	bare, sha := w.repo("evil", map[string]string{"SKILL.md": "x\n"})
	_, cmd := w.marker("upload-pack")
	hostile := "--upload-pack=" + strings.ReplaceAll(cmd, " ", "${IFS}") + ";git-upload-pack"
	os.RemoveAll(filepath.Join(bare, "refs", "heads"))
	os.MkdirAll(filepath.Join(bare, "refs", "heads"), 0o755)
	w.write(bare, map[string]string{"packed-refs": sha + " refs/heads/" + hostile + "\n"})
	_, metaCmd := w.marker("metachar")
	ctx := context.Background()
	r := w.runner("file://"+bare, Options{})
	if err := r.Init(ctx); err != nil {
		t.Fatal(err)
	}
	heads, err := r.Heads(ctx, r.URL())
	if err != nil || len(heads) != 1 || heads[0] != hostile {
		t.Fatalf("Heads() = %q, %v, want the hostile branch", heads, err)
	}
	var re *RefError
	if b, err := PickDefault(heads); !errors.As(err, &re) || b != "" || !strings.Contains(err.Error(), "--upload-pack") {
		t.Errorf("PickDefault(%q) = %q, %v, want a *RefError naming it", heads, b, err)
	}
	for _, ref := range []string{hostile, "refs/heads/" + hostile, "-ccore.fsmonitor=" + metaCmd, "$(" + metaCmd + ")", "`" + metaCmd + "`", "x;" + metaCmd} {
		// After --end-of-options the name is a refspec: fetching it may
		// fail or, for the branch that exists, succeed; nothing runs.
		_, _ = r.Run(ctx, "fetch", "-q", "--no-tags", "--end-of-options", r.URL(), ref)
		if _, err := r.Run(ctx, "rev-parse", "--verify", "-q", "--end-of-options", ref); err == nil {
			t.Errorf("rev-parse --end-of-options %q succeeded, want no such revision", ref)
		}
		if _, err := r.Run(ctx, "ls-remote", "--end-of-options", r.URL(), ref); err != nil {
			t.Errorf("ls-remote --end-of-options %q = %v, want a pattern search", ref, err)
		}
	}
	w.noMarkers()
}

// A .gitattributes naming filter drivers the user configured (as git-lfs
// does) runs none of them during a checkout, and the bytes checked out
// are the committed ones: no eol conversion, no $Id$ expansion, no
// re-encoding, whatever the user's core.autocrlf.
func TestCheckoutRunsNoAttributeDriver(t *testing.T) {
	w := newWorld(t)
	files := map[string]string{
		".gitattributes": "[attr]lfsish filter=evil text eol=crlf ident\n*.md lfsish\n*.txt filter=proc working-tree-encoding=UTF-16 text eol=crlf\n" +
			"*.bin diff=evil merge=evil\n",
		"SKILL.md":  "line one\nsays $Id$\n",
		"notes.txt": "crlf\r\nand lf\n",
		"data.bin":  "\x00\x01",
	}
	bare, _ := w.repo("attrs", files)
	_, smudge := w.marker("smudge")
	_, clean := w.marker("clean")
	_, process := w.marker("process")
	_, textconv := w.marker("textconv")
	w.setConfig("[filter \"evil\"]\n\tsmudge = sh -c '" + smudge + " && cat'\n\tclean = sh -c '" + clean + " && cat'\n\trequired = true\n" +
		"[filter \"proc\"]\n\tprocess = sh -c '" + process + "'\n\trequired = true\n" +
		"[diff \"evil\"]\n\ttextconv = sh -c '" + textconv + " && cat'\n" +
		"[core]\n\tautocrlf = true\n\tattributesFile = " + w.path("global-attributes") + "\n")
	w.write(w.root, map[string]string{"global-attributes": "* filter=evil\n"})
	r := w.runner("file://"+bare, Options{})
	ctx := context.Background()
	if err := fetchCheckout(ctx, r, "HEAD"); err != nil {
		t.Fatalf("fetch and checkout = %v", err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(r.Dir(), name))
		if err != nil || string(got) != want {
			t.Errorf("checked-out %s = %q, %v, want the committed bytes %q", name, got, err, want)
		}
	}
	// The work tree is clean to git too (a status runs the clean filter
	// when attributes ask for it).
	if out, err := r.Run(ctx, "status", "--porcelain"); err != nil || out != "" {
		t.Errorf("status = %q, %v, want a clean tree", out, err)
	}
	w.noMarkers()
}

// A cached clone made before Protect existed is protected again by
// Checkout.
func TestCheckoutProtectsAnOldClone(t *testing.T) {
	w := newWorld(t)
	bare, sha := w.repo("old", map[string]string{".gitattributes": "* filter=evil\n", "a.md": "a\n"})
	_, smudge := w.marker("smudge")
	w.setConfig("[filter \"evil\"]\n\tsmudge = sh -c '" + smudge + " && cat'\n")
	dir := t.TempDir()
	w.git(dir, "init", "-q")
	r := w.runner("file://"+bare, Options{Dir: dir})
	ctx := context.Background()
	if _, err := r.Run(ctx, "fetch", "-q", "--end-of-options", r.URL(), "HEAD"); err != nil {
		t.Fatal(err)
	}
	if err := r.Checkout(ctx, sha); err != nil {
		t.Fatalf("Checkout() = %v", err)
	}
	w.noMarkers()
	if err := r.Checkout(ctx, "FETCH_HEAD"); err == nil {
		t.Errorf("Checkout(FETCH_HEAD) = nil, want a refusal of a name that is not a commit id")
	}
}

// Hooks, the file-system monitor, templates and submodules named by the
// user's configuration or by the repository run nothing.
func TestNothingRunsFromConfigOrRepository(t *testing.T) {
	w := newWorld(t)
	_, subSHA := w.repo("sub", map[string]string{"x": "x\n"})
	_, hookCmd := w.marker("hook")
	_, fsmonCmd := w.marker("fsmonitor")
	_, tmplCmd := w.marker("template-hook")
	_, updCmd := w.marker("submodule-update")
	_, extCmd := w.marker("submodule-ext")
	hooks := w.path("hooks")
	tmpl := w.path("templates")
	for _, h := range []string{"post-checkout", "reference-transaction", "pre-auto-gc", "post-index-change"} {
		w.write(hooks, map[string]string{h: "#!/bin/sh\n" + hookCmd + "\n"})
		w.write(tmpl, map[string]string{"hooks/" + h: "#!/bin/sh\n" + tmplCmd + "\n"})
	}
	w.write(w.root, map[string]string{"fsmonitor.sh": "#!/bin/sh\n" + fsmonCmd + "\n"})
	// The repository: a gitlink and a .gitmodules whose URL runs a command
	// (ext::) and whose update is a shell command.
	src := w.path("src/withsub")
	os.MkdirAll(src, 0o755)
	w.git(src, "init", "-q")
	w.write(src, map[string]string{"SKILL.md": "s\n", ".gitmodules": "[submodule \"x\"]\n\tpath = x\n\turl = ext::sh -c " +
		strings.ReplaceAll(extCmd, " ", "% ") + "\n\tupdate = !" + updCmd + "\n"})
	w.git(src, "add", "-A")
	w.git(src, "update-index", "--add", "--cacheinfo", "160000,"+subSHA+",x")
	w.git(src, "commit", "-q", "-m", "sub")
	bare := w.path("bare/withsub.git")
	w.git(w.root, "clone", "-q", "--bare", src, bare)

	w.setConfig("[core]\n\thooksPath = " + hooks + "\n\tfsmonitor = " + w.path("fsmonitor.sh") + "\n" +
		"[init]\n\ttemplateDir = " + tmpl + "\n" +
		"[submodule]\n\trecurse = true\n[fetch]\n\trecurseSubmodules = yes\n" +
		"[protocol \"ext\"]\n\tallow = always\n[protocol]\n\tallow = always\n")
	r := w.runner("file://"+bare, Options{})
	ctx := context.Background()
	if err := fetchCheckout(ctx, r, "HEAD"); err != nil {
		t.Fatalf("fetch and checkout = %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(r.Dir(), "x")); len(ents) != 0 {
		t.Errorf("submodule x was checked out: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), ".git", "hooks")); err == nil {
		t.Errorf("the repository got a hooks folder from the templates")
	}
	w.noMarkers()
}

// ext:: and fd:: never reach git, and the command-line protocol policy
// outranks the user's: an https remote that the user's insteadOf turns
// into a file path is refused, since only the remote's own protocol
// family is allowed.
func TestProtocolPolicy(t *testing.T) {
	w := newWorld(t)
	_, extCmd := w.marker("ext")
	w.setConfig("[protocol]\n\tallow = always\n[protocol \"ext\"]\n\tallow = always\n")
	for _, u := range []string{"ext::sh -c " + strings.ReplaceAll(extCmd, " ", "% "), "fd::0", "-uhttps://x"} {
		var ue *URLError
		if _, err := New(Options{URL: u, Env: w.env}); !errors.As(err, &ue) {
			t.Errorf("New(%q) = %v, want a *URLError", u, err)
		}
	}
	bare, _ := w.repo("local", map[string]string{"a": "a\n"})
	w.setConfig("[url \"" + bare + "\"]\n\tinsteadOf = https://example.invalid/repo.git\n[protocol \"file\"]\n\tallow = always\n")
	r := w.runner("https://example.invalid/repo.git", Options{})
	err := fetchCheckout(context.Background(), r, "HEAD")
	var ce *CommandError
	if !errors.As(err, &ce) || !strings.Contains(ce.Stderr, "not allowed") {
		t.Errorf("fetch(https rewritten to a file path) = %v, want transport 'file' not allowed", err)
	}
	w.noMarkers()
}

// Standard output is capped, a slow command times out, and a folder
// growing past MaxBytes stops the command.
func TestLimits(t *testing.T) {
	w := newWorld(t)
	big := strings.Repeat("0123456789abcdef", 1<<16)
	bare, sha := w.repo("big", map[string]string{"a": big + "a", "b": big + "b", "c": big + "c"})
	ctx := context.Background()

	r := w.runner("file://"+bare, Options{MaxOutput: 1024})
	if _, err := r.Run(ctx, "--git-dir="+bare, "cat-file", "blob", sha+":a"); !errors.Is(err, ErrOutputTooLarge) {
		t.Errorf("cat-file of 1 MiB with MaxOutput 1 KiB = %v, want ErrOutputTooLarge", err)
	}

	// A checkout past the cap is seen once the command is done …
	r = w.runner("file://"+bare, Options{MaxBytes: 64 << 10})
	if err := fetchCheckout(ctx, r, "HEAD"); !errors.Is(err, ErrTooLarge) && !r.TooLarge() {
		t.Errorf("fetch of 3 MiB with MaxBytes 64 KiB = %v, TooLarge() = false, want ErrTooLarge", err)
	}
	// … and a command still writing is stopped.
	r = w.runner("", Options{MaxBytes: 64 << 10})
	start := time.Now()
	_, err := r.Run(ctx, "-c", "alias.grow=!head -c 1000000 /dev/zero > big; exec sleep 20 >/dev/null 2>&1", "grow")
	if !errors.Is(err, ErrTooLarge) || time.Since(start) > 15*time.Second {
		t.Errorf("a command writing 1 MB with MaxBytes 64 KiB = %v after %v, want ErrTooLarge at once", err, time.Since(start))
	}

	// ssh that never answers (it holds git's pipes, not ours).
	env := append([]string{"GIT_SSH_COMMAND=sh -c 'exec sleep 30 2>/dev/null'"}, w.env...)
	r, err = New(Options{URL: "ssh://example.invalid/x.git", Env: env, Dir: t.TempDir(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	_, err = r.Run(ctx, "ls-remote", "--end-of-options", r.URL())
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 15*time.Second {
		t.Errorf("ls-remote against a server that never answers = %v after %v, want a timeout", err, time.Since(start))
	}
}

// Errors never carry a secret (a token the caller names, a URL's
// password), and configuration passed through the environment reaches git
// without a command line.
func TestErrorsAreScrubbed(t *testing.T) {
	w := newWorld(t)
	const token = "tok-secret-9a8b7c"
	missing := w.path("nowhere/" + token + "/x.git")
	header := "Authorization: Bearer " + token
	r := w.runner("file://"+missing, Options{Secrets: []string{token}, Config: []Config{{Key: "http.extraHeader", Value: header}}})
	ctx := context.Background()
	if got, err := r.Run(ctx, "config", "--get", "http.extraHeader"); err != nil || strings.TrimSpace(got) != header {
		t.Errorf("config --get http.extraHeader = %q, %v, want the header passed through the environment", got, err)
	}
	err := fetchCheckout(ctx, r, "HEAD")
	var ce *CommandError
	if !errors.As(err, &ce) || strings.Contains(err.Error(), token) || strings.Contains(ce.Stderr, token) || !strings.Contains(ce.Stderr, "***") {
		t.Errorf("fetch error = %v, want a CommandError with the token scrubbed", err)
	}
	if _, err := New(Options{URL: "ext::https://alice:" + token + "@host/x", Env: w.env}); err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("New(ext with password) = %v, want a refusal without the password", err)
	}
}

func TestNotInstalled(t *testing.T) {
	if _, err := New(Options{Git: "no-such-git-binary-for-agent-skills"}); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("New(missing git) = %v, want ErrNotInstalled", err)
	}
}

func TestSubcommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"fetch", "-q"}, "fetch"},
		{[]string{"-c", "user.useConfigOnly=true", "commit", "-m", "x"}, "commit"},
		{[]string{"--git-dir=/x", "cat-file", "blob"}, "cat-file"},
		{nil, "git"},
	} {
		if got := subcommand(tt.args); got != tt.want {
			t.Errorf("subcommand(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
