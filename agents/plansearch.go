package agents

import "slices"

// searchBudget is the most search steps (nodes of the branch-and-bound
// tree, over every group of agents of one plan) PlanRoots takes before it
// stops and reports its best choice so far as Plan.Inexact. A 25-agent
// table shaped like the real agents needs under a hundred steps on every
// test machine, four copies of it (100 agents) a few thousand
// (TestPlanRootsSearchBudget, TestPlanRootsManyAgents); a group of agents
// sharing twenty roots would need two million only if no branch could be
// cut.
const searchBudget = 1 << 20

// rootProblem is the choice PlanRoots makes, with the paths taken out: n
// candidate roots, numbered in the order PlanRoots met them, and what each
// selected agent reads among them.
//
// # The problem
//
// A choice is a set S of candidates such that every agent reads at least
// one root of S. Its score counts, in order of importance: the agents that
// see the package through two or more roots of S and list it twice
// (byName false); the agents that see it through two or more at all; the
// agents that see it only through roots deprecated for them; the roots in
// S; the agents whose preferred root is not in S. The best choice has the
// lexicographically least score; among choices with equal scores it is
// the one whose bit mask (bit j for candidate j) is numerically least,
// which is the one PlanRoots' earlier exhaustive search over every mask,
// in increasing order, kept. Scores are sums over agents (plus |S|), and
// an agent's share depends only on S ∩ reads(agent).
//
// # Groups
//
// A candidate read by two or more agents is shared, by one agent private
// to it, by none (it cannot arise from the table, but is handled) useless:
// it only adds to |S|, so no best choice holds it. Agents joined, directly
// or through other agents, by a shared candidate form a group. Groups read
// disjoint candidates, so the score of S is the sum of the scores of its
// parts in each group and its mask is the sum of theirs: the best choice
// is the union of each group's best choice, found separately.
//
// # Private roots are completed greedily
//
// Within a group, fix T, the shared candidates in S. Each agent's private
// candidates touch nobody else's share, so the score of S is that of T's
// shares plus, per agent, a part that depends on its own set Q of private
// roots alone (its share, plus |Q|). Adding one vector to both sides
// keeps a lexicographic comparison, so the best S with S ∩ shared = T
// takes for each agent a Q with the least part; and, since different
// agents' private roots are disjoint bits, the least mask among those
// takes for each agent the least such Q. With k = |T ∩ reads(agent)|:
//
//   - k = 0: Q must hold one root, and one is enough: a second would make
//     the agent see the package twice, which outranks everything a second
//     root could gain. Take the root that is not deprecated for the agent
//     if one is, then the preferred root if it is private, then the
//     lowest-numbered one.
//   - k = 1: Q is empty: any private root would make it see it twice.
//   - k ≥ 2: the agent sees it twice whatever Q is. If some root of T it
//     reads is not deprecated for it, Q is empty (a root would only add to
//     |S|). If all are, one private root that is not deprecated for it
//     removes that count, which outranks the root it adds; take the
//     preferred one if it qualifies, else the lowest-numbered; none if no
//     private root qualifies.
//
// So the best choice is T ∪ Q(T) for the T that minimises the score and
// then the mask of T ∪ Q(T): the least mask among best choices has that
// form, because for its T no other completion is better and Q(T) is the
// least of the best completions. Only the shared candidates are searched.
// TestRootProblemMatchesExhaustive and TestPlanRootsMatchesExhaustive
// compare this against the exhaustive search over every mask.
//
// # The search
//
// Each group's shared candidates are decided one at a time (the most read
// first, included before excluded), starting from the choice of every
// agent's preferred root as the best known. A branch is cut when a lower
// bound on every score below it is lexicographically greater than the
// best score known: agents that already see two shared roots count as
// seeing it twice, agents that can no longer see a shared root need a
// private root of their own (or the branch has no choice), and agents
// whose preferred root is shared and excluded miss it. Nothing whose
// score may equal the best is cut, so ties are settled by mask at the
// leaves, and the result does not depend on the order of the search.
type rootProblem struct {
	n      int
	agents []problemAgent
}

// problemAgent is what one selected agent reads among the candidates.
type problemAgent struct {
	// reads are the candidates the agent reads, ascending.
	reads []int
	// deprecated are those of reads deprecated for the agent, ascending.
	deprecated []int
	// pref is the agent's preferred root, one of reads.
	pref int
	// byName says the agent lists a skill once whatever number of roots
	// hold it.
	byName bool
}

// planScore is a choice's score, compared lexicographically; lower is
// better. Its fields are those of rootProblem's problem section, in order.
type planScore [5]int

const (
	scoreListedTwice = iota
	scoreSeenTwice
	scoreOnlyDeprecated
	scoreRoots
	scoreNotPreferred
)

// rootSet is a set of candidates, bit j for candidate j.
type rootSet []uint64

