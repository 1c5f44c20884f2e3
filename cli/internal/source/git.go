package source

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/registry/gitrun"
)

// DefaultMaxBytes is the size cap of a clone (objects and work tree
// together) when Options.MaxBytes is zero: 200 MiB.
const DefaultMaxBytes = 200 << 20

// checkout is a fetched commit in a work folder.
type checkout struct {
	dir    string    // the work tree
	commit string    // full SHA
	time   time.Time // commit time, UTC
}

// gitRunner runs git for one source in one work folder through the
// hardened runner every git command of agent-skills uses (gitrun): the
// same configuration, scrubbed environment, timeout and output caps as
// the git registries and the publish target, plus the clone's size cap.
type gitRunner struct {
	*gitrun.Runner
	shown string // the URL without credentials, for messages
	max   int64
}

// newGitRunner prepares a runner for cloneURL in dir. An HTTPS token is
// passed as an http.<url>.extraHeader through GIT_CONFIG_COUNT (never
// argv), and scrubbed from every error. A URL git must not be given
// (gitrun.CheckURL) is ASK_SOURCE_INVALID.
func newGitRunner(cloneURL, dir string, opts *Options) (*gitRunner, error) {
	var cfg []gitrun.Config
	if k, v, ok := authHeader(cloneURL, opts.getenv); ok {
		cfg = append(cfg, gitrun.Config{Key: k, Value: v})
	}
	secrets := secretsOf(opts.getenv)
	r, err := gitrun.New(gitrun.Options{Git: opts.Git, Dir: dir, URL: cloneURL, Env: os.Environ(),
		Config: cfg, Secrets: secrets, MaxBytes: opts.maxBytes()})
	var ue *gitrun.URLError
	switch {
	case errors.Is(err, gitrun.ErrNotInstalled):
		gitName := opts.Git
		if gitName == "" {
			gitName = "git"
		}
		return nil, &Error{Code: CodeSourceUnavailable, Message: "git is not installed (no " + gitName + " on PATH)",
			Try: []string{"install git (https://git-scm.com/downloads) and retry", "or install from an archive: agent-skills install https://host/skill.zip"}}
	case errors.As(err, &ue):
		return nil, &Error{Code: CodeSourceInvalid, Message: "refusing to give git the remote " + ue.URL + ": it " + ue.Reason,
			Try: []string{"write an https://, ssh://, git@host:path or file:// URL (see docs/sources.md)",
				"if the URL comes from skills.lock, restore the file from version control"}}
	case err != nil:
		return nil, err
	}
	return &gitRunner{Runner: r, shown: scrub(cloneURL, secrets), max: opts.maxBytes()}, nil
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

// fetchCommit fetches ref (a branch, a tag, a commit SHA, or "" for the
// remote HEAD) shallowly into a new repository in the work folder, checks
// out subpath only when it is set, and returns the commit. ref must pass
// gitrun.CheckRef whoever chose it (a user, skills.lock, a server), and
// every ref and remote is passed after --end-of-options, so no name can
// be read as an option.
func (g *gitRunner) fetchCommit(ctx context.Context, ref, subpath string) (*checkout, error) {
	var sparse []string
	if subpath != "" {
		sparse = []string{"/" + subpath + "/"}
	}
	return g.fetchSparse(ctx, ref, sparse)
}

// fetchSparse is fetchCommit checking out only what the sparse-checkout
// patterns name (every file when there are none). The caller builds
// the patterns from checked paths (see checkoutPattern).
func (g *gitRunner) fetchSparse(ctx context.Context, ref string, sparse []string) (*checkout, error) {
	if ref != "" {
		if err := gitrun.CheckRef(ref); err != nil {
			return nil, &Error{Code: CodeSourceInvalid, Message: "refusing to fetch from " + g.shown + ": the " + err.Error(),
				Try: []string{"name a branch, tag or commit after '#'",
					"if the ref comes from skills.lock, restore the file from version control"}}
		}
	}
	if err := g.Init(ctx); err != nil {
		return nil, g.classify(err, ref)
	}
	if _, err := g.Run(ctx, "remote", "add", "--end-of-options", "origin", g.URL()); err != nil {
		return nil, g.classify(err, ref)
	}
	if len(sparse) > 0 {
		if _, err := g.Run(ctx, "config", "core.sparseCheckout", "true"); err != nil {
			return nil, g.classify(err, ref)
		}
		info := filepath.Join(g.Dir(), ".git", "info")
		if err := os.MkdirAll(info, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(info, "sparse-checkout"), []byte(strings.Join(sparse, "\n")+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	commit, err := g.fetchRef(ctx, ref)
	if err == nil {
		err = g.Checkout(ctx, commit)
	}
	if errors.Is(err, gitrun.ErrTooLarge) || g.TooLarge() {
		return nil, &Error{Code: CodeSourceTooLarge,
			Message: fmt.Sprintf("%s is larger than the %d MiB a source may download", g.shown, g.max>>20),
			Try: []string{"install from a sub-path so that only that folder is checked out: owner/repo/path/to/skill",
				"or ask the repository's maintainers to publish the skill in a registry or an archive"}}
	}
	if err != nil {
		return nil, g.classify(err, ref)
	}
	out, err := g.Run(ctx, "show", "-s", "--format=%ct", "--end-of-options", commit, "--")
	if err != nil {
		return nil, g.classify(err, ref)
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("git show: unexpected commit time %q", strings.TrimSpace(out))
	}
	return &checkout{dir: g.Dir(), commit: commit, time: time.Unix(secs, 0).UTC()}, nil
}

// fetch runs a shallow fetch of refspec from origin, with a blob filter
// when filter is set.
func (g *gitRunner) fetch(ctx context.Context, filter bool, refspec string) error {
	args := []string{"fetch", "-q", "--no-tags", "--no-recurse-submodules", "--depth", "1"}
	if filter {
		args = append(args, "--filter=blob:none")
	}
	_, err := g.Run(ctx, append(args, "--end-of-options", "origin", refspec)...)
	return err
}

// fetchFiltered fetches refspec with the blob filter, and again without
// it when the server refuses partial clones.
func (g *gitRunner) fetchFiltered(ctx context.Context, refspec string) error {
	err := g.fetch(ctx, true, refspec)
	if err != nil && isFilterRefused(err) {
		err = g.fetch(ctx, false, refspec)
	}
	return err
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
	err := g.fetchFiltered(ctx, want)
	if err != nil && ref == "" && strings.Contains(strings.ToLower(err.Error()), "couldn't find remote ref") {
		// The remote HEAD names a branch that does not exist (a bare
		// repository whose default branch was never pushed): take main,
		// master, or the only branch — if its name is safe to use.
		b, berr := g.defaultBranch(ctx)
		if berr != nil {
			return "", berr
		}
		if b != "" {
			err = g.fetchFiltered(ctx, "refs/heads/"+b)
		}
	}
	if err == nil {
		return g.Resolve(ctx, "FETCH_HEAD")
	}
	if ref == "" || !looksLikeSHA(ref) || isAuth(err) || ctx.Err() != nil || errors.Is(err, gitrun.ErrTooLarge) {
		return "", err
	}
	// The server would not give the commit by name: fetch everything and
	// look for it.
	full := []string{"fetch", "-q", "--no-recurse-submodules", "--filter=blob:none", "--end-of-options", "origin",
		"+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"}
	if _, ferr := g.Run(ctx, full...); ferr != nil {
		full = slices.Delete(full, 3, 4) // without the filter
		if _, ferr = g.Run(ctx, full...); ferr != nil {
			return "", ferr
		}
	}
	commit, rerr := g.Resolve(ctx, ref)
	if rerr != nil {
		return "", notFound(g.shown+" has no commit "+quote(ref), nil,
			"check the SHA after '#'; a commit removed by a force-push is gone once the server prunes it")
	}
	return commit, nil
}

// defaultBranch chooses the branch to use when the remote HEAD is
// dangling (gitrun.PickDefault): main, else master, else the only branch;
// "" when unsure. A branch it would choose whose name is not safe (a
// server's "--upload-pack=…") is ASK_SOURCE_NOT_FOUND naming it, escaped.
func (g *gitRunner) defaultBranch(ctx context.Context) (string, error) {
	heads, err := g.Heads(ctx, "origin")
	if err != nil {
		return "", nil
	}
	b, err := gitrun.PickDefault(heads)
	if err != nil {
		return "", notFound(g.shown+" has no default branch: its HEAD names a branch that does not exist, and its only branch is refused: "+err.Error(), nil,
			"name a branch, tag or commit after '#': agent-skills install "+g.shown+"#main",
			"git ls-remote "+g.shown+" lists what exists")
	}
	return b, nil
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
	var ce *gitrun.CommandError
	if !errors.As(err, &ce) {
		return false
	}
	s := strings.ToLower(ce.Stderr)
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
	shown := g.shown
	var ce *gitrun.CommandError
	if !errors.As(err, &ce) {
		return &Error{Code: CodeSourceUnavailable, Message: "cannot fetch " + shown, Err: err}
	}
	if errors.Is(err, gitrun.ErrOutputTooLarge) {
		return &Error{Code: CodeSourceUnavailable, Message: "cannot fetch " + shown + ": git " + ce.Command + " printed more than agent-skills reads",
			Try: []string{"check the URL; a repository advertising that many refs is not a skill source"}}
	}
	stderr := ce.Stderr
	if stderr == "" {
		stderr = ce.Error()
	}
	s := strings.ToLower(stderr)
	switch {
	case isAuth(err):
		return &Error{Code: CodeSourceAuth, Message: shown + ": authentication required; set GITHUB_TOKEN or configure a credential helper",
			Detail: []string{stderr},
			Try: []string{"export GITHUB_TOKEN=… (GitHub), GITLAB_TOKEN=… (GitLab), or set up a git credential helper",
				"for ssh URLs, load your key into ssh-agent"}}
	case strings.Contains(s, "couldn't find remote ref"), strings.Contains(s, "not our ref"),
		strings.Contains(s, "unknown revision"), strings.Contains(s, "needed a single revision"),
		strings.Contains(s, "no such remote ref"):
		what := "no default branch (HEAD)"
		if ref != "" {
			what = "no ref " + quote(ref)
		}
		return notFound(shown+" has "+what, []string{stderr},
			"check the branch, tag or commit after '#'", "git ls-remote "+shown+" lists what exists")
	case strings.Contains(s, "not found"), strings.Contains(s, "does not appear to be a git repository"),
		strings.Contains(s, "does not exist"), strings.Contains(s, "no such file or directory"):
		return notFound("repository "+shown+" not found", []string{stderr},
			"check the owner and repository name", "a private repository needs GITHUB_TOKEN or a credential helper")
	}
	return &Error{Code: CodeSourceUnavailable, Message: "cannot fetch " + shown, Detail: []string{stderr},
		Try: []string{"check the URL and your network, then retry"}}
}
