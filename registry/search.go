package registry

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Loaded is one registry's index as search sees it, given in precedence
// order.
type Loaded struct {
	// Registry is the configured name of the registry.
	Registry string
	// Index is its loaded index.
	Index *Index
	// Untrusted registries never own a name by precedence (Spec.Untrusted).
	Untrusted bool
}

// Match says how well a hit matched, best first.
type Match int

// The match classes, from strongest to weakest.
const (
	MatchExactName Match = iota
	MatchNamePrefix
	MatchNameSubstring
	MatchKeyword
	MatchDescription
	matchNone
)

// String names the match class.
func (m Match) String() string {
	switch m {
	case MatchExactName:
		return "exact-name"
	case MatchNamePrefix:
		return "name-prefix"
	case MatchNameSubstring:
		return "name-substring"
	case MatchKeyword:
		return "keyword"
	case MatchDescription:
		return "description"
	}
	return "none"
}

// MarshalText encodes the match class as its String form.
func (m Match) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Hit is one search result.
type Hit struct {
	// Registry is the registry that holds the skill.
	Registry string `json:"registry"`
	// Name is the skill's name.
	Name string `json:"name"`
	// Description is the skill's description.
	Description string `json:"description"`
	// Keywords are the skill's keywords.
	Keywords []string `json:"keywords,omitempty"`
	// Latest is the skill's latest version.
	Latest string `json:"latest"`
	// Match is the best match class over the query terms.
	Match Match `json:"match"`
	// Shadowed is true when another registry owns the name (the first
	// trusted registry holding it), so installing the bare name would not
	// give this hit.
	Shadowed bool `json:"shadowed,omitempty"`
	// ShadowedBy names that owning registry.
	ShadowedBy string `json:"shadowedBy,omitempty"`

	score int
	order int
}

// searchRow holds the search fields of one skill, ready to compare with
// lower-cased terms.
type searchRow struct {
	skill *Skill
	name  string
	// desc is the lower-cased description, or, when foldDesc is set, the
	// description itself: ASCII with upper-case letters, compared by
	// folding ASCII case instead of allocating a lower-cased copy.
	desc     string
	foldDesc bool
	keywords []string // lower-cased
}

// rows returns the search fields, computed once per index.
func (x *Index) rows() []searchRow {
	x.search.once.Do(func() {
		rows := make([]searchRow, len(x.Skills))
		for i, s := range x.Skills {
			r := searchRow{skill: s, name: s.Name, desc: s.Description, keywords: s.Keywords}
			switch asciiCase(s.Description) {
			case caseOther:
				r.desc = strings.ToLower(s.Description)
			case caseUpper:
				r.foldDesc = true
			}
			for _, k := range s.Keywords {
				if asciiCase(k) != caseLower {
					r.keywords = make([]string, len(s.Keywords))
					for j, k := range s.Keywords {
						r.keywords[j] = strings.ToLower(k)
					}
					break
				}
			}
			rows[i] = r
		}
		x.search.rows = rows
	})
	return x.search.rows
}

// The letter cases of a string, for asciiCase.
const (
	caseLower = iota // ASCII without upper-case letters: its own lower case
	caseUpper        // ASCII with upper-case letters
	caseOther        // not ASCII
)

// asciiCase classifies s.
func asciiCase(s string) int {
	c := caseLower
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= utf8.RuneSelf:
			return caseOther
		case 'A' <= b && b <= 'Z':
			c = caseUpper
		}
	}
	return c
}

// containsFold reports whether strings.ToLower(s) contains t, for an
// ASCII s and a lower-cased t, without allocating.
func containsFold(s, t string) bool {
	n := len(t)
	switch {
	case n == 0:
		return true
	case n > len(s):
		return false
	}
	c0 := t[0]
	up := c0
	if 'a' <= c0 && c0 <= 'z' {
		up = c0 - ('a' - 'A')
	}
next:
	for i := 0; i+n <= len(s); i++ {
		if s[i] != c0 && s[i] != up {
			continue
		}
		for j := 1; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != t[j] {
				continue next
			}
		}
		return true
	}
	return false
}

// Search finds the skills matching every term of query (split on blanks,
// case-insensitive) across the indexes, given in precedence order. A term
// matches a skill's name exactly, as a prefix, as a substring, a keyword
// (as a substring) or the description (as a substring), ranked in that
// order; the whole query joined with hyphens equal to the name counts as
// an exact match. Hits are ordered by best match class, then by the sum
// of the terms' match strengths, then by name, the name's owner before
// the registries it shadows, then by registry precedence. A hit is
// Shadowed when another registry owns its name (the first trusted
// registry that holds it), so installing the bare name would not give
// this hit. limit <= 0 means no limit; an empty query lists every skill.
func Search(indexes []Loaded, query string, limit int) []Hit {
	terms := strings.Fields(strings.ToLower(query))
	joined := strings.Join(terms, "-")
	var hits []Hit
	for order, l := range indexes {
		if l.Index == nil {
			continue
		}
		for _, r := range l.Index.rows() {
			best, score, ok := matchRow(&r, terms, joined)
			if !ok {
				continue
			}
			s := r.skill
			shadowedBy := nameOwner(indexes, s.Name)
			if shadowedBy == l.Registry {
				shadowedBy = ""
			}
			hits = append(hits, Hit{
				Registry:    l.Registry,
				Name:        s.Name,
				Description: s.Description,
				Keywords:    s.Keywords,
				Latest:      s.Latest,
				Match:       best,
				Shadowed:    shadowedBy != "",
				ShadowedBy:  shadowedBy,
				score:       score,
				order:       order,
			})
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case a.Match != b.Match:
			return int(a.Match) - int(b.Match)
		case a.score != b.score:
			return b.score - a.score
		case a.Name != b.Name:
			return compareStrings(a.Name, b.Name)
		case a.Shadowed != b.Shadowed:
			if a.Shadowed {
				return 1
			}
			return -1
		}
		return a.order - b.order
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit:limit]
	}
	return hits
}

// nameOwner returns the first trusted registry holding name, or "".
func nameOwner(indexes []Loaded, name string) string {
	for _, l := range indexes {
		if l.Index == nil || l.Untrusted {
			continue
		}
		if _, ok := l.Index.Skill(name); ok {
			return l.Registry
		}
	}
	return ""
}

// matchRow scores one skill against the terms: every term must match.
func matchRow(r *searchRow, terms []string, joined string) (Match, int, bool) {
	if len(terms) == 0 {
		return MatchDescription, 0, true
	}
	best, score := matchNone, 0
	if r.name == joined {
		best, score = MatchExactName, int(matchNone-MatchExactName)*len(terms)
	}
	for _, t := range terms {
		m := matchTerm(r, t)
		if m == matchNone {
			return matchNone, 0, false
		}
		best = min(best, m)
		score += int(matchNone - m)
	}
	return best, score, true
}

// matchTerm returns the best match class of one term.
func matchTerm(r *searchRow, t string) Match {
	switch {
	case r.name == t:
		return MatchExactName
	case strings.HasPrefix(r.name, t):
		return MatchNamePrefix
	case strings.Contains(r.name, t):
		return MatchNameSubstring
	}
	for _, k := range r.keywords {
		if strings.Contains(k, t) {
			return MatchKeyword
		}
	}
	if r.foldDesc && containsFold(r.desc, t) || !r.foldDesc && strings.Contains(r.desc, t) {
		return MatchDescription
	}
	return matchNone
}
