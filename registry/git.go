package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"github.com/agent-skills/agent-skills/format"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agent-skills/agent-skills/registry/gitrun"
)

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
	if ref != "" {
		if err := gitrun.CheckRef(ref); err != nil {
			return nil, configInvalid(spec, "the git "+err.Error())
		}
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
	if _, err := gitrun.CheckURL(u); err != nil {
		return nil, configInvalid(spec, err.Error())
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
func (g *gitBackend) payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if err := g.sync(ctx); err != nil {
		return nil, err
	}
	return g.local.payload(ctx, r, s, v, verify)
}

// resolved names the payload as "<url>#<ref>:<path>".
func (g *gitBackend) resolved(s *Skill, v *Version) string { return g.local.resolved(s, v) }

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
	if _, err := g.runner(g.dir); err != nil {
		if exists && errors.Is(err, gitrun.ErrNotInstalled) {
			g.opts.notify("registry %s: git is not installed; using the copy fetched earlier", g.spec.Name)
			g.synced = true
			return nil
		}
		return g.runnerError(err)
	}
	if !exists {
		if err := g.clone(ctx); err != nil {
			return err
		}
	} else if err := g.fetch(ctx, g.dir); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.opts.notify("registry %s: could not refresh from %s (%s); using the copy fetched %s",
			g.spec.Name, gitrun.Scrub(g.url, nil), firstLine(err.Error()), g.fetchedAt())
		g.synced = true
		return nil
	}
	g.synced = true
	if err := writeAtomic(g.stampFile(), []byte(g.opts.now().UTC().Format(time.RFC3339Nano))); err != nil {
		g.opts.notify("registry %s: cannot record the fetch time (%v); it will be fetched again next time", g.spec.Name, err)
	}
	return nil
}

// runner returns the hardened git runner (gitrun) for the registry's URL
// in dir: the same configuration, scrubbed environment, timeout and
// output caps as sources and the publish target.
func (g *gitBackend) runner(dir string) (*gitrun.Runner, error) {
	env := g.opts.GitEnv
	if env == nil {
		env = os.Environ()
	}
	return gitrun.New(gitrun.Options{Git: g.opts.GitPath, Dir: dir, URL: g.url, Env: env})
}

// runnerError turns a failure of gitrun.New into the registry's error.
func (g *gitBackend) runnerError(err error) error {
	if errors.Is(err, gitrun.ErrNotInstalled) {
		name := g.opts.GitPath
		if name == "" {
			name = "git"
		}
		return unavailable(g.spec.Name, "git is not installed (no "+name+" on PATH)", nil,
			"install git (https://git-scm.com/downloads) and retry",
			"or use the registry over https: agent-skills registry add <name> https://host/path/index.json")
	}
	return configInvalid(g.spec, err.Error())
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
func (g *gitBackend) clone(ctx context.Context) error {
	parent := filepath.Dir(g.dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".clone-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	r, err := g.runner(tmp)
	if err != nil {
		return g.runnerError(err)
	}
	if err := r.Init(ctx); err != nil {
		return unavailable(g.spec.Name, "git init failed", err)
	}
	if err := g.fetch(ctx, tmp); err != nil {
		return unavailable(g.spec.Name, "cannot fetch "+gitrun.Scrub(g.url, nil), err,
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
// the URL (no remote is configured), a forced checkout of the fetched
// commit (gitrun.Runner.Checkout protects the clone from the tree's
// .gitattributes first, also one cached by an older version) and a clean
// of anything untracked. The URL and ref follow --end-of-options.
func (g *gitBackend) fetch(ctx context.Context, dir string) error {
	r, err := g.runner(dir)
	if err != nil {
		return g.runnerError(err)
	}
	ref := g.ref
	if ref == "" {
		ref = "HEAD"
	}
	if _, err := r.Run(ctx, "fetch", "-q", "--depth", "1", "--no-tags", "--no-recurse-submodules", "--end-of-options", g.url, ref); err != nil {
		return err
	}
	commit, err := r.Resolve(ctx, "FETCH_HEAD")
	if err != nil {
		return err
	}
	if err := r.Checkout(ctx, commit); err != nil {
		return err
	}
	_, err = r.Run(ctx, "clean", "-q", "-ffdx")
	return err
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