func newRootSet(n int) rootSet   { return make(rootSet, (n+63)/64) }
func (s rootSet) has(j int) bool { return s[j/64]&(1<<(j%64)) != 0 }
func (s rootSet) add(j int)      { s[j/64] |= 1 << (j % 64) }

// compareSets compares two sets of one size as binary numbers.
func compareSets(a, b rootSet) int {
	for w := len(a) - 1; w >= 0; w-- {
		if a[w] != b[w] {
			if a[w] < b[w] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// score returns the score of choice s and whether every agent sees a root
// of it.
func (p *rootProblem) score(s rootSet) (planScore, bool) {
	var sc planScore
	for j := range p.n {
		if s.has(j) {
			sc[scoreRoots]++
		}
	}
	for _, a := range p.agents {
		seen, fresh := 0, 0
		for _, r := range a.reads {
			if s.has(r) {
				seen++
				if !slices.Contains(a.deprecated, r) {
					fresh++
				}
			}
		}
		if seen == 0 {
			return sc, false
		}
		if seen > 1 {
			sc[scoreSeenTwice]++
			if !a.byName {
				sc[scoreListedTwice]++
			}
		}
		if fresh == 0 {
			sc[scoreOnlyDeprecated]++
		}
		if !s.has(a.pref) {
			sc[scoreNotPreferred]++
		}
	}
	return sc, true
}

// solve returns the best choice, the steps the search took and true, or,
// when it needed more than budget steps, the best choice it found and
// false.
func (p *rootProblem) solve(budget int) (best rootSet, steps int, exact bool) {
	readers := make([][]int, p.n)
	for i, a := range p.agents {
		for _, r := range a.reads {
			readers[r] = append(readers[r], i)
		}
	}
	// Groups: union the readers of every shared candidate.
	parent := make([]int, len(p.agents))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, rs := range readers {
		for _, i := range rs[min(1, len(rs)):] {
			parent[find(i)] = find(rs[0])
		}
	}
	groups := map[int][]int{}
	var order []int
	for i := range p.agents {
		g := find(i)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], i)
	}

	best, exact = newRootSet(p.n), true
	for _, g := range order {
		s := newGroupSearch(p, groups[g], readers)
		s.steps, s.budget = steps, budget
		s.run()
		steps = s.steps
		exact = exact && !s.stopped
		for w := range best {
			best[w] |= s.best[w]
		}
	}
	return best, min(steps, budget), exact
}

// groupSearch is the branch-and-bound search over one group's shared
// candidates.
type groupSearch struct {
	p      *rootProblem
	agents []int // the group's agents, as indices into p.agents
	shared []int // the group's shared candidates, in the order decided
	// readers[k] are the group-local agents reading shared[k].
	readers [][]int
	// loneBest[a] is the private root group agent a takes when it sees no
	// shared root, or -1; freshBest[a] is the one it takes when it sees
	// two or more, all deprecated for it, or -1.
	loneBest, freshBest []int
	// prefAt[a] is the position of agent a's preferred root in shared, or
	// -1 when it is private.
	prefAt []int

	// Search state, per group agent: shared roots seen so far, how many of
	// them are not deprecated for it, shared roots it reads still undecided.
	seen, fresh, left []int
	in                []bool // in[k]: shared[k] is chosen
	chosen            int    // shared roots chosen
	lb                planScore
	stranded          int // agents that can see no root at all

	best    rootSet
	bestSc  planScore
	cur     rootSet
	steps   int
	budget  int
	stopped bool
}

func newGroupSearch(p *rootProblem, agents []int, readers [][]int) *groupSearch {
	s := &groupSearch{p: p, agents: agents, best: newRootSet(p.n), cur: newRootSet(p.n)}
	local := map[int]int{}
	for a, i := range agents {
		local[i] = a
	}
	pos := map[int]int{}
	for j, rs := range readers {
		if len(rs) >= 2 {
			if _, ok := local[rs[0]]; ok {
				s.shared = append(s.shared, j)
			}
		}
	}
	// The most read first: they decide the most agents at once.
	slices.SortStableFunc(s.shared, func(x, y int) int { return len(readers[y]) - len(readers[x]) })
	for k, j := range s.shared {
		pos[j] = k
		var rs []int
		for _, i := range readers[j] {
			rs = append(rs, local[i])
		}
		s.readers = append(s.readers, rs)
	}
	n := len(agents)
	s.loneBest, s.freshBest, s.prefAt = make([]int, n), make([]int, n), make([]int, n)
	s.seen, s.fresh, s.left = make([]int, n), make([]int, n), make([]int, n)
	s.in = make([]bool, len(s.shared))
	for a, i := range agents {
		pa := p.agents[i]
		s.loneBest[a], s.freshBest[a], s.prefAt[a] = -1, -1, -1
		if k, ok := pos[pa.pref]; ok {
			s.prefAt[a] = k
		}
		// lone: not deprecated, then preferred, then lowest; fresh: not
		// deprecated only, then preferred, then lowest. reads ascend.
		rank := func(r int) int {
			x := 0
			if slices.Contains(pa.deprecated, r) {
				x += 2
			}
			if r != pa.pref {
				x++
			}
			return x
		}
		for _, r := range pa.reads {
			if _, ok := pos[r]; ok {
				s.left[a]++
				continue
			}
			if len(readers[r]) != 1 {
				continue
			}
			if s.loneBest[a] < 0 || rank(r) < rank(s.loneBest[a]) {
				s.loneBest[a] = r
			}
			if rank(r) < 2 && (s.freshBest[a] < 0 || rank(r) < rank(s.freshBest[a])) {
				s.freshBest[a] = r
			}
		}
	}
	// The best known to start with: every agent's preferred root.
	start := newRootSet(p.n)
	sub := rootProblem{n: p.n}
	for _, i := range agents {
		start.add(p.agents[i].pref)
		sub.agents = append(sub.agents, p.agents[i])
	}
	s.bestSc, _ = sub.score(start)
	copy(s.best, start)
	return s
}

// run searches from the first shared candidate.
func (s *groupSearch) run() { s.visit(0) }

// visit decides shared[k:] and updates the best choice.
func (s *groupSearch) visit(k int) {
	if s.stopped {
		return
	}
	if s.steps++; s.steps > s.budget {
		s.stopped = true
		return
	}
	if s.stranded > 0 || slices.Compare(s.lb[:], s.bestSc[:]) > 0 {
		return
	}
	if k == len(s.shared) {
		s.leaf()
		return
	}
	s.include(k, 1)
	s.visit(k + 1)
	s.include(k, -1)
	s.exclude(k, 1)
	s.visit(k + 1)
	s.exclude(k, -1)
}

// include chooses shared[k] (d = 1) or takes that back (d = -1), keeping
// the lower bound.
func (s *groupSearch) include(k, d int) {
	s.in[k] = d > 0
	s.chosen += d
	s.lb[scoreRoots] += d
	j := s.shared[k]
	for _, a := range s.readers[k] {
		pa := &s.p.agents[s.agents[a]]
		if d < 0 && s.seen[a] == 2 || d > 0 && s.seen[a] == 1 {
			s.lb[scoreSeenTwice] += d
			if !pa.byName {
				s.lb[scoreListedTwice] += d
			}
		}
		s.seen[a] += d
		s.left[a] -= d
		if !slices.Contains(pa.deprecated, j) {
			s.fresh[a] += d
		}
	}
}

// exclude leaves shared[k] out (d = 1) or takes that back (d = -1),
// keeping the lower bound.
func (s *groupSearch) exclude(k, d int) {
	for _, a := range s.readers[k] {
		if d < 0 && s.seen[a] == 0 && s.left[a] == 0 {
			s.need(a, -1)
		}
		s.left[a] -= d
		if d > 0 && s.seen[a] == 0 && s.left[a] == 0 {
			s.need(a, 1)
		}
		if s.prefAt[a] == k {
			s.lb[scoreNotPreferred] += d
		}
	}
}

// need records (d = 1) or forgets (d = -1) that agent a sees no shared
// root and must take a private one.
func (s *groupSearch) need(a, d int) {
	if s.loneBest[a] < 0 {
		s.stranded += d
		return
	}
	s.lb[scoreRoots] += d
}

// leaf completes the choice of shared roots with private ones and keeps
// it if it beats the best.
func (s *groupSearch) leaf() {
	clear(s.cur)
	var sc planScore
	sc[scoreRoots] = s.chosen
	for k, j := range s.shared {
		if s.in[k] {
			s.cur.add(j)
		}
	}
	for a := range s.agents {
		pa := &s.p.agents[s.agents[a]]
		prefIn := s.prefAt[a] >= 0 && s.in[s.prefAt[a]]
		take := -1
		switch {
		case s.seen[a] == 0:
			take = s.loneBest[a]
			if slices.Contains(pa.deprecated, take) {
				sc[scoreOnlyDeprecated]++
			}
		case s.seen[a] == 1:
			if s.fresh[a] == 0 {
				sc[scoreOnlyDeprecated]++
			}
		default:
			sc[scoreSeenTwice]++
			if !pa.byName {
				sc[scoreListedTwice]++
			}
			if s.fresh[a] == 0 {
				if take = s.freshBest[a]; take < 0 {
					sc[scoreOnlyDeprecated]++
				}
			}
		}
		if take >= 0 {
			s.cur.add(take)
			sc[scoreRoots]++
		}
		if !prefIn && take != pa.pref {
			sc[scoreNotPreferred]++
		}
	}
	if c := slices.Compare(sc[:], s.bestSc[:]); c < 0 || c == 0 && compareSets(s.cur, s.best) < 0 {
		s.bestSc = sc
		copy(s.best, s.cur)
	}
}
