package bump

import (
	"slices"
	"strings"
)

// CollectionSchema is the value of a collection report's "schema" field.
const CollectionSchema = "agent-skills.bump-collection-report/1"

// CollectionReport compares two versions of a collection package by
// package: the packages of both sides are paired by name, each pair gets
// its own Report, and the packages only one side has are listed.
type CollectionReport struct {
	Schema string `json:"schema"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Packages are the paired packages' reports, sorted by name.
	Packages []*Report `json:"packages"`
	// Added and Removed are the packages only after, or only before, has.
	Added   []SideInfo `json:"added"`
	Removed []SideInfo `json:"removed"`
	// Summary counts the paired packages per recommendation.
	Summary map[string]int `json:"summary"`
	// Review names the review and the verdicts no package used: those
	// without a package, for a package neither side has, or for a change
	// its package's report does not have ("package:id").
	Review *CollectionReviewUse `json:"review,omitempty"`
}

// CollectionReviewUse says how a review was used across a collection.
type CollectionReviewUse struct {
	Digest string   `json:"digest"`
	Unused []string `json:"unused"`
}

// Undetermined reports whether any paired package's recommendation is
// undetermined.
func (c *CollectionReport) Undetermined() bool {
	return c.Summary[Undetermined] > 0
}

// CompareCollections pairs the packages of before and after by name and
// compares each pair, with the review's verdicts for that package (a
// verdict must name its package). A name that repeats on one side is
// paired once, by its first package.
func CompareCollections(beforeLabel string, before []Side, afterLabel string, after []Side, review *Review) *CollectionReport {
	c := &CollectionReport{Schema: CollectionSchema, Before: beforeLabel, After: afterLabel,
		Packages: []*Report{}, Added: []SideInfo{}, Removed: []SideInfo{}, Summary: map[string]int{}}
	bm, am := byName(before), byName(after)
	var unused []string
	if review != nil {
		c.Review = &CollectionReviewUse{Digest: review.Digest(), Unused: []string{}}
		for _, v := range review.Verdicts {
			_, inB := bm[v.Package]
			_, inA := am[v.Package]
			if v.Package == "" || !inB || !inA {
				unused = append(unused, v.Package+":"+v.ID)
			}
		}
	}
	for _, name := range sortedKeys(bm) {
		b := bm[name]
		a, ok := am[name]
		if !ok {
			c.Removed = append(c.Removed, info(b))
			continue
		}
		var sub *Review
		if review != nil {
			sub = &Review{Schema: review.Schema, digest: review.digest}
			for _, v := range review.Verdicts {
				if v.Package == name {
					sub.Verdicts = append(sub.Verdicts, v)
				}
			}
		}
		r := Compare(b, a, sub)
		if r.Review != nil {
			for _, id := range r.Review.Unused {
				unused = append(unused, name+":"+id)
			}
		}
		c.Packages = append(c.Packages, r)
		c.Summary[r.Recommendation]++
	}
	for _, name := range sortedKeys(am) {
		if _, ok := bm[name]; !ok {
			c.Added = append(c.Added, info(am[name]))
		}
	}
	if c.Review != nil {
		slices.Sort(unused)
		c.Review.Unused = append(c.Review.Unused, slices.Compact(unused)...)
	}
	return c
}

func byName(sides []Side) map[string]Side {
	m := map[string]Side{}
	for _, s := range sides {
		if _, ok := m[s.Package.Contract.Name]; !ok {
			m[s.Package.Contract.Name] = s
		}
	}
	return m
}

func sortedKeys(m map[string]Side) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, strings.Compare)
	return out
}
