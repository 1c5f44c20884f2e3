package source

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/agent-skills/agent-skills/registry"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultMaxBytes is the size cap of a clone (objects and work tree
// together) when Options.MaxBytes is zero: 200 MiB.
const DefaultMaxBytes = 200 << 20

// gitTimeout bounds one git command when the caller's context has no
// deadline.
const gitTimeout = 5 * time.Minute

// checkout is a fetched commit in a work folder.
type checkout struct {
	dir    string    // the work tree
	commit string    // full SHA
	time   time.Time // commit time, UTC
}

// gitRunner runs git for one source in one work folder.
type gitRunner struct {
	git     string
	dir     string
	url     string
	env     []string // the process environment
	secrets []string
	max     int64
	over    atomic.Bool // the size cap was crossed
}

// newGitRunner prepares the environment: prompts off, ssh in batch mode,
// no inherited variable that redirects git, and HTTPS tokens passed as an
// http.<url>.extraHeader through GIT_CONFIG_COUNT (never argv).
func newGitRunner(cloneURL, dir string, opts *Options) (*gitRunner, error) {
	gitName := opts.Git
	if gitName == "" {
		gitName = "git"
	}
	git, err := exec.LookPath(gitName)
	if err != nil {
		return nil, &Error{Code: "ASK_SOURCE_UNAVAILABLE", Message: "git is not installed (no " + gitName + " on PATH)",
			Try: []string{"install git (https://git-scm.com/downloads) and retry", "or install from an archive: agent-skills install https://host/skill.zip"}}
	}
	g := &gitRunner{git: git, dir: dir, url: cloneURL, secrets: secretsOf(opts.getenv), max: opts.maxBytes()}
	g.env = registry.GitEnv(os.Environ(), true)
	if k, v, ok := authHeader(cloneURL, opts.getenv); ok {
		g.env = append(g.env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0="+k, "GIT_CONFIG_VALUE_0="+v)
	}
	return g, nil
}

// authHeader returns the git configuration key and value that send a
// token to the host of cloneURL: GITHUB_TOKEN or GH_TOKEN for GitHub (or
// the AGENT_SKILLS_GITHUB_URL host), GITLAB_TOKEN for GitLab. Tokens are
// only sent over https, or http to a loopback address.
func authHeader(cloneURL string, getenv func(string) string) (string, string, bool) {
	u, err := url.Parse(cloneURL)
	if err != nil || !(u.Scheme == "https" || (u.Scheme == "http" && isLoopback(u.Hostname()))) {
		return "", "", false
	}
	host := strings.ToLower(u.Host)
	hostOf := func(env, def string) string {
		base := getenv(env)
		if base == "" {
			base = def
		}
		if b, err := url.Parse(base); err == nil {
			return strings.ToLower(b.Host)
		}
		return ""
	}
	var user, tok string
	switch host {
	case "github.com", hostOf("AGENT_SKILLS_GITHUB_URL", defaultGitHub):
		user, tok = "x-access-token", firstNonEmpty(getenv("GITHUB_TOKEN"), getenv("GH_TOKEN"))
	case "gitlab.com", hostOf("AGENT_SKILLS_GITLAB_URL", defaultGitLab):
		user, tok = "oauth2", getenv("GITLAB_TOKEN")
	}
	if tok == "" {
		return "", "", false
	}
	key := "http." + u.Scheme + "://" + u.Host + "/.extraHeader"
	return key, "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+tok)), true
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// gitError is a failed git command: its scrubbed standard error.
type gitError struct {
	args   string
	stderr string
}

func (e *gitError) Error() string { return "git " + e.args + ": " + firstLine(e.stderr) }

// run executes git with hooks, symbolic links, the file-system monitor
// and submodules disabled, and returns its standard output.
func (g *gitRunner) run(ctx context.Context, args ...string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, gitTimeout)
		defer cancel()
	}
	full := append(registry.GitConfigArgs(g.url), args...)
	cmd := exec.CommandContext(ctx, g.git, full...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			msg = ctx.Err().Error()
		}
		return "", &gitError{args: args[0], stderr: scrub(msg, g.secrets)}
	}
	return stdout.String(), nil
}

