package resolve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/Masterminds/semver/v3"
)

// catalogEntry is what the resolver knows about one name: its owner and
// its published versions, highest first. It is built once per Resolve call
// (by a prefetching goroutine or by the search itself) and then read only,
// except for the masks, the dead-version verdicts and the Masterminds
// forms, which only the search goroutine touches.
type catalogEntry struct {
	name     string
	registry string // the registry queried: "" for precedence
	owner    string
	vers     []release     // highest first
	pin      int           // index of the pinned version, or -1
	likely   int           // the version a prefetch guesses will be picked, or -1
	masks    []*rangeMask  // a name meets few distinct ranges: a list will do
	maskBuf  [4]*rangeMask // the first masks, without an allocation
	// The Masterminds forms of the versions ranges were checked against:
	// usually one, so the first is kept apart from the rest.
	svIndex  int
	sv       *semver.Version
	svMore   map[int]*semver.Version
	interned map[string]*semver.Version // the catalog's, shared by all entries
	life     []int8                     // per version: 0 unknown, 1 usable, 2 dead, 3 being checked
	notFound bool                       // no registry publishes the name
}

// rangeMask memoises which versions of one name satisfy one range: bit
// i of known says version i was checked, bit i of yes that it satisfies
// the range. Names with more than 64 versions use the slices.
type rangeMask struct {
	rng        string
	c          *semver.Constraints
	known, yes uint64
	big        *bigMemo // for versions from the 65th on
	exact      int      // index of the version the range names exactly, or -1
}

type bigMemo struct{ known, yes []bool }

func (m *rangeMask) has(e *catalogEntry, i int) bool {
	if i < 64 {
		bit := uint64(1) << i
		if m.known&bit == 0 {
			m.known |= bit
			if m.c.Check(e.semver(i)) {
				m.yes |= bit
			}
		}
		return m.yes&bit != 0
	}
	if m.big == nil {
		m.big = &bigMemo{known: make([]bool, len(e.vers)), yes: make([]bool, len(e.vers))}
	}
	if !m.big.known[i] {
		m.big.known[i] = true
		m.big.yes[i] = m.c.Check(e.semver(i))
	}
	return m.big.yes[i]
}

// semver returns the Masterminds form of version i, building it once.
func (e *catalogEntry) semver(i int) *semver.Version {
	if e.svIndex == i && e.sv != nil {
		return e.sv
	}
	if e.svIndex < 0 {
		e.svIndex, e.sv = i, e.intern(e.vers[i])
		return e.sv
	}
	if e.svMore == nil {
		e.svMore = make(map[int]*semver.Version)
	}
	v, ok := e.svMore[i]
	if !ok {
		v = e.intern(e.vers[i])
		e.svMore[i] = v
	}
	return v
}

// intern returns the Masterminds form of v, shared by every entry whose
// versions are spelt the same: many skills publish "1.0.0", and a
// *semver.Version is never modified once built. Like the range masks, it
// is used by the search goroutine only.
func (e *catalogEntry) intern(r release) *semver.Version {
	if e.interned == nil {
		return r.semver()
	}
	sv, ok := e.interned[r.raw]
	if !ok {
		sv = r.semver()
		e.interned[r.raw] = sv
	}
	return sv
}

// release is a published version as an entry keeps it once sorted: the
// parsed numbers are needed only to sort, so they are not kept.
type release struct {
	raw        string // the text as published, a valid strict version
	pre        bool   // it has a prerelease
	deprecated bool
}

// version parses r again, which cannot fail and does not allocate.
func (r release) version() version {
	v, _ := parseVersion(r.raw)
	return v
}

// semver returns the Masterminds form of r.
func (r release) semver() *semver.Version { return semverOf(r.version()) }

// scratch holds the parsed versions of one listing while it is sorted,
// reused across listings.
var scratch = sync.Pool{New: func() any { return new([]version) }}

// reqEntry is one version's requirements with every list sorted.
type reqEntry struct {
	deps, optional []Constraint
	suggests       []string
}

