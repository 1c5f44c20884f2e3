package source

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/registry/gitrun"
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
	work, err := os.MkdirTemp(base, "tags-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	g, err := newGitRunner(cloneURL(r, &opts), work, &opts)
	if err != nil {
		return nil, err
	}
	refs, err := g.Tags(ctx, g.URL())
	if err != nil {
		return nil, g.classify(err, "")
	}
	type tag struct {
		name string
		v    *semver.Version
	}
	var tags []tag
	for _, name := range refs {
		// The names are the server's: keep only those that are safe to
		// give git again (update fetches the tag it picks) and name a
		// version.
		if gitrun.CheckRef(name) != nil {
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
