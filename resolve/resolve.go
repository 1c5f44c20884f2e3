package resolve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// root is a request as the search sees it: a range on a name and the
// chain link that explains it.
type root struct {
	name, rng string
	why       *step
}

// Resolve chooses a version of every skill that refs need, reading the
// registries only through src. The same requests, pins and registry
// contents give the same Plan, byte for byte, whatever the order of refs
// and of the versions src returns.
//
// Failures are *Error values: ASK_SKILL_NOT_FOUND, ASK_VERSION_NOT_FOUND,
// ASK_DEPENDENCY_CONFLICT, ASK_DEPENDENCY_CYCLE, ASK_RESOLUTION_LIMIT,
// ASK_DEPENDENCY_RANGE_INVALID, ASK_REFERENCE_INVALID and ASK_USAGE.
// Errors from src other than ErrNotFound are returned wrapped.
func Resolve(ctx context.Context, src Source, refs []Reference, opts Options) (*Plan, error) {
	if opts.WithSuggests && opts.NoDeps {
		return nil, &Error{
			Code:    CodeUsage,
			Message: "--with-suggests cannot be combined with --no-deps",
			Detail: []string{
				"Suggestions are resolved with their ordinary dependencies, which --no-deps turns off.",
			},
			Try: []string{"drop --no-deps, or drop --with-suggests"},
		}
	}
	if opts.WithSuggests && len(refs) == 0 {
		return nil, &Error{
			Code:    CodeUsage,
			Message: "--with-suggests needs the names of the skills whose suggestions to add",
			Detail:  []string{"Suggestions are expanded only for skills named on the command line."},
			Try:     []string{"name the skills, e.g. agent-skills update --with-suggests java-performance"},
		}
	}
	refs = slices.Clone(refs)
	slices.SortFunc(refs, func(a, b Reference) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Registry, b.Registry), cmp.Compare(a.Range, b.Range))
	})
	registry := make(map[string]string)
	for _, r := range refs {
		if !format.ValidName(r.Name) {
			return nil, referenceError(r.String(), fmt.Sprintf("%q is not a valid skill name", r.Name))
		}
		if _, err := parseRange(r.Range); err != nil {
			return nil, referenceError(r.String(), fmt.Sprintf("%q is not a version or range: %v", r.Range, err))
		}
		if r.Registry == "" {
			continue
		}
		if prev, ok := registry[r.Name]; ok && prev != r.Registry {
			return nil, referenceError(r.String(), fmt.Sprintf("%q is also requested from registry %q; a name comes from one registry", r.Name, prev))
		}
		registry[r.Name] = r.Registry
	}
	// Lock pins: the registry recorded in the lock is where the name is
	// looked up, unless a qualified request says otherwise; the version is
	// preferred unless a request gives the name an explicit range.
	pins := make(map[string]Pin)
	for name, p := range opts.Pins {
		if reg, ok := registry[name]; ok && p.Registry != "" && reg != p.Registry {
			continue
		}
		if _, ok := registry[name]; !ok && p.Registry != "" {
			registry[name] = p.Registry
		}
		pins[name] = p
	}
	for _, r := range refs {
		if !r.Bare() {
			delete(pins, r.Name)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	cat := newCatalog(ctx, src, registry, pins, opts.Parallelism)
	defer cat.close()
	defer cancel()

	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	steps := 0
	run := func(roots []root) (*solver, error) {
		return search(ctx, cat, roots, opts.NoDeps, &steps, limit)
	}

	// The requests' links are made in one block and render their words
	// on demand (a 10,000-name install holds 10,000 of them).
	roots := make([]root, 0, len(refs))
	whys := make([]step, len(refs))
	requested := make(map[string]bool, len(refs))
	for i := range refs {
		r := &refs[i]
		requested[r.Name] = true
		why := &whys[i]
		why.ref = r
		rng := r.Range
		if p, ok := pins[r.Name]; ok && r.Bare() {
			// dep names the pinned name (lockedName) and the locked version.
			why.locked, why.dep = true, &Constraint{Name: r.Name, Range: p.Version}
			rng = "=" + p.Version
		}
		roots = append(roots, root{name: r.Name, rng: rng, why: why})
	}
	s, err := run(roots)
	if err != nil {
		return nil, err
	}
	var warnings []Warning
	suggested := make(map[string]bool)
	if opts.WithSuggests {
		frozen, extra, warns, err := suggestionRoots(s, refs, requested, pins)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, warns...)
		if len(extra) > 0 {
			for _, r := range extra {
				suggested[r.name] = true
			}
			if s, err = run(append(frozen, extra...)); err != nil {
				return nil, err
			}
		}
	}
	return buildPlan(s, requested, suggested, warnings), nil
}

