package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/registry/gitrun"
)

// Tip returns the commit that ref — a branch or tag of the git source r,
// "" for its default branch — names on the server now, asking it with git
// ls-remote and fetching no content: `outdated` compares it with the
// commit skills.lock pins. A branch of that name wins over a tag, and a
// tag is read peeled (the commit, not the tag object). A ref the server
// does not advertise is ASK_SOURCE_NOT_FOUND; folders and archives have
// no tip ("", nil); offline, a source that needs the network is
// ASK_SOURCE_UNAVAILABLE, and nothing is contacted.
func Tip(ctx context.Context, r Ref, ref string, opts Options) (string, error) {
	switch r.Kind {
	case KindLocal, KindArchive:
		return "", nil
	}
	if err := offlineRefusal(r, "", &opts); err != nil {
		return "", err
	}
	if ref != "" {
		if why := checkRefName(ref); why != "" {
			return "", invalid(ref, "the ref "+gitrun.Quote(ref)+" "+why)
		}
	}
	if opts.CacheDir == "" {
		opts.CacheDir = os.TempDir()
	}
	base := filepath.Join(opts.CacheDir, "sources")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(base, "tip-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	g, err := newGitRunner(cloneURL(r, &opts), work, &opts)
	if err != nil {
		return "", err
	}
	patterns := []string{"HEAD"}
	if ref != "" {
		// A pattern matches the tail of a ref's name: "v1" alone would
		// not match the peeled "refs/tags/v1^{}".
		patterns = []string{ref, ref + "^{}"}
	}
	out, err := g.Run(ctx, append([]string{"ls-remote", "--end-of-options", g.URL()}, patterns...)...)
	if err != nil {
		return "", g.classify(err, ref)
	}
	if c := pickTip(out, ref); c != "" {
		return c, nil
	}
	what := "a default branch (HEAD)"
	if ref != "" {
		what = "a branch or tag " + gitrun.Quote(ref)
	}
	return "", notFound(g.shown+" has no "+what, nil, "git ls-remote "+g.shown+" lists what exists")
}

// pickTip chooses, from `git ls-remote` output, the commit ref names:
// HEAD for "", else refs/heads/<ref>, else the peeled refs/tags/<ref>^{},
// else refs/tags/<ref>. Only a full commit id is returned.
func pickTip(out, ref string) string {
	oids := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		oid, name, ok := strings.Cut(strings.TrimRight(line, "\r"), "\t")
		if ok && gitrun.IsCommitID(oid) {
			oids[name] = oid
		}
	}
	want := []string{"HEAD"}
	if ref != "" {
		want = []string{"refs/heads/" + ref, "refs/tags/" + ref + "^{}", "refs/tags/" + ref}
	}
	for _, w := range want {
		if oid, ok := oids[w]; ok {
			return oid
		}
	}
	return ""
}
