package resolve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/Masterminds/semver/v3"
)

// randomGraph is a small generated registry and a set of requests.
type randomGraph struct {
	src   *memSource
	names []string
	vers  map[string][]memVersion
	refs  []Reference
}

var (
	propVersions = []string{"0.9.0", "1.0.0", "1.1.0", "1.2.0", "1.3.0-beta.1", "2.0.0", "2.1.0"}
	propRanges   = []string{"^1", "~1.1", ">=1.1", "^2", "1.0.0", "*", "<2", "1.x", ">=1.3.0-0 <2", "1.2.0"}
)

func genGraph(r *rand.Rand) randomGraph {
	g := randomGraph{src: newMemSource(), vers: map[string][]memVersion{}}
	n := 3 + r.IntN(3)
	for i := range n {
		g.names = append(g.names, fmt.Sprintf("n%d", i))
	}
	for _, name := range g.names {
		perm := r.Perm(len(propVersions))[:1+r.IntN(3)]
		for _, p := range perm {
			v := memVersion{pub: Published{Version: propVersions[p], Deprecated: r.IntN(4) == 0}}
			for range r.IntN(3) {
				d := g.names[r.IntN(n)]
				if d == name || slices.ContainsFunc(v.req.Dependencies, func(c Constraint) bool { return c.Name == d }) {
					continue
				}
				v.req.Dependencies = append(v.req.Dependencies, Constraint{Name: d, Range: propRanges[r.IntN(len(propRanges))]})
			}
			g.vers[name] = append(g.vers[name], v)
			g.src.add("official", name, v)
		}
	}
	for range 1 + r.IntN(2) {
		ref := Reference{Name: g.names[r.IntN(n)]}
		if r.IntN(3) > 0 {
			ref.Range = propRanges[r.IntN(len(propRanges))]
		}
		g.refs = append(g.refs, ref)
	}
	return g
}

// valid reports whether assign (name → version) is an acceptable plan for
// g: requests and dependencies satisfied, deprecated versions only when
// named exactly, every name reachable from a request, and no cycle.
func (g randomGraph) valid(assign map[string]string) bool {
	byVersion := func(name, v string) (memVersion, bool) {
		for _, mv := range g.vers[name] {
			if mv.pub.Version == v {
				return mv, true
			}
		}
		return memVersion{}, false
	}
	type con struct{ name, rng string }
	var cons []con
	for _, r := range g.refs {
		cons = append(cons, con{r.Name, r.Range})
	}
	for name, v := range assign {
		mv, ok := byVersion(name, v)
		if !ok {
			return false
		}
		for _, d := range mv.req.Dependencies {
			cons = append(cons, con{d.Name, d.Range})
		}
	}
	exact := map[string]bool{}
	for _, c := range cons {
		v, ok := assign[c.name]
		if !ok {
			return false
		}
		cs, err := parseRange(c.rng)
		if err != nil || !cs.Check(semver.MustParse(v)) {
			return false
		}
		if exactVersion(c.rng) == v {
			exact[c.name] = true
		}
	}
	for name, v := range assign {
		if mv, _ := byVersion(name, v); mv.pub.Deprecated && !exact[name] {
			return false
		}
	}
	// Reachability and acyclicity over the selected edges.
	edges := func(name string) []string {
		mv, _ := byVersion(name, assign[name])
		var out []string
		for _, d := range mv.req.Dependencies {
			out = append(out, d.Name)
		}
		return out
	}
	seen := map[string]bool{}
	var queue []string
	for _, r := range g.refs {
		if !seen[r.Name] {
			seen[r.Name] = true
			queue = append(queue, r.Name)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, d := range edges(x) {
			if !seen[d] {
				seen[d] = true
				queue = append(queue, d)
			}
		}
	}
	if len(seen) != len(assign) {
		return false
	}
	state := map[string]int{}
	var cyclic func(x string) bool
	cyclic = func(x string) bool {
		state[x] = 1
		for _, d := range edges(x) {
			if state[d] == 1 || (state[d] == 0 && cyclic(d)) {
				return true
			}
		}
		state[x] = 2
		return false
	}
	for name := range assign {
		if state[name] == 0 && cyclic(name) {
			return false
		}
	}
	return true
}

// bruteForce reports whether any assignment of versions (or absence) to
// the names of g is valid.
func (g randomGraph) bruteForce() bool {
	assign := map[string]string{}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(g.names) {
			return g.valid(assign)
		}
		name := g.names[i]
		if try(i + 1) {
			return true
		}
		for _, mv := range g.vers[name] {
			assign[name] = mv.pub.Version
			if try(i + 1) {
				delete(assign, name)
				return true
			}
		}
		delete(assign, name)
		return false
	}
	return try(0)
}

// TestResolveProperties checks, over a few hundred seeded random graphs,
// that every plan is valid (each version satisfies every constraint on
// it), that the plan does not depend on the order of the input, and that
// the resolver finds a plan whenever brute force finds one.
func TestResolveProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(uint64(propSeed), 2026))
	solved, failed := 0, 0
	for i := range propGraphs {
		g := genGraph(r)
		opts := Options{MaxSteps: 1_000_000}
		plan, err := Resolve(context.Background(), g.src, g.refs, opts)
		exists := g.bruteForce()
		desc := fmt.Sprintf("graph %d (requests %v)", i, g.refs)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: Resolve error %v is not an *Error", desc, err)
			}
			if exists {
				t.Errorf("%s: Resolve = %v, want a plan (brute force found one)\n%s", desc, err, dumpGraph(g))
			}
			failed++
			continue
		}
		solved++
		assign := map[string]string{}
		for _, s := range plan.Skills {
			assign[s.Name] = s.Version
		}
		if !g.valid(assign) {
			t.Errorf("%s: Resolve = %v, which is not a valid plan\n%s", desc, assign, dumpGraph(g))
		}
		// Any order of the requests and of the versions gives the same plan.
		refs := slices.Clone(g.refs)
		r.Shuffle(len(refs), func(i, j int) { refs[i], refs[j] = refs[j], refs[i] })
		other, err := Resolve(context.Background(), g.src.reversed(), refs, opts)
		if err != nil || other.String() != plan.String() {
			t.Errorf("%s: Resolve with shuffled input = %v, %v; want %v", desc, other, err, plan)
		}
	}
	t.Logf("%d graphs solved, %d without a solution", solved, failed)
	if solved < 50 || failed < 50 {
		t.Errorf("generator gave %d solvable and %d unsolvable graphs, want at least 50 of each", solved, failed)
	}
}

func dumpGraph(g randomGraph) string {
	s := ""
	for _, name := range g.names {
		for _, mv := range g.vers[name] {
			s += fmt.Sprintf("  %s %s deprecated=%v %v\n", name, mv.pub.Version, mv.pub.Deprecated, mv.req.Dependencies)
		}
	}
	return s
}

// propSeed and propGraphs size TestResolveProperties; raise them locally
// for a longer search.
const (
	propSeed   = 4
	propGraphs = 400
)
