package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// gitTimeout bounds one git command when the caller's context has no
// deadline.
const gitTimeout = 5 * time.Minute

// gitBackend keeps a shallow clone of a git registry in the cache and
// reads it like a local registry.
type gitBackend struct {
	spec  Spec
	opts  *Options
	url   string // what git is given
	ref   string // branch, tag or commit; "" = the remote HEAD
	dir   string // the clone
	local *local

	mu     sync.Mutex
	synced bool
}

// newGit splits "url#ref" and places the clone under CacheDir/git.
func newGit(spec Spec, opts *Options) (*gitBackend, error) {
	u, ref, _ := strings.Cut(spec.URL, "#")
	if ref == "" {
		ref = spec.Ref
	}
	if strings.HasPrefix(ref, "-") {
		return nil, configInvalid(spec, fmt.Sprintf("git ref %q must not start with '-'", ref))
	}
	if strings.HasPrefix(u, "-") {
		return nil, configInvalid(spec, "git URL must not start with '-'")
	}
	if !strings.Contains(u, "://") && !strings.HasPrefix(u, "git@") && !strings.Contains(strings.SplitN(u, "/", 2)[0], ":") {
		// A plain path: use file:// so that --depth is honoured.
		abs, err := filepath.Abs(u)
		if err != nil {
			return nil, configInvalid(spec, err.Error())
		}
		u = "file://" + filepath.ToSlash(abs)
	}
	if opts.CacheDir == "" {
		return nil, configInvalid(spec, "git registries need a cache directory")
	}
	sum := sha256.Sum256([]byte(u + "#" + ref))
	dir := filepath.Join(opts.CacheDir, "git", hex.EncodeToString(sum[:]))
	shown := u
	if ref != "" {
		shown += "#" + ref
	}
	return &gitBackend{
		spec: spec, opts: opts, url: u, ref: ref, dir: dir,
		local: &local{name: spec.Name, url: shown, root: dir, indexFile: filepath.Join(dir, filepath.FromSlash(indexPath)), cacheDir: opts.CacheDir},
	}, nil
}

// loadIndex makes sure the clone exists and is fresh, then reads it.
func (g *gitBackend) loadIndex(ctx context.Context) (*Index, error) {
	if err := g.sync(ctx); err != nil {
		return nil, err
	}
	return g.local.loadIndex(ctx)
}

// payload reads the package from the clone.
func (g *gitBackend) payload(ctx context.Context, r *registry, s *Skill, v *Version) (fs.FS, error) {
	if err := g.sync(ctx); err != nil {
		return nil, err
	}
	return g.local.payload(ctx, r, s, v)
}

// resolved names the payload as "<url>#<ref>:<path>".
func (g *gitBackend) resolved(v *Version) string { return g.local.resolved(v) }

// stampFile records when the clone was last fetched.
func (g *gitBackend) stampFile() string { return g.dir + ".fetched" }

// sync clones on first use and refreshes a clone older than the TTL; a
// failed refresh keeps the existing clone with a notice.
func (g *gitBackend) sync(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.synced {
		return nil
	}
	_, statErr := os.Stat(filepath.Join(g.dir, ".git"))
	exists := statErr == nil
	if exists && (g.opts.Offline || g.fresh()) {
		g.synced = true
		return nil
	}
	if g.opts.Offline {
		return unavailable(g.spec.Name, "offline and never fetched", nil, "run the command once while online")
	}
	git, err := g.gitPath()
	if err != nil {
		if exists {
			g.opts.notify("registry %s: git is not installed; using the copy fetched earlier", g.spec.Name)
			g.synced = true
			return nil
		}
		return err
	}
	if !exists {
		if err := g.clone(ctx, git); err != nil {
			return err
		}
	} else if err := g.fetch(ctx, git, g.dir); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.opts.notify("registry %s: could not refresh from %s (%s); using the copy fetched %s",
			g.spec.Name, g.url, firstLine(err.Error()), g.fetchedAt())
		g.synced = true
		return nil
	}
	g.synced = true
	if err := writeAtomic(g.stampFile(), []byte(g.opts.now().UTC().Format(time.RFC3339Nano))); err != nil {
		g.opts.notify("registry %s: cannot record the fetch time (%v); it will be fetched again next time", g.spec.Name, err)
	}
	return nil
}

// gitPath finds the git executable.
func (g *gitBackend) gitPath() (string, error) {
	name := g.opts.GitPath
	if name == "" {
		name = "git"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", unavailable(g.spec.Name, "git is not installed (no "+name+" on PATH)", nil,
			"install git (https://git-scm.com/downloads) and retry",
			"or use the registry over https: agent-skills registry add <name> https://host/path/index.json")
	}
	return p, nil
}

// fresh reports whether the clone was fetched within the TTL.
func (g *gitBackend) fresh() bool {
	data, err := os.ReadFile(g.stampFile())
	if err != nil {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, string(data))
	if err != nil {
		return false
	}
	age := g.opts.now().Sub(t)
	return age >= 0 && age < g.opts.TTL
}

