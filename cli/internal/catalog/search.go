package catalog

import (
	"slices"

	"github.com/agent-skills/agent-skills/registry"
)

// Hit is one search result and where it comes from.
type Hit struct {
	Skill
	// Match is how well the query matched: exact-name, name-prefix,
	// name-substring, keyword or description.
	Match string `json:"match"`
	// ShadowedBy names the registry that owns the name when this
	// registry's skill would not be the one installed by bare name.
	ShadowedBy string `json:"shadowedBy,omitempty"`
}

// MaxQueryLength bounds a search query, in bytes.
const MaxQueryLength = 512

// Search ranks the installed skills and the registry indexes (in
// precedence order) against query with registry.Search: every term must
// match the name, a keyword or the description. Installed skills come first
// among equals; a registry hit's ShadowedBy names only another registry
// (the first trusted one holding the name), never an installed copy.
// limit <= 0 means no limit. The query is truncated to MaxQueryLength bytes.
func Search(installed []Skill, indexes []registry.Loaded, query string, limit int) []Hit {
	if len(query) > MaxQueryLength {
		query = query[:MaxQueryLength]
	}
	var loaded []registry.Loaded
	// Per source, the index in installed of the first skill of each name.
	bySource := map[string]map[string]int{}
	var sources []string
	for i, s := range installed {
		m := bySource[s.Source]
		if m == nil {
			m = map[string]int{}
			bySource[s.Source] = m
			sources = append(sources, s.Source)
		}
		if _, dup := m[s.Name]; !dup {
			m[s.Name] = i
		}
	}
	rows := make([]registry.Skill, len(installed)) // one allocation for every row
	for _, src := range sources {
		x := &registry.Index{SchemaVersion: registry.IndexSchemaVersion}
		for i, s := range installed {
			if s.Source == src && bySource[src][s.Name] == i {
				rows[i] = registry.Skill{Name: s.Name, Description: s.Description, Keywords: s.Keywords, Latest: s.Version}
				x.Skills = append(x.Skills, &rows[i])
			}
		}
		loaded = append(loaded, registry.Loaded{Registry: src, Index: x})
	}
	loaded = append(loaded, indexes...)
	hits := registry.Search(loaded, query, limit)
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		if m, ok := bySource[h.Registry]; ok {
			out = append(out, Hit{Skill: installed[m[h.Name]], Match: h.Match.String()})
			continue
		}
		out = append(out, Hit{
			Skill: Skill{Name: h.Name, Description: oneLine(h.Description), Version: h.Latest,
				Keywords: slices.Clone(h.Keywords), Source: h.Registry},
			Match: h.Match.String(), ShadowedBy: owner(indexes, h.Name, h.Registry),
		})
	}
	return out
}

// RegistrySkills lists every skill of the indexes as a Skill, with its
// latest version, in precedence order then name.
func RegistrySkills(indexes []registry.Loaded) []Skill {
	var out []Skill
	for _, l := range indexes {
		if l.Index == nil {
			continue
		}
		start := len(out)
		for _, s := range l.Index.Skills {
			out = append(out, Skill{Name: s.Name, Description: oneLine(s.Description), Version: s.Latest,
				Keywords: slices.Clone(s.Keywords), Source: l.Registry})
		}
		slices.SortFunc(out[start:], func(a, b Skill) int {
			switch {
			case a.Name < b.Name:
				return -1
			case a.Name > b.Name:
				return 1
			}
			return 0
		})
	}
	return out
}

// owner returns the first trusted registry holding name when it is not
// self: the registry a bare-name install would take it from.
func owner(indexes []registry.Loaded, name, self string) string {
	for _, l := range indexes {
		if l.Index == nil || l.Untrusted {
			continue
		}
		if _, ok := l.Index.Skill(name); ok {
			if l.Registry == self {
				return ""
			}
			return l.Registry
		}
	}
	return ""
}
