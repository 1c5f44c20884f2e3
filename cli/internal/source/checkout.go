package source

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Tree is one commit of a git source, checked out with only the paths
// CheckoutPaths was asked for. Its files are read without following a
// link (see treeFS); Close removes the checkout.
type Tree struct {
	// FS reads the checkout from the repository's root.
	FS fs.FS
	// Commit is the full commit id that was checked out.
	Commit string
	// URL is where the source was read, without credentials.
	URL   string
	clean func()
}

// Close removes the checkout; the FS may not be read after it. A second
// Close does nothing.
func (t *Tree) Close() {
	if t != nil && t.clean != nil {
		t.clean()
		t.clean = nil
	}
}

// CheckoutPaths fetches ref (a branch, a tag, a commit, or "" for the
// default branch) of the git source r shallowly, through the same hardened
// runner as Fetch, and checks out only paths: repository-relative folders
// or files, each checked like a sub-path (clean, no "." or "..", no glob
// characters). No paths means the whole tree. r.Subpath and r.Ref are
// ignored: upstream provenance names the folder and ref itself. Folders,
// archives and MCP servers are ASK_SOURCE_INVALID: only a git repository
// has commits to follow. With opts.Offline a network source is
// ASK_SOURCE_UNAVAILABLE before anything is contacted.
func CheckoutPaths(ctx context.Context, r Ref, ref string, paths []string, opts Options) (*Tree, error) {
	switch r.Kind {
	case KindGitHub, KindGitLab, KindGit:
	default:
		return nil, invalid(r.Input, "only a git repository (owner/repo, a git URL) has commits to follow")
	}
	if ref != "" {
		if why := checkRefName(ref); why != "" {
			return nil, invalid(ref, "the ref "+quote(ref)+" "+why)
		}
	}
	sparse := make([]string, 0, len(paths))
	for _, p := range paths {
		pat, err := checkoutPattern(r, p)
		if err != nil {
			return nil, err
		}
		sparse = append(sparse, pat)
	}
	if err := offlineRefusal(r, "", &opts); err != nil {
		return nil, err
	}
	if opts.CacheDir == "" {
		opts.CacheDir = os.TempDir()
	}
	base := filepath.Join(opts.CacheDir, "sources")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(base, "upstream-")
	if err != nil {
		return nil, err
	}
	clean := func() { os.RemoveAll(work) }
	u := cloneURL(r, &opts)
	if pu, err := url.Parse(u); err == nil && pu.Scheme == "http" && !isLoopback(pu.Hostname()) {
		clean()
		return nil, invalid(r.Input, "plain http is refused for git sources (use https or ssh)")
	}
	g, err := newGitRunner(u, work, &opts)
	if err != nil {
		clean()
		return nil, err
	}
	co, err := g.fetchSparse(ctx, ref, sparse)
	if err != nil {
		clean()
		return nil, err
	}
	fsys, err := openTreeFS(work)
	if err != nil {
		clean()
		return nil, notFound("cannot read the checkout of "+g.shown+": "+err.Error(), nil, "retry; check the free disk space")
	}
	return &Tree{FS: fsys, Commit: co.commit, URL: g.shown, clean: func() { fsys.Close(); clean() }}, nil
}

// checkoutPattern is the sparse-checkout pattern of the repository path
// p: "/p", which matches the file or the folder p at the root and nothing
// else. A path git would read as a pattern (*, ?, [, \, !, #) is refused.
func checkoutPattern(r Ref, p string) (string, error) {
	if !fs.ValidPath(p) || p == "." || strings.ContainsAny(p, "*?[]\\!#\x00\n\r") || strings.HasPrefix(p, " ") ||
		p == ".git" || strings.HasPrefix(p, ".git/") {
		return "", invalid(r.Input, "the path "+quote(p)+" must be a plain relative path inside the repository")
	}
	return "/" + p, nil
}