// watch polls the size of the work folder while fn runs and cancels it
// once the size passes the cap.
func (g *gitRunner) watch(ctx context.Context, fn func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if dirSize(g.dir) > g.max {
					g.over.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	err := fn(ctx)
	close(done)
	if g.over.Load() || dirSize(g.dir) > g.max {
		return &Error{Code: "ASK_SOURCE_TOO_LARGE",
			Message: fmt.Sprintf("%s is larger than the %d MiB a source may download", scrub(g.url, g.secrets), g.max>>20),
			Try: []string{"install from a sub-path so that only that folder is checked out: owner/repo/path/to/skill",
				"or ask the repository's maintainers to publish the skill in a registry or an archive"}}
	}
	return err
}

// dirSize returns the total size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// fetchCommit fetches ref (a branch, a tag, a commit SHA, or "" for the
// remote HEAD) shallowly into a new repository in g.dir, checks out
// subpath only when it is set, and returns the commit.
func (g *gitRunner) fetchCommit(ctx context.Context, ref, subpath string) (*checkout, error) {
	if _, err := g.run(ctx, "init", "-q"); err != nil {
		return nil, g.classify(err, ref)
	}
	if _, err := g.run(ctx, "remote", "add", "origin", g.url); err != nil {
		return nil, g.classify(err, ref)
	}
	if subpath != "" {
		if _, err := g.run(ctx, "config", "core.sparseCheckout", "true"); err != nil {
			return nil, g.classify(err, ref)
		}
		info := filepath.Join(g.dir, ".git", "info")
		if err := os.MkdirAll(info, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(info, "sparse-checkout"), []byte("/"+subpath+"/\n"), 0o644); err != nil {
			return nil, err
		}
	}
	var commit string
	err := g.watch(ctx, func(ctx context.Context) error {
		var err error
		commit, err = g.fetchRef(ctx, ref)
		if err != nil {
			return err
		}
		_, err = g.run(ctx, "checkout", "-q", "--force", "--detach", commit)
		return err
	})
	if err != nil {
		return nil, g.classify(err, ref)
	}
	out, err := g.run(ctx, "show", "-s", "--format=%ct", commit)
	if err != nil {
		return nil, g.classify(err, ref)
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git show: unexpected commit time %q", strings.TrimSpace(out))
	}
	return &checkout{dir: g.dir, commit: commit, time: time.Unix(secs, 0).UTC()}, nil
}

// fetchRef fetches ref with --depth 1 and a blob filter, retrying without
// the filter when the server refuses it, and with a full fetch of every
// branch and tag when the server does not serve the ref by name (a SHA on
// a server that forbids fetching unadvertised objects, a short SHA).
func (g *gitRunner) fetchRef(ctx context.Context, ref string) (string, error) {
	want := ref
	if want == "" {
		want = "HEAD"
	}
	base := []string{"fetch", "-q", "--no-tags", "--no-recurse-submodules", "--depth", "1"}
	_, err := g.run(ctx, append(append(base[:len(base):len(base)], "--filter=blob:none"), "origin", want)...)
	if err != nil && isFilterRefused(err) {
		_, err = g.run(ctx, append(base[:len(base):len(base)], "origin", want)...)
	}
	if err != nil && ref == "" && strings.Contains(strings.ToLower(err.Error()), "couldn't find remote ref") {
		// The remote HEAD names a branch that does not exist (a bare
		// repository whose default branch was never pushed): take main,
		// master, or the only branch.
		if b := g.defaultBranch(ctx); b != "" {
			_, err = g.run(ctx, append(append(base[:len(base):len(base)], "--filter=blob:none"), "origin", b)...)
		}
	}
	if err == nil {
		out, err := g.run(ctx, "rev-parse", "--verify", "-q", "FETCH_HEAD^{commit}")
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(out), nil
	}
	if ref == "" || !looksLikeSHA(ref) || isAuth(err) || ctx.Err() != nil {
		return "", err
	}
	// The server would not give the commit by name: fetch everything and
	// look for it.
	if _, ferr := g.run(ctx, "fetch", "-q", "--no-recurse-submodules", "--filter=blob:none", "origin",
		"+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"); ferr != nil {
		if _, ferr = g.run(ctx, "fetch", "-q", "--no-recurse-submodules", "origin",
			"+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"); ferr != nil {
			return "", ferr
		}
	}
	out, rerr := g.run(ctx, "rev-parse", "--verify", "-q", ref+"^{commit}")
	if rerr != nil {
		shown := scrub(g.url, g.secrets)
		return "", notFound(shown+" has no commit "+quote(ref), nil,
			"check the SHA after '#'; a commit removed by a force-push is gone once the server prunes it")
	}
	return strings.TrimSpace(out), nil
}

// defaultBranch guesses the branch to use when the remote HEAD is
// dangling: main, else master, else the only branch; "" when unsure.
func (g *gitRunner) defaultBranch(ctx context.Context) string {
	out, err := g.run(ctx, "ls-remote", "--heads", "origin")
	if err != nil {
		return ""
	}
	var heads []string
	for _, line := range strings.Split(out, "\n") {
		if _, ref, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			heads = append(heads, strings.TrimPrefix(ref, "refs/heads/"))
		}
	}
	for _, b := range []string{"main", "master"} {
		if slices.Contains(heads, b) {
			return b
		}
	}
	if len(heads) == 1 {
		return heads[0]
	}
	return ""
}