// search resolves roots. It first runs the greedy breadth-first pass of
// DESIGN §7, whose result stands whenever it succeeds. When the greedy
// pass meets a conflict, narrow computes a preferred version per name and
// the backtracking search runs, trying preferred versions first. Two
// relaxations may rerun the whole: a first pass ignores cycles and, only
// if its result has one, a second pass rejects the candidates that close
// cycles; and when a failure involved optional dependencies, the first of
// them is dropped (with a warning) and the search starts again. The error
// reported is the greedy pass's first conflict, the one a user can act on.
func search(ctx context.Context, cat *catalog, roots []root, noDeps bool, steps *int, limit int) (*solver, error) {
	dropped := make(map[optEdge]bool)
	cycles := false
	greedy := true
	var prefs map[string]int
	var greedyErr *Error
	var greedyInvolved []optEdge
	for {
		s := newSolver(ctx, cat, steps, limit)
		s.noDeps, s.cycles, s.dropped, s.greedy, s.prefs = noDeps, cycles, dropped, greedy, prefs
		ok, err := s.solveRoots(roots)
		if err == errGreedyFailed {
			greedyErr, greedyInvolved = s.first, s.involved
			greedy = false
			if prefs, err = narrow(cat, roots); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			if e, isErr := err.(*Error); isErr && e.Code == CodeResolutionLimit && greedyErr != nil {
				return nil, limitError(limit, greedyErr)
			}
			return nil, err
		}
		if ok {
			if !cycles && s.findCycle() != nil {
				cycles, greedy, prefs = true, true, nil
				continue
			}
			return s, nil
		}
		if greedyErr == nil {
			greedyErr = s.first
		}
		retry := false
		for _, e := range append(greedyInvolved, s.involved...) {
			if !dropped[e] {
				dropped[e] = true
				retry = true
				break
			}
		}
		if !retry {
			if greedyErr == nil {
				return nil, errors.New("resolve: the search failed without recording a cause")
			}
			return nil, greedyErr
		}
		greedy, prefs, greedyErr, greedyInvolved = true, nil, nil, nil
	}
}

// solveRoots places the requests' constraints and runs the search. The
// constraints of all requests are placed before any is checked, so that
// one request naming a deprecated version exactly admits it for another.
func (s *solver) solveRoots(roots []root) (bool, error) {
	for _, r := range roots {
		s.cat.prefetchVersions(r.name)
	}
	for _, r := range roots {
		n, err := s.node(r.name)
		if err != nil {
			return false, err
		}
		if n.e.notFound {
			s.first = notFoundError(r.name, nil)
			return false, nil
		}
		mk, err := n.e.mask(r.rng, s.cat)
		if err != nil {
			return false, referenceError(r.name+"@"+r.rng, err.Error())
		}
		s.pushCons(n, pconstraint{m: mk, why: r.why, level: -1})
		if n.level < 0 {
			s.enqueue(n)
		}
	}
	for _, n := range s.queue {
		if anyAllowed(n, nil, !s.greedy) {
			continue
		}
		last := n.cons[len(n.cons)-1]
		n.cons = n.cons[:len(n.cons)-1]
		for i, c := range n.cons {
			if alone := (&node{e: n.e}); !anyAllowed(alone, c.m, false) {
				last, n.cons[i] = c, last // report the range that matches nothing
				break
			}
		}
		s.failConflict(n, last)
		if s.greedy {
			// A later dependency may name a deprecated version exactly:
			// let the backtracking search, which admits them, decide.
			return false, errGreedyFailed
		}
		return false, nil
	}
	ok, _, err := s.solve(0)
	return ok, err
}

