package resolve

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// step is one link of a requirement chain: "you requested a@^1", then
// "a@1.0.0 requires b ^1.2", and so on. Chains are immutable and shared.
type step struct {
	text     string        // the link's words, for suggestions and frozen requests
	ref      *Reference    // for a request: the reference, rendered on demand
	from     *catalogEntry // for a dependency link: the skill and version
	idx      int32         // that declare it, and the dependency itself
	locked   bool          // a request resolved to a lock pin; dep names it
	dep      *Constraint
	prev     *step
	optional *optEdge // set when this link is an optional dependency
}

// label renders one link. Dependency links are rendered on demand: most
// are never shown.
func (s *step) label() string {
	switch {
	case s.text != "":
		return s.text
	case s.ref != nil && s.locked:
		return "you requested " + s.ref.String() + ", locked at " + s.dep.Range + " in skills.lock"
	case s.ref != nil:
		return "you requested " + s.ref.String()
	case s.optional != nil:
		return s.from.name + "@" + s.from.vers[s.idx].raw + " optionally requires " + constraintText(*s.dep)
	default:
		return s.from.name + "@" + s.from.vers[s.idx].raw + " requires " + constraintText(*s.dep)
	}
}

// lockedName returns the name a lock-pinned request names, or "".
func (s *step) lockedName() string {
	if !s.locked {
		return ""
	}
	return s.dep.Name
}

// render joins the chain from its root: "you requested a → a@1.0.0 requires b ^1".
func (s *step) render() string {
	var parts []string
	for p := s; p != nil; p = p.prev {
		parts = append(parts, p.label())
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " → ")
}

// optEdge identifies an optional dependency of one version.
type optEdge struct{ parent, version, dep string }

// pconstraint is a range on a name, why it is there, and the level of the
// choice that added it (-1 for requests).
type pconstraint struct {
	m     *rangeMask
	why   *step
	level int
}

// edge is a dependency of a selected version.
type edge struct {
	to       *node
	why      *step
	optional bool
}

// skip records an optional dependency that was left out, and why.
type skip struct {
	dep    Constraint
	reason string
}

// node is the search state of one name.
type node struct {
	e       *catalogEntry
	cons    []pconstraint
	level   int // position in the queue, -1 when not queued
	sel     int // selected version index, -1 while undecided
	deps    []edge
	skips   []skip
	consBuf [2]pconstraint // the first constraints, without an allocation
}

func (n *node) chain() *step { return n.cons[0].why }

// errGreedyFailed stops a greedy pass at its first rejected candidate.
var errGreedyFailed = errors.New("greedy pass failed")

type undoKind uint8

const (
	undoCons undoKind = iota
	undoQueue
	undoSel
	undoSkip
)

type undoRec struct {
	kind undoKind
	n    *node
}

// slab hands out pointers to values allocated in chunks, which spares the
// allocator and the garbage collector one object per value. A chunk lives
// as long as any of its values is referenced.
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 256)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// levels is a conflict set: the levels of the choices a failure depends on.
type levels map[int]struct{}

func (l *levels) add(lv int) {
	if lv < 0 {
		return
	}
	if *l == nil {
		*l = make(levels)
	}
	(*l)[lv] = struct{}{}
}

func (l *levels) merge(o levels) {
	for lv := range o {
		l.add(lv)
	}
}

// solver is one run of the backtracking search. Choices are made in queue
// order — breadth-first from the requests, names sorted at every fan-out —
// and each name tries its lock pin first, then its versions from the
// highest down. Without conflicts this is exactly the greedy breadth-first
// resolution; on a conflict it backjumps to the most recent choice the
// conflict depends on (conflict-directed backjumping) and tries that
// choice's next candidate.
type solver struct {
	ctx     context.Context
	cat     *catalog
	noDeps  bool
	cycles  bool // reject candidates that close a dependency cycle
	dropped map[optEdge]bool
	steps   *int
	limit   int
	greedy  bool           // stop at the first rejected candidate
	prefs   map[string]int // preferred version index per name, from narrow

	nodes map[string]*node
	queue []*node
	undo  []undoRec

	nodeSlab slab[node]
	stepSlab slab[step]

	first    *Error    // the first failure met, reported if nothing works
	involved []optEdge // optional edges that took part in failures, in order
	seen     map[optEdge]bool
}