// call is a memoised Source call that at most one goroutine runs. Only
// the search goroutine runs calls inline, so only a call handed to a
// prefetching goroutine needs a channel to wait on.
type call[T any] struct {
	started bool
	done    chan struct{} // set when the call is handed to a goroutine
	val     T
	err     error
}

// reqKey names one version of one entry: an entry is unique per name in
// a Resolve call, so its pointer and the version's index identify the
// registry, name and version without hashing three strings.
type reqKey struct {
	e *catalogEntry
	i int
}

// catalog is the resolver's view of the registries for one Resolve. It
// loads each name's versions and each version's requirements from the
// Source at most once and, when parallelism allows, prefetches the ones
// the search will probably ask for next: a speculative crawl of the likely
// graph, run by a bounded pool of workers in first-come order, which is
// close to the breadth-first order the search asks in. When the search
// needs a call no worker has started, it runs it itself. Results never
// depend on timing: the search consumes them in its own deterministic
// order.
type catalog struct {
	ctx      context.Context
	src      Source
	registry map[string]string // query registry per name; "" means precedence
	pins     map[string]Pin
	par      int // the most workers; 1 turns prefetching off
	wg       sync.WaitGroup
	// ranges caches parsed ranges, and maskSlab allocates range masks;
	// only the search goroutine uses them.
	ranges   map[string]*semver.Constraints
	maskSlab slab[rangeMask]
	interned map[string]*semver.Version

	mu      sync.Mutex
	vers    map[string]*call[*catalogEntry]
	reqs    map[reqKey]*call[*reqEntry]
	jobs    []func() // pending prefetches, oldest at head
	head    int
	cond    *sync.Cond // signals workers; uses mu
	workers int
	idle    int
	closed  bool
}

// newCatalog returns an empty catalog over src for one Resolve; close
// stops its workers.
func newCatalog(ctx context.Context, src Source, registry map[string]string, pins map[string]Pin, parallelism int) *catalog {
	cat := &catalog{
		ctx:      ctx,
		src:      src,
		registry: registry,
		pins:     pins,
		ranges:   make(map[string]*semver.Constraints),
		interned: make(map[string]*semver.Version),
		vers:     make(map[string]*call[*catalogEntry]),
		reqs:     make(map[reqKey]*call[*reqEntry]),
	}
	if parallelism <= 0 {
		parallelism = 8
	}
	cat.par = parallelism
	cat.cond = sync.NewCond(&cat.mu)
	return cat
}

// submit queues a prefetch job, starting a worker when none is idle and
// the pool is not full.
func (cat *catalog) submit(job func()) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if cat.closed {
		return
	}
	cat.jobs = append(cat.jobs, job)
	switch {
	case cat.idle > 0:
		cat.cond.Signal()
	case cat.workers < cat.par:
		cat.workers++
		cat.wg.Add(1)
		go cat.work()
	}
}

// work runs queued jobs until the catalog is closed.
func (cat *catalog) work() {
	defer cat.wg.Done()
	cat.mu.Lock()
	for {
		for cat.head == len(cat.jobs) && !cat.closed {
			cat.idle++
			cat.cond.Wait()
			cat.idle--
		}
		if cat.closed {
			cat.mu.Unlock()
			return
		}
		job := cat.jobs[cat.head]
		cat.jobs[cat.head] = nil
		cat.head++
		if cat.head == len(cat.jobs) {
			cat.jobs, cat.head = cat.jobs[:0], 0
		}
		cat.mu.Unlock()
		job()
		cat.mu.Lock()
	}
}

// close stops the workers, dropping pending jobs, and waits for the
// running ones: Resolve leaves no goroutine behind.
func (cat *catalog) close() {
	cat.mu.Lock()
	cat.closed = true
	cat.cond.Broadcast()
	cat.mu.Unlock()
	cat.wg.Wait()
}