// suggestionRoots builds the second-phase requests: the requested skills
// frozen at their selected versions, plus the direct suggestions of those
// versions that are not requested themselves. Unknown suggestions become
// warnings.
func suggestionRoots(s *solver, refs []Reference, requested map[string]bool, pins map[string]Pin) (frozen, extra []root, warns []Warning, err error) {
	by := make(map[string][]*node)
	var names []string
	seenRef := make(map[string]bool)
	for _, r := range refs {
		if seenRef[r.Name] {
			continue
		}
		seenRef[r.Name] = true
		n := s.nodes[r.Name]
		frozen = append(frozen, root{
			name: r.Name,
			rng:  "=" + n.e.vers[n.sel].raw,
			why:  &step{text: fmt.Sprintf("you requested %s, frozen at %s while adding suggestions", r.String(), n.e.vers[n.sel].raw)},
		})
		req, err := s.cat.requirements(n.e, n.sel)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, sg := range req.suggests {
			if requested[sg] {
				continue
			}
			if _, ok := by[sg]; !ok {
				names = append(names, sg)
			}
			by[sg] = append(by[sg], n)
		}
	}
	slices.Sort(names)
	for _, sg := range names {
		s.cat.prefetchVersions(sg)
	}
	for _, sg := range names {
		e, err := s.cat.entry(sg)
		if err != nil {
			return nil, nil, nil, err
		}
		var who []string
		for _, n := range by[sg] {
			who = append(who, n.e.name+"@"+n.e.vers[n.sel].raw)
		}
		if e.notFound || !format.ValidName(sg) {
			warns = append(warns, Warning{
				Code:    CodeSuggestionNotFound,
				Message: fmt.Sprintf("suggested skill %q (suggested by %s) was not found in any registry; skipped", sg, strings.Join(who, ", ")),
				Fix:     fmt.Sprintf("agent-skills search %s", sg),
			})
			continue
		}
		for _, n := range by[sg] {
			prev := n.chain()
			for _, c := range n.cons {
				if c.level < 0 {
					prev = c.why
					break
				}
			}
			why := &step{text: fmt.Sprintf("%s@%s suggests %s", n.e.name, n.e.vers[n.sel].raw, sg), prev: prev}
			rng := ""
			if p, ok := pins[sg]; ok {
				why.text += fmt.Sprintf(", locked at %s in skills.lock", p.Version)
				why.locked, why.dep = true, &Constraint{Name: sg}
				rng = "=" + p.Version
			}
			extra = append(extra, root{name: sg, rng: rng, why: why})
		}
	}
	return frozen, extra, warns, nil
}

// buildPlan turns a successful search into a sorted Plan.
func buildPlan(s *solver, requested, suggested map[string]bool, warnings []Warning) *Plan {
	p := &Plan{Skills: make([]Selection, 0, len(s.queue))}
	// The versions are copied, once each: the source's strings may be
	// slices of a whole registry index, which a plan that outlives the
	// resolution would otherwise keep in memory (10,000 selections of
	// "1.0.0" share one copy).
	versions := map[string]string{}
	version := func(v string) string {
		c, ok := versions[v]
		if !ok {
			c = strings.Clone(v)
			versions[v] = c
		}
		return c
	}
	for _, n := range s.queue {
		sel := Selection{
			Name:         n.e.name,
			Version:      version(n.e.vers[n.sel].raw),
			Registry:     n.e.owner,
			Role:         RoleDependency,
			Deprecated:   n.e.vers[n.sel].deprecated,
			Dependencies: make(map[string]string, len(n.deps)),
		}
		switch {
		case requested[sel.Name]:
			sel.Role = RoleRequested
		case suggested[sel.Name]:
			sel.Role = RoleSuggested
		}
		for _, d := range n.deps {
			sel.Dependencies[d.to.e.name] = version(d.to.e.vers[d.to.sel].raw)
		}
		p.Skills = append(p.Skills, sel)
		for _, sk := range n.skips {
			warnings = append(warnings, Warning{
				Code:    CodeOptionalDependencySkipped,
				Message: fmt.Sprintf("optional dependency %s of %s@%s skipped: %s", constraintText(sk.dep), sel.Name, sel.Version, sk.reason),
				Fix:     fmt.Sprintf("agent-skills info %s to see which versions exist", sk.dep.Name),
			})
		}
		if sel.Deprecated {
			warnings = append(warnings, Warning{
				Code:    CodeVersionDeprecated,
				Message: fmt.Sprintf("%s@%s is deprecated", sel.Name, sel.Version),
				Fix:     fmt.Sprintf("agent-skills info %s to find a supported version", sel.Name),
			})
		}
	}
	slices.SortFunc(p.Skills, func(a, b Selection) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(warnings, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	p.Warnings = slices.Compact(warnings)
	return p
}