func newSolver(ctx context.Context, cat *catalog, steps *int, limit int) *solver {
	return &solver{
		ctx:     ctx,
		cat:     cat,
		dropped: make(map[optEdge]bool),
		steps:   steps,
		limit:   limit,
		nodes:   make(map[string]*node),
		seen:    make(map[optEdge]bool),
	}
}

// node returns the state of name, fetching its versions on first use.
func (s *solver) node(name string) (*node, error) {
	if n, ok := s.nodes[name]; ok {
		return n, nil
	}
	e, err := s.cat.entry(name)
	if err != nil {
		return nil, err
	}
	n := s.nodeSlab.new()
	*n = node{e: e, level: -1, sel: -1}
	n.cons = n.consBuf[:0]
	s.nodes[name] = n
	return n, nil
}

func (s *solver) pushCons(n *node, c pconstraint) {
	n.cons = append(n.cons, c)
	s.record(undoCons, n)
}

// record logs a change for rollback. The greedy pass never rolls back
// (its first failure ends it), so it keeps no log.
func (s *solver) record(kind undoKind, n *node) {
	if !s.greedy {
		s.undo = append(s.undo, undoRec{kind, n})
	}
}

func (s *solver) enqueue(n *node) {
	n.level = len(s.queue)
	s.queue = append(s.queue, n)
	s.record(undoQueue, n)
}

func (s *solver) rollback(mark int) {
	for len(s.undo) > mark {
		r := s.undo[len(s.undo)-1]
		s.undo = s.undo[:len(s.undo)-1]
		switch r.kind {
		case undoCons:
			r.n.cons = r.n.cons[:len(r.n.cons)-1]
		case undoQueue:
			s.queue = s.queue[:len(s.queue)-1]
			r.n.level = -1
		case undoSel:
			r.n.sel = -1
			r.n.deps = r.n.deps[:0]
			r.n.skips = r.n.skips[:0]
		case undoSkip:
			r.n.skips = r.n.skips[:len(r.n.skips)-1]
		}
	}
}

// allowed reports whether version i of n satisfies every constraint on n
// (and extra, when not nil) and is eligible: not deprecated, unless a
// constraint or the lock pin names it exactly. With lax, deprecated
// versions are eligible too: the backtracking search tries them last and
// checks at the end that something named each one exactly (see
// unnamedDeprecated), because the exact range may arrive after the choice.
func allowed(n *node, i int, extra *rangeMask, lax bool) bool {
	e := n.e
	exact := i == int(e.pin)
	for _, c := range n.cons {
		if !c.m.has(e, i) {
			return false
		}
		exact = exact || c.m.exact == i
	}
	if extra != nil {
		if !extra.has(e, i) {
			return false
		}
		exact = exact || extra.exact == i
	}
	return lax || !e.vers[i].deprecated || exact
}

func anyAllowed(n *node, extra *rangeMask, lax bool) bool {
	for i := range n.e.vers {
		if allowed(n, i, extra, lax) {
			return true
		}
	}
	return false
}

// unnamedDeprecated returns the conflict set of the first selected
// deprecated version that no constraint or pin names exactly, or nil.
func (s *solver) unnamedDeprecated() levels {
	for _, n := range s.queue {
		if !n.e.vers[n.sel].deprecated || allowed(n, n.sel, nil, false) {
			continue
		}
		var cs levels
		cs.add(n.level)
		for _, c := range n.cons {
			cs.add(c.level)
		}
		return cs
	}
	return nil
}

// candidates yields the versions of n to try, in order: the lock pin when
// it is allowed, then the preferred version (see narrow) when there is
// one and it is allowed, then every other allowed version, highest first,
// and with lax, then the deprecated versions no range names, highest
// first. It tests each version only when asked for the next one: the
// constraints on n are the same at every call, because each try is rolled
// back.
type candidates struct {
	n    *node
	pref int
	lax  bool
	pos  int
}

