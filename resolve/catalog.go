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
// its published versions, highest first, each with its requirements once
// loaded. It is made the first time the name is asked for and filled once
// (by a prefetching worker or by the search itself); then it is read
// only, except for the per-version requirement slots, which change under
// the catalog's lock, and the masks, the dead-version verdicts and the
// Masterminds forms, which only the search goroutine touches. A resolution
// of 10,000 names holds 10,000 entries: the loading state lives in the
// entry and its versions, not in a call, channel and map entry per
// question (3.7 MB at 10,000).
type catalogEntry struct {
	name     string
	registry string // the registry queried: "" for precedence
	owner    string
	vers     []release     // highest first
	reqs     []*reqSlot    // the versions whose requirements were asked about
	masks    []*rangeMask  // a name meets few distinct ranges: a list will do
	maskBuf  [2]*rangeMask // the first masks, without an allocation
	err      error         // the Source's failure to list the versions
	pin      int32         // index of the pinned version, or -1
	likely   int32         // the version a prefetch guesses will be picked, or -1
	// The Masterminds forms of the versions ranges were checked against:
	// usually one, so the first is kept apart from the rest.
	svIndex  int32
	state    loadState // of the listing; guarded by the catalog's mu
	notFound bool      // no registry publishes the name
	sv       *semver.Version
	svMore   map[int]*semver.Version
	interned map[string]*semver.Version // the catalog's, shared by all entries
	life     []int8                     // per version: 0 unknown, 1 usable, 2 dead, 3 being checked
}

// loadState is how far the loading of an entry's listing, or of one
// version's requirements, has gone. Only the search goroutine waits for
// a load, on the catalog's done condition.
type loadState uint8

