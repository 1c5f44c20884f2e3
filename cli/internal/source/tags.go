package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Tags lists the semver tags (v1.2.3 or 1.2.3) of the git source r,
// newest first, without fetching any content: `update` of a skill
// installed from a tag moves to the first one. Folders and archives have
// no tags; Tags returns nil for them.
func Tags(ctx context.Context, r Ref, opts Options) ([]string, error) {
	switch r.Kind {
	case KindLocal, KindArchive:
		return nil, nil
	}
	if opts.CacheDir == "" {
		opts.CacheDir = os.TempDir()
	}
	base := filepath.Join(opts.CacheDir, "sources")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(base, "tags-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	g, err := newGitRunner(cloneURL(r, &opts), work, &opts)
	if err != nil {
		return nil, err
	}
	out, err := g.run(ctx, "ls-remote", "--tags", "--refs", "--", g.url)
	if err != nil {
		return nil, g.classify(err, "")
	}
	type tag struct {
		name string
		v    *semver.Version
	}
	var tags []tag
	for _, line := range strings.Split(out, "\n") {
		_, ref, ok := strings.Cut(strings.TrimSpace(line), "\t")
		name, isTag := strings.CutPrefix(ref, "refs/tags/")
		if !ok || !isTag {
			continue
		}
		if v := tagVersion(name); v != "" {
			tags = append(tags, tag{name, semver.MustParse(v)})
		}
	}
	slices.SortStableFunc(tags, func(a, b tag) int { return b.v.Compare(a.v) })
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.name
	}
	return names, nil
}
