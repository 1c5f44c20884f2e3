package registry

import (
	"context"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// maxSimilar is how many near names Similar offers at most.
const maxSimilar = 3

// SimilarName is a published skill whose name is close to a name that was
// asked for and not found.
type SimilarName struct {
	// Name is the skill's name.
	Name string
	// Registry is the registry that answers for it: the first, by
	// precedence, whose index has it.
	Registry string
}

// Similar returns, for a "did you mean …?" after name was not found, the
// skills whose names are a typing slip away from it (format.Similar):
// those of the registry called registry when it is not empty, else those
// of every trusted registry that can be asked — an untrusted one never
// owns a bare name, so suggesting one of its names would lead nowhere.
// They come nearest first, then in precedence order, at most three, each
// name once. A registry that cannot be asked is skipped (with the one
// notice the set gives each). Similar returns nothing when one of the
// registries asked has name itself: the name was not misspelt, and
// whatever failed, a near name is not the answer.
func (s *Set) Similar(ctx context.Context, registry, name string) []SimilarName {
	var loaded []Loaded
	if registry != "" {
		l, err := s.Indexes(ctx, registry)
		if err != nil {
			return nil
		}
		loaded = l
	} else {
		l, err := s.Indexes(ctx, "")
		if err != nil {
			return nil
		}
		for _, x := range l {
			if !x.Untrusted {
				loaded = append(loaded, x)
			}
		}
	}
	owner := map[string]string{}
	var names []string
	for _, l := range loaded {
		if _, ok := l.Index.Skill(name); ok {
			return nil
		}
		for _, sk := range l.Index.Skills {
			if _, seen := owner[sk.Name]; !seen {
				owner[sk.Name] = l.Registry
				names = append(names, sk.Name)
			}
		}
	}
	near := format.Similar(name, names)
	out := make([]SimilarName, 0, min(len(near), maxSimilar))
	for _, n := range near[:min(len(near), maxSimilar)] {
		out = append(out, SimilarName{Name: n, Registry: owner[n]})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// DidYouMean words near names as the question an error's detail line
// asks, "did you mean a (registry x) or b (registry y)?"; "" for none.
func DidYouMean(near []SimilarName) string {
	if len(near) == 0 {
		return ""
	}
	alts := make([]string, len(near))
	for i, m := range near {
		alts[i] = m.Name + " (registry " + m.Registry + ")"
	}
	return "did you mean " + strings.Join(alts, " or ") + "?"
}
