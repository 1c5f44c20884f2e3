package format

import "slices"

// Similar returns the candidates that are a typing slip away from s —
// within an edit distance of a third of s's length, at least 1 and at
// most 2 — nearest first, ties in the order given, without repeats and
// without s itself. Messages use it to ask "did you mean …?" about a
// name that names nothing: a skill no registry has, an agent id no
// adapter answers to. The distance is Levenshtein's, by bytes: names are
// ASCII.
func Similar(s string, candidates []string) []string {
	limit := min(max(len(s)/3, 1), 2)
	type near struct {
		name string
		dist int
	}
	var found []near
	for _, c := range candidates {
		if c == s || slices.ContainsFunc(found, func(n near) bool { return n.name == c }) {
			continue
		}
		if abs(len(c)-len(s)) > limit {
			continue
		}
		if d := editDistance(s, c); d <= limit {
			found = append(found, near{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.dist - b.dist })
	out := make([]string, len(found))
	for i, n := range found {
		out[i] = n.name
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