// fetchedAt describes the stamp time for notices.
func (g *gitBackend) fetchedAt() string {
	data, err := os.ReadFile(g.stampFile())
	if err != nil {
		return "earlier"
	}
	return "at " + string(data)
}

// clone makes a fresh shallow clone beside the final directory and
// renames it into place.
func (g *gitBackend) clone(ctx context.Context, git string) error {
	parent := filepath.Dir(g.dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".clone-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := g.run(ctx, git, tmp, "init", "-q"); err != nil {
		return unavailable(g.spec.Name, "git init failed", err)
	}
	if err := g.fetch(ctx, git, tmp); err != nil {
		return unavailable(g.spec.Name, "cannot fetch "+g.url, err,
			"check the URL and your network, then retry",
			"agent-skills registry list")
	}
	if _, err := os.Stat(filepath.Join(g.dir, ".git")); err == nil {
		return nil // another process cloned it meanwhile
	} else if _, err := os.Stat(g.dir); err == nil {
		// A directory without .git is the remains of an interrupted clone.
		if err := os.RemoveAll(g.dir); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, g.dir); err != nil {
		if _, serr := os.Stat(filepath.Join(g.dir, ".git")); serr == nil {
			return nil // another process cloned it meanwhile
		}
		return err
	}
	return nil
}

// fetch brings the work tree at dir to the tip of ref: a depth-1 fetch of
// the URL (no remote is configured), a forced checkout of FETCH_HEAD and
// a clean of anything untracked.
func (g *gitBackend) fetch(ctx context.Context, git, dir string) error {
	ref := g.ref
	if ref == "" {
		ref = "HEAD"
	}
	if _, err := g.run(ctx, git, dir, "fetch", "-q", "--depth", "1", "--no-tags", "--no-recurse-submodules", "--", g.url, ref); err != nil {
		return err
	}
	if _, err := g.run(ctx, git, dir, "checkout", "-q", "--force", "--detach", "FETCH_HEAD"); err != nil {
		return err
	}
	_, err := g.run(ctx, git, dir, "clean", "-q", "-ffdx")
	return err
}

// run executes one git command in dir with hooks, symbolic links, the
// file-system monitor and prompts disabled, the system configuration
// ignored, and no inherited variable that could point git elsewhere.
func (g *gitBackend) run(ctx context.Context, git, dir string, args ...string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, gitTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, git, append(GitConfigArgs(g.url), args...)...)
	cmd.Dir = dir
	cmd.Env = GitEnv(cmd.Environ(), false)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			msg = ctx.Err().Error()
		}
		return "", errors.New("git " + args[0] + ": " + msg)
	}
	return stdout.String(), nil
}

// GitConfigArgs returns the -c options every git command of agent-skills
// runs with: hooks, symbolic links, the file-system monitor and submodules
// off, so that nothing in a fetched repository can run or reach outside
// its folder; file:// is allowed only when url itself is a file:// URL.
func GitConfigArgs(url string) []string {
	args := []string{
		"-c", "core.hooksPath=/dev/null",
		"-c", "core.symlinks=false",
		"-c", "core.fsmonitor=false",
		"-c", "submodule.recurse=false",
		"-c", "fetch.recurseSubmodules=false",
		"-c", "advice.detachedHead=false",
		"-c", "init.defaultBranch=main",
	}
	if strings.HasPrefix(url, "file://") {
		args = append(args, "-c", "protocol.file.allow=always")
	}
	return args
}

// GitEnv returns env without the variables that could point git at
// another repository, inject configuration or trace traffic (which could
// print credentials), with prompts disabled and ssh in batch mode. Unless
// systemConfig, the system-wide git configuration is ignored too; sources
// keep it so that a credential helper configured there is consulted.
func GitEnv(env []string, systemConfig bool) []string {
	out := make([]string, 0, len(env)+4)
	hasSSH := false
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "GIT_DIR", k == "GIT_WORK_TREE", k == "GIT_INDEX_FILE", k == "GIT_OBJECT_DIRECTORY",
			k == "GIT_ALTERNATE_OBJECT_DIRECTORIES", k == "GIT_COMMON_DIR", k == "GIT_NAMESPACE",
			k == "GIT_CONFIG", k == "GIT_CONFIG_PARAMETERS", k == "GIT_CONFIG_COUNT",
			strings.HasPrefix(k, "GIT_CONFIG_KEY_"), strings.HasPrefix(k, "GIT_CONFIG_VALUE_"),
			k == "GIT_TERMINAL_PROMPT", k == "GIT_CONFIG_NOSYSTEM",
			strings.HasPrefix(k, "GIT_TRACE"), k == "GIT_CURL_VERBOSE":
			continue
		case k == "GIT_SSH_COMMAND", k == "GIT_SSH":
			hasSSH = true
		}
		out = append(out, kv)
	}
	out = append(out, "GIT_TERMINAL_PROMPT=0")
	if !systemConfig {
		out = append(out, "GIT_CONFIG_NOSYSTEM=1")
	}
	if !hasSSH {
		out = append(out, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return out
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