// load returns the memoised result of c, running compute inline when no
// goroutine has started it yet.
func load[T any](cat *catalog, c *call[T], compute func() (T, error)) (T, error) {
	cat.mu.Lock()
	if !c.started {
		c.started = true
		cat.mu.Unlock()
		c.val, c.err = compute()
		if c.done != nil {
			close(c.done)
		}
		return c.val, c.err
	}
	done := c.done
	cat.mu.Unlock()
	if done == nil {
		return c.val, c.err // run inline earlier by this goroutine
	}
	select {
	case <-c.done:
		return c.val, c.err
	case <-cat.ctx.Done():
		var zero T
		return zero, cat.ctx.Err()
	}
}

// spawn queues compute for c on the worker pool unless someone starts it
// first, then calls next with the result. c must be fresh and made with a
// done channel.
func spawn[T any](cat *catalog, c *call[T], compute func() (T, error), next func(T)) {
	cat.submit(func() {
		cat.mu.Lock()
		if c.started || cat.ctx.Err() != nil {
			cat.mu.Unlock()
			return
		}
		c.started = true
		cat.mu.Unlock()
		c.val, c.err = compute()
		close(c.done)
		if c.err == nil && cat.ctx.Err() == nil {
			next(c.val)
		}
	})
}

func (cat *catalog) versionsCall(name string, spawnable bool) (*call[*catalogEntry], bool) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	c, ok := cat.vers[name]
	if !ok {
		c = &call[*catalogEntry]{}
		if spawnable {
			c.done = make(chan struct{})
		}
		cat.vers[name] = c
	}
	return c, !ok
}

func (cat *catalog) reqsCall(k reqKey, spawnable bool) (*call[*reqEntry], bool) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	c, ok := cat.reqs[k]
	if !ok {
		c = &call[*reqEntry]{}
		if spawnable {
			c.done = make(chan struct{})
		}
		cat.reqs[k] = c
	}
	return c, !ok
}

// entry returns what the registries publish for name. A name no registry
// publishes yields an entry with notFound set, not an error; other Source
// failures are errors.
func (cat *catalog) entry(name string) (*catalogEntry, error) {
	c, _ := cat.versionsCall(name, false)
	return load(cat, c, func() (*catalogEntry, error) { return cat.loadVersions(name) })
}

// requirements returns the sorted requirements of one version.
func (cat *catalog) requirements(e *catalogEntry, i int) (*reqEntry, error) {
	k := reqKey{e, i}
	c, _ := cat.reqsCall(k, false)
	return load(cat, c, func() (*reqEntry, error) { return cat.loadRequirements(k) })
}

// prefetchVersions starts fetching name's versions in the background and
// then crawls on to the requirements of its likely version.
func (cat *catalog) prefetchVersions(name string) {
	if cat.par <= 1 || cat.ctx.Err() != nil {
		return
	}
	c, fresh := cat.versionsCall(name, true)
	if !fresh {
		return
	}
	spawn(cat, c, func() (*catalogEntry, error) { return cat.loadVersions(name) }, func(e *catalogEntry) {
		if !e.notFound && e.likely >= 0 {
			cat.prefetchRequirements(e, e.likely)
		}
	})
}

func (cat *catalog) prefetchRequirements(e *catalogEntry, i int) {
	if cat.par <= 1 || cat.ctx.Err() != nil {
		return
	}
	k := reqKey{e, i}
	c, fresh := cat.reqsCall(k, true)
	if !fresh {
		return
	}
	spawn(cat, c, func() (*reqEntry, error) { return cat.loadRequirements(k) }, func(r *reqEntry) {
		for _, d := range r.deps {
			cat.prefetchVersions(d.Name)
		}
		for _, d := range r.optional {
			cat.prefetchVersions(d.Name)
		}
	})
}