// next returns the next version index to try, or -1.
func (c *candidates) next() int {
	pin, nv := int(c.n.e.pin), len(c.n.e.vers)
	for {
		pos := c.pos
		c.pos++
		switch {
		case pos == 0:
			if pin >= 0 && allowed(c.n, pin, nil, c.lax) {
				return pin
			}
		case pos == 1:
			if c.pref >= 0 && c.pref != pin && allowed(c.n, c.pref, nil, c.lax) {
				return c.pref
			}
		case pos-2 < nv:
			if i := pos - 2; i != pin && i != c.pref && allowed(c.n, i, nil, false) {
				return i
			}
		case c.lax && pos-2-nv < nv:
			if i := pos - 2 - nv; i != pin && i != c.pref && !allowed(c.n, i, nil, false) && allowed(c.n, i, nil, true) {
				return i
			}
		default:
			return -1
		}
	}
}

// step counts one unit of backtracking and enforces the budget.
func (s *solver) step() error {
	*s.steps++
	if *s.steps > s.limit {
		return limitError(s.limit, s.first)
	}
	return nil
}

// solve decides the names from level on. It reports success, or the
// conflict set of the failure, or a fatal error.
func (s *solver) solve(level int) (bool, levels, error) {
	if level == len(s.queue) {
		if !s.greedy {
			if cs := s.unnamedDeprecated(); cs != nil {
				return false, cs, nil
			}
		}
		return true, nil, nil
	}
	n := s.queue[level]
	var cs levels
	pref := -1
	if p, ok := s.prefs[n.e.name]; ok {
		pref = p
	}
	cands := candidates{n: n, pref: pref, lax: !s.greedy}
	for i := cands.next(); i >= 0; i = cands.next() {
		if !s.greedy && !s.noDeps {
			dead, err := s.dead(n.e, i)
			if err != nil {
				return false, nil, err
			}
			if dead {
				for _, c := range n.cons {
					s.noteInvolved(c.why)
				}
				continue
			}
		}
		mark := len(s.undo)
		ok, rej, err := s.apply(n, i, level)
		if err != nil {
			return false, nil, err
		}
		if !ok {
			if s.greedy {
				return false, nil, errGreedyFailed
			}
			s.rollback(mark)
			if err := s.step(); err != nil {
				return false, nil, err
			}
			cs.merge(rej)
			continue
		}
		done, sub, err := s.solve(level + 1)
		if err != nil || done {
			return done, nil, err
		}
		s.rollback(mark)
		if err := s.step(); err != nil {
			return false, nil, err
		}
		if _, ok := sub[level]; !ok {
			return false, sub, nil // this choice is not to blame: jump back
		}
		delete(sub, level)
		cs.merge(sub)
	}
	if s.greedy {
		return false, nil, errGreedyFailed // no version left to try
	}
	for _, c := range n.cons {
		cs.add(c.level)
	}
	return false, cs, nil
}