// looksLikeSHA reports whether ref could be an abbreviated or full SHA.
func looksLikeSHA(ref string) bool {
	if len(ref) < 7 || len(ref) > 64 {
		return false
	}
	for _, c := range ref {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isFilterRefused reports a server that does not support partial clone.
func isFilterRefused(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "filter") || strings.Contains(s, "partial")
}

// isAuth reports a failure that asks for credentials.
func isAuth(err error) bool {
	var ge *gitError
	if !errors.As(err, &ge) {
		return false
	}
	s := strings.ToLower(ge.stderr)
	for _, m := range []string{"terminal prompts disabled", "could not read username", "could not read password",
		"authentication failed", "permission denied", "http basic: access denied", "returned error: 401", "returned error: 403",
		"invalid username or password", "host key verification failed"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// classify turns a git failure into the user-facing error.
func (g *gitRunner) classify(err error, ref string) error {
	var e *Error
	if errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	shown := scrub(g.url, g.secrets)
	var ge *gitError
	if !errors.As(err, &ge) {
		return &Error{Code: "ASK_SOURCE_UNAVAILABLE", Message: "cannot fetch " + shown, Err: err}
	}
	s := strings.ToLower(ge.stderr)
	switch {
	case isAuth(err):
		return &Error{Code: "ASK_SOURCE_AUTH", Message: shown + ": authentication required; set GITHUB_TOKEN or configure a credential helper",
			Details: []string{ge.stderr},
			Try: []string{"export GITHUB_TOKEN=… (GitHub), GITLAB_TOKEN=… (GitLab), or set up a git credential helper",
				"for ssh URLs, load your key into ssh-agent"}}
	case strings.Contains(s, "couldn't find remote ref"), strings.Contains(s, "not our ref"),
		strings.Contains(s, "unknown revision"), strings.Contains(s, "needed a single revision"),
		strings.Contains(s, "no such remote ref"):
		what := "no default branch (HEAD)"
		if ref != "" {
			what = "no ref " + quote(ref)
		}
		return notFound(shown+" has "+what, []string{ge.stderr},
			"check the branch, tag or commit after '#'", "git ls-remote "+shown+" lists what exists")
	case strings.Contains(s, "not found"), strings.Contains(s, "does not appear to be a git repository"),
		strings.Contains(s, "does not exist"), strings.Contains(s, "no such file or directory"):
		return notFound("repository "+shown+" not found", []string{ge.stderr},
			"check the owner and repository name", "a private repository needs GITHUB_TOKEN or a credential helper")
	}
	return &Error{Code: "ASK_SOURCE_UNAVAILABLE", Message: "cannot fetch " + shown, Details: []string{ge.stderr},
		Try: []string{"check the URL and your network, then retry"}}
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