// loadVersions asks the Source for name's versions and builds its entry,
// highest version first.
func (cat *catalog) loadVersions(name string) (*catalogEntry, error) {
	if err := cat.ctx.Err(); err != nil {
		return nil, err
	}
	reg := cat.registry[name]
	owner, pub, err := cat.src.Versions(cat.ctx, reg, name)
	e := &catalogEntry{name: name, registry: reg, owner: owner, pin: -1, likely: -1, svIndex: -1, interned: cat.interned}
	e.masks = e.maskBuf[:0]
	if errors.Is(err, ErrNotFound) {
		e.notFound = true
		return e, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing versions of %q: %w", name, err)
	}
	if owner == "" {
		e.owner = reg
	}
	buf := scratch.Get().(*[]version)
	defer scratch.Put(buf)
	vers := (*buf)[:0]
	for _, p := range pub {
		if v, ok := parseVersion(p.Version); ok {
			v.deprecated = p.Deprecated
			vers = append(vers, v)
		}
	}
	*buf = vers
	// Highest first; the same version listed twice keeps one entry,
	// deprecated if either listing says so.
	desc := func(a, b version) int { return cmp.Or(compareVersions(b, a), cmp.Compare(a.raw, b.raw)) }
	if slices.IsSortedFunc(vers, func(a, b version) int { return desc(b, a) }) {
		slices.Reverse(vers) // registries usually list versions oldest first
	} else {
		slices.SortFunc(vers, desc)
	}
	n := 0
	for i, v := range vers {
		if i == 0 || compareVersions(vers[n-1], v) != 0 {
			vers[n] = v
			n++
		} else {
			vers[n-1].deprecated = vers[n-1].deprecated || v.deprecated
		}
	}
	e.vers = make([]release, n)
	for i, v := range vers[:n] {
		e.vers[i] = release{raw: v.raw, pre: v.preEnd != 0, deprecated: v.deprecated}
	}
	clear(vers) // drop the references to the listing's strings
	pin, pinned := cat.pins[name]
	for i, v := range e.vers {
		if pinned && pin.Version == v.raw && (pin.Registry == "" || pin.Registry == e.owner) {
			e.pin = i
		}
		if e.likely < 0 && !v.deprecated && !v.pre {
			e.likely = i
		}
	}
	if e.pin >= 0 {
		e.likely = e.pin
	}
	return e, nil
}

// loadRequirements asks the Source for the requirements of one version
// and sorts them.
func (cat *catalog) loadRequirements(k reqKey) (*reqEntry, error) {
	if err := cat.ctx.Err(); err != nil {
		return nil, err
	}
	e, v := k.e, k.e.vers[k.i].raw
	r, err := cat.src.Requirements(cat.ctx, e.owner, e.name, v)
	if err != nil {
		return nil, fmt.Errorf("reading the requirements of %s@%s: %w", e.name, v, err)
	}
	byName := func(a, b Constraint) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Range, b.Range)) }
	// The lists are only read; copy them only when they need sorting.
	sorted := func(cs []Constraint) []Constraint {
		if slices.IsSortedFunc(cs, byName) {
			return cs
		}
		return slices.SortedFunc(slices.Values(cs), byName)
	}
	out := &reqEntry{deps: sorted(r.Dependencies), optional: sorted(r.Optional), suggests: r.Suggests}
	if !slices.IsSorted(r.Suggests) || len(slices.Compact(slices.Clone(r.Suggests))) != len(r.Suggests) {
		out.suggests = slices.Compact(slices.Sorted(slices.Values(r.Suggests)))
	}
	return out, nil
}

// mask returns the memoised range mask of rng over e's versions, parsing
// rng through the shared cache of parsed ranges.
func (e *catalogEntry) mask(rng string, cat *catalog) (*rangeMask, error) {
	key := normRange(rng)
	for _, m := range e.masks {
		if m.rng == key {
			return m, nil
		}
	}
	c, ok := cat.ranges[key]
	if !ok {
		var err error
		if c, err = parseRange(key); err != nil {
			return nil, err
		}
		cat.ranges[key] = c
	}
	m := cat.maskSlab.new()
	*m = rangeMask{rng: key, c: c, exact: -1}
	if x := exactVersion(key); x != "" {
		for i, v := range e.vers {
			if v.raw == x {
				m.exact = i
			}
		}
	}
	e.masks = append(e.masks, m)
	return m, nil
}