// apply selects version i of n and adds its requirements, checking each
// against the choices made so far. It reports false, with the conflict
// set, when the version cannot be used.
func (s *solver) apply(n *node, i, level int) (bool, levels, error) {
	if err := s.ctx.Err(); err != nil {
		return false, nil, err
	}
	n.sel = i
	s.record(undoSel, n)
	if s.noDeps {
		return true, nil, nil
	}
	r, err := s.cat.requirements(n.e, i)
	if err != nil {
		return false, nil, err
	}
	for _, d := range r.deps {
		s.cat.prefetchVersions(d.Name)
	}
	for _, d := range r.optional {
		s.cat.prefetchVersions(d.Name)
	}
	name, ver := n.e.name, n.e.vers[i].raw
	if n.deps == nil {
		n.deps = make([]edge, 0, len(r.deps)+len(r.optional))
	}
	for k := range r.deps {
		d := r.deps[k]
		why := s.stepSlab.new()
		*why = step{from: n.e, idx: int32(i), dep: &r.deps[k], prev: n.chain()}
		if d.Name == name {
			s.failCycle([]edge{{to: n, why: why}})
			return false, nil, nil
		}
		m, err := s.node(d.Name)
		if err != nil {
			return false, nil, err
		}
		if m.e.notFound {
			s.noteInvolved(why)
			if s.first == nil {
				s.first = notFoundError(d.Name, why)
			}
			return false, nil, nil
		}
		mk, err := m.e.mask(d.Range, s.cat)
		if err != nil {
			return false, nil, rangeError(name, ver, d, err)
		}
		c := pconstraint{m: mk, why: why, level: level}
		if m.sel >= 0 {
			if !mk.has(m.e, m.sel) {
				s.failConflict(m, c)
				var cs levels
				cs.add(m.level)
				return false, cs, nil
			}
			if s.cycles {
				if path := s.path(m, n); path != nil {
					s.failCycle(append(path, edge{to: m, why: why}))
					var cs levels
					for _, e := range path {
						cs.add(e.to.level)
					}
					cs.add(m.level)
					delete(cs, level)
					return false, cs, nil
				}
			}
		} else if !anyAllowed(m, mk, !s.greedy) {
			s.failConflict(m, c)
			var cs levels
			for _, pc := range m.cons {
				cs.add(pc.level)
			}
			return false, cs, nil
		}
		s.pushCons(m, c)
		n.deps = append(n.deps, edge{to: m, why: why})
		if m.level < 0 {
			s.enqueue(m)
		}
	}
	for k := range r.optional {
		d := r.optional[k]
		oe := optEdge{name, ver, d.Name}
		why := &step{from: n.e, idx: int32(i), dep: &r.optional[k], prev: n.chain(), optional: &oe}
		reason, err := s.tryOptional(n, d, why, level)
		if err != nil {
			return false, nil, err
		}
		if reason != "" {
			n.skips = append(n.skips, skip{dep: d, reason: reason})
			s.record(undoSkip, n)
		}
	}
	return true, nil, nil
}

// tryOptional adds an optional dependency when it fits the choices made so
// far, and otherwise returns why it was skipped.
func (s *solver) tryOptional(n *node, d Constraint, why *step, level int) (string, error) {
	if s.dropped[*why.optional] {
		return "it conflicts with other requirements", nil
	}
	if d.Name == n.e.name {
		return "a skill cannot depend on itself", nil
	}
	m, err := s.node(d.Name)
	if err != nil {
		return "", err
	}
	if m.e.notFound {
		return "it was not found in any registry", nil
	}
	mk, err := m.e.mask(d.Range, s.cat)
	if err != nil {
		return "", rangeError(n.e.name, n.e.vers[n.sel].raw, d, err)
	}
	if m.sel >= 0 {
		if !mk.has(m.e, m.sel) {
			return fmt.Sprintf("the plan already selects %s@%s", m.e.name, m.e.vers[m.sel].raw), nil
		}
		if s.cycles && s.path(m, n) != nil {
			return "it would form a dependency cycle", nil
		}
	} else if !anyAllowed(m, mk, !s.greedy) {
		if len(m.cons) == 0 {
			return "no published version matches", nil
		}
		return "no published version satisfies it together with the other requirements", nil
	}
	s.pushCons(m, pconstraint{m: mk, why: why, level: level})
	n.deps = append(n.deps, edge{to: m, why: why, optional: true})
	if m.level < 0 {
		s.enqueue(m)
	}
	return "", nil
}

// noteInvolved records the optional dependencies on the chains of a
// failure: dropping one of them may let the search succeed.
func (s *solver) noteInvolved(whys ...*step) {
	for _, w := range whys {
		for p := w; p != nil; p = p.prev {
			if p.optional != nil && !s.seen[*p.optional] {
				s.seen[*p.optional] = true
				s.involved = append(s.involved, *p.optional)
			}
		}
	}
}

func (s *solver) failConflict(m *node, extra pconstraint) {
	for _, c := range m.cons {
		s.noteInvolved(c.why)
	}
	s.noteInvolved(extra.why)
	if s.first == nil {
		s.first = s.conflictError(m, extra)
	}
}

func (s *solver) failCycle(cyc []edge) {
	for _, e := range cyc {
		s.noteInvolved(e.why)
	}
	if s.first == nil {
		s.first = cycleError(cyc)
	}
}