const (
	loadFresh   loadState = iota // nobody asked yet
	loadQueued                   // a prefetch job waits for a worker
	loadRunning                  // a worker or the search is loading it
	loadDone                     // the value (or the error) is set
)

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
	if int(e.svIndex) == i && e.sv != nil {
		return e.sv
	}
	if e.svIndex < 0 {
		e.svIndex, e.sv = int32(i), e.intern(e.vers[i])
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

// reqSlot is the loading of version i's requirements, guarded by the
// catalog's mu. The slots are apart from the releases, which the search
// reads without the lock while workers fill slots, and made only for the
// versions asked about: one or two of a name's versions usually are, of
// the tens a registry may publish.
type reqSlot struct {
	req   *reqEntry
	err   error
	i     int32
	state loadState
}

// slot returns the slot of version i, made on first use; cat.mu is held.
// A slot does not move once made: a goroutine fills it after dropping the
// lock.
func (e *catalogEntry) slot(i int) *reqSlot {
	for _, r := range e.reqs {
		if int(r.i) == i {
			return r
		}
	}
	r := &reqSlot{i: int32(i)}
	e.reqs = append(e.reqs, r)
	return r
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

// reqEntry is one version's requirements with every list sorted. Its
// lists are only read.
type reqEntry struct {
	deps, optional []Constraint
	suggests       []string
}

// noReqs is the requirements of every version that declares none (most
// do), shared.
var noReqs = &reqEntry{}

// job is one prefetch: the listing of e (i < 0) or the requirements of
// its version i.
type job struct {
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
	// entrySlab allocates entries; guarded by mu.
	entrySlab slab[catalogEntry]

	mu      sync.Mutex
	entries map[string]*catalogEntry
	jobs    []job // pending prefetches, oldest at head
	head    int
	cond    *sync.Cond // signals workers; uses mu
	done    *sync.Cond // signals the search that a load finished; uses mu
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
		entries:  make(map[string]*catalogEntry),
	}
	if parallelism <= 0 {
		parallelism = 8
	}
	cat.par = parallelism
	cat.cond = sync.NewCond(&cat.mu)
	cat.done = sync.NewCond(&cat.mu)
	return cat
}

// submit queues a prefetch job, starting a worker when none is idle and
// the pool is not full.
// cat.mu is held.
func (cat *catalog) submit(j job) {
	if cat.closed {
		return
	}
	cat.jobs = append(cat.jobs, j)
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
		j := cat.jobs[cat.head]
		cat.jobs[cat.head] = job{}
		cat.head++
		if cat.head == len(cat.jobs) {
			cat.jobs, cat.head = cat.jobs[:0], 0
		}
		cat.mu.Unlock()
		if j.i < 0 {
			cat.runVersions(j.e)
		} else {
			cat.runRequirements(j.e, j.i)
		}
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

// entryLocked returns the entry of name, made empty on first use; cat.mu
// is held.
func (cat *catalog) entryLocked(name string) *catalogEntry {
	e, ok := cat.entries[name]
	if !ok {
		e = cat.entrySlab.new()
		*e = catalogEntry{name: name, pin: -1, likely: -1, svIndex: -1, interned: cat.interned}
		cat.entries[name] = e
	}
	return e
}

// await waits, cat.mu held, until *state is loadDone or the context has
// ended. A load a worker runs always ends (the Source honours the
// context), and wakes the search when it does: a search that waited on a
// context's end would still wait for the running loads when Resolve
// returns (close).
func (cat *catalog) await(state *loadState) error {
	for *state != loadDone {
		if err := cat.ctx.Err(); err != nil {
			return err
		}
		cat.done.Wait()
	}
	return nil
}

// entry returns what the registries publish for name, loading it inline
// when no worker has started to. A name no registry publishes yields an
// entry with notFound set, not an error; other Source failures are
// errors.
func (cat *catalog) entry(name string) (*catalogEntry, error) {
	cat.mu.Lock()
	e := cat.entryLocked(name)
	if e.state < loadRunning {
		e.state = loadRunning
		cat.mu.Unlock()
		err := cat.loadVersions(e)
		cat.mu.Lock()
		e.err, e.state = err, loadDone
	} else if err := cat.await(&e.state); err != nil {
		cat.mu.Unlock()
		return nil, err
	}
	err := e.err
	cat.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return e, nil
}

// requirements returns the sorted requirements of one version, loading
// them inline when no worker has started to.
func (cat *catalog) requirements(e *catalogEntry, i int) (*reqEntry, error) {
	cat.mu.Lock()
	v := e.slot(i)
	if v.state < loadRunning {
		v.state = loadRunning
		cat.mu.Unlock()
		r, err := cat.loadRequirements(e, i)
		cat.mu.Lock()
		v.req, v.err, v.state = r, err, loadDone
	} else if err := cat.await(&v.state); err != nil {
		cat.mu.Unlock()
		return nil, err
	}
	r, err := v.req, v.err
	cat.mu.Unlock()
	return r, err
}

// prefetchVersions starts fetching name's versions in the background and
// then crawls on to the requirements of its likely version.
func (cat *catalog) prefetchVersions(name string) {
	if cat.par <= 1 || cat.ctx.Err() != nil {
		return
	}
	cat.mu.Lock()
	defer cat.mu.Unlock()
	e := cat.entryLocked(name)
	if e.state != loadFresh {
		return
	}
	e.state = loadQueued
	cat.submit(job{e: e, i: -1})
}

// prefetchRequirements starts fetching the requirements of version i of e
// in the background, then crawls on to the versions of its dependencies.
func (cat *catalog) prefetchRequirements(e *catalogEntry, i int) {
	if cat.par <= 1 || cat.ctx.Err() != nil {
		return
	}
	cat.mu.Lock()
	defer cat.mu.Unlock()
	v := e.slot(i)
	if v.state != loadFresh {
		return
	}
	v.state = loadQueued
	cat.submit(job{e: e, i: i})
}

// runVersions is the prefetch job listing e's versions, unless the search
// started it first.
func (cat *catalog) runVersions(e *catalogEntry) {
	cat.mu.Lock()
	if e.state != loadQueued || cat.ctx.Err() != nil {
		cat.mu.Unlock()
		return
	}
	e.state = loadRunning
	cat.mu.Unlock()
	err := cat.loadVersions(e)
	cat.mu.Lock()
	e.err, e.state = err, loadDone
	cat.done.Broadcast()
	cat.mu.Unlock()
	if err == nil && cat.ctx.Err() == nil && !e.notFound && e.likely >= 0 {
		cat.prefetchRequirements(e, int(e.likely))
	}
}

// runRequirements is the prefetch job reading the requirements of version
// i of e, unless the search started it first.
func (cat *catalog) runRequirements(e *catalogEntry, i int) {
	cat.mu.Lock()
	v := e.slot(i)
	if v.state != loadQueued || cat.ctx.Err() != nil {
		cat.mu.Unlock()
		return
	}
	v.state = loadRunning
	cat.mu.Unlock()
	r, err := cat.loadRequirements(e, i)
	cat.mu.Lock()
	v.req, v.err, v.state = r, err, loadDone
	cat.done.Broadcast()
	cat.mu.Unlock()
	if err != nil || cat.ctx.Err() != nil {
		return
	}
	for _, d := range r.deps {
		cat.prefetchVersions(d.Name)
	}
	for _, d := range r.optional {
		cat.prefetchVersions(d.Name)
	}
}

// loadVersions asks the Source for e's versions and fills e, highest
// version first. Only the goroutine that set e loading calls it.
func (cat *catalog) loadVersions(e *catalogEntry) error {
	if err := cat.ctx.Err(); err != nil {
		return err
	}
	name := e.name
	reg := cat.registry[name]
	owner, pub, err := cat.src.Versions(cat.ctx, reg, name)
	e.registry, e.owner = reg, owner
	e.masks = e.maskBuf[:0]
	if errors.Is(err, ErrNotFound) {
		e.notFound = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing versions of %q: %w", name, err)
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
			e.pin = int32(i)
		}
		if e.likely < 0 && !v.deprecated && !v.pre {
			e.likely = int32(i)
		}
	}
	if e.pin >= 0 {
		e.likely = e.pin
	}
	return nil
}

// loadRequirements asks the Source for the requirements of version i of
// e and sorts them.
func (cat *catalog) loadRequirements(e *catalogEntry, i int) (*reqEntry, error) {
	if err := cat.ctx.Err(); err != nil {
		return nil, err
	}
	v := e.vers[i].raw
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
	if len(r.Dependencies) == 0 && len(r.Optional) == 0 && len(r.Suggests) == 0 {
		return noReqs, nil
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
