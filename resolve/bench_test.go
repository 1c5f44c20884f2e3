package resolve

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// genSource is a generated registry of packages × versions that stores
// nothing: each version's dependencies are derived from a hash of its
// package and version numbers. Version v of package i depends on deps
// packages with a higher index, so the graph is acyclic; without tilde
// every range admits the highest version, so it resolves greedily. With
// tilde one range in six is "~1.10", which the greedy pass meets only
// after choosing 1.19.0 elsewhere, so the backtracking search has to work.
type genSource struct {
	packages, versions, deps int
	tilde                    bool
	names, vers              []string
	published                []Published // shared: callers only read it
}

func newGenSource(packages, versions, deps int, tilde bool) *genSource {
	g := &genSource{packages: packages, versions: versions, deps: deps, tilde: tilde}
	g.names = make([]string, packages)
	for i := range g.names {
		g.names[i] = fmt.Sprintf("pkg-%05d", i)
	}
	g.vers = make([]string, versions)
	for v := range g.vers {
		g.vers[v] = fmt.Sprintf("1.%d.0", v)
		g.published = append(g.published, Published{Version: g.vers[v]})
	}
	return g
}

func (g *genSource) index(name string) (int, bool) {
	i, err := strconv.Atoi(strings.TrimPrefix(name, "pkg-"))
	return i, err == nil && i >= 0 && i < g.packages && g.names[i] == name
}

func (g *genSource) Versions(ctx context.Context, registry, name string) (string, []Published, error) {
	if _, ok := g.index(name); !ok || (registry != "" && registry != "official") {
		return "", nil, ErrNotFound
	}
	return "official", g.published, nil
}

func (g *genSource) Requirements(ctx context.Context, registry, name, version string) (Requirements, error) {
	i, ok := g.index(name)
	v := slices.Index(g.vers, version)
	if !ok || v < 0 {
		return Requirements{}, ErrNotFound
	}
	ranges := []string{"^1", "^1.2", ">=1.5 <2", "1.x", "^1.0.0"}
	if g.tilde {
		ranges = append(ranges, "~1.10")
	}
	var r Requirements
	if i+1 >= g.packages {
		return r, nil
	}
	r.Dependencies = make([]Constraint, 0, g.deps)
	h := uint64(i)<<20 | uint64(v)
	for range g.deps {
		h = splitmix(h)
		j := i + 1 + int(h%uint64(min(200, g.packages-i-1)))
		h = splitmix(h)
		r.Dependencies = append(r.Dependencies, Constraint{Name: g.names[j], Range: ranges[h%uint64(len(ranges))]})
	}
	// Like an index file written by a tool, the list comes sorted.
	slices.SortFunc(r.Dependencies, func(a, b Constraint) int { return strings.Compare(a.Name, b.Name) })
	return r, nil
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func bigRegistry(tilde bool) (*genSource, []Reference) {
	g := newGenSource(10000, 20, 5, tilde)
	var refs []Reference
	for i := range 50 {
		refs = append(refs, Reference{Name: g.names[i*7]})
	}
	return g, refs
}

var bigOnce = sync.OnceValues(func() (*genSource, []Reference) { return bigRegistry(false) })

// BenchmarkResolve10k resolves 50 roots in a registry of 10,000 packages
// with 20 versions each and 5 dependencies per version. The source is in
// memory, with no latency for prefetching to hide, so prefetching is off
// (Parallelism 1), as the CLI sets it for local and cached registries.
func BenchmarkResolve10k(b *testing.B) {
	src, refs := bigOnce()
	b.ReportAllocs()
	for b.Loop() {
		plan, err := Resolve(context.Background(), src, refs, Options{Parallelism: 1})
		if err != nil {
			b.Fatal(err)
		}
		if len(plan.Skills) < 1000 {
			b.Fatalf("plan has %d skills, want most of the registry", len(plan.Skills))
		}
	}
}

// BenchmarkResolve10kPrefetch is BenchmarkResolve10k with the default
// prefetching, to measure its overhead when there is no latency.
func BenchmarkResolve10kPrefetch(b *testing.B) {
	src, refs := bigOnce()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(context.Background(), src, refs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResolve10kMemory measures one large resolution: the bytes it
// allocates and its peak heap, sampled while it runs.
func TestResolve10kMemory(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("large resolution; its memory is only meaningful without -race")
	}
	src, refs := bigOnce()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := before.HeapAlloc
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	plan, err := Resolve(context.Background(), src, refs, Options{Parallelism: 1})
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	close(done)
	<-sampled
	peak = max(peak, after.HeapAlloc)
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	growth := peak - before.HeapAlloc
	t.Logf("%d skills selected in %v; %.1f MB allocated; peak heap growth %.1f MB", len(plan.Skills), elapsed, float64(alloc)/1e6, float64(growth)/1e6)
	if growth > 50<<20 {
		t.Errorf("Resolve grew the heap by %d bytes at its peak, want under 50 MB", growth)
	}
}

// TestResolveAsksOnce checks that one resolution asks the source each
// question at most once, prefetching or not.
func TestResolveAsksOnce(t *testing.T) {
	for _, par := range []int{1, 8} {
		src := newMemSource()
		for i := range 300 {
			for v := range 3 {
				mv := memVersion{pub: Published{Version: fmt.Sprintf("1.%d.0", v)}}
				for d := 1; d <= 3 && i+d*d < 300; d++ {
					mv.req.Dependencies = append(mv.req.Dependencies, Constraint{Name: fmt.Sprintf("pkg-%03d", i+d*d), Range: "^1"})
				}
				src.add("official", fmt.Sprintf("pkg-%03d", i), mv)
			}
		}
		plan, err := Resolve(context.Background(), src, []Reference{{Name: "pkg-000"}}, Options{Parallelism: par})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Skills) < 100 {
			t.Errorf("Resolve selected %d skills, want most of 300", len(plan.Skills))
		}
		for k, n := range src.calls {
			if n != 1 {
				t.Errorf("Resolve (parallelism %d) asked %q %d times, want once", par, k, n)
			}
		}
	}
}

var bigTildeOnce = sync.OnceValues(func() (*genSource, []Reference) { return bigRegistry(true) })

// BenchmarkResolve10kBacktracking is BenchmarkResolve10k on a registry
// where the greedy pass fails and the search must backtrack.
func BenchmarkResolve10kBacktracking(b *testing.B) {
	src, refs := bigTildeOnce()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(context.Background(), src, refs, Options{Parallelism: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMissingDeepDependencyFailsFast checks that a skill missing at the
// bottom of a wide graph is reported as missing, rather than making the
// search try every combination of versions above it.
func TestMissingDeepDependencyFailsFast(t *testing.T) {
	src := newMemSource()
	for i := range 300 {
		for v := range 3 {
			mv := memVersion{pub: Published{Version: fmt.Sprintf("1.%d.0", v)}}
			for d := 1; d <= 3; d++ {
				mv.req.Dependencies = append(mv.req.Dependencies, Constraint{Name: fmt.Sprintf("pkg-%03d", i+d*d), Range: "^1"})
			}
			src.add("official", fmt.Sprintf("pkg-%03d", i), mv)
		}
	}
	_, err := Resolve(context.Background(), src, []Reference{{Name: "pkg-000"}}, Options{})
	var e *Error
	if !errors.As(err, &e) || e.Code != "ASK_SKILL_NOT_FOUND" {
		t.Fatalf("Resolve = %v, want ASK_SKILL_NOT_FOUND", err)
	}
	if want := `Skill "pkg-301" not found`; e.Message != want {
		t.Errorf("Resolve message = %q, want %q", e.Message, want)
	}
}

// slowSource adds a fixed latency to every call, like a registry over the
// network.
type slowSource struct {
	Source
	delay time.Duration
}

func (s slowSource) Versions(ctx context.Context, registry, name string) (string, []Published, error) {
	time.Sleep(s.delay)
	return s.Source.Versions(ctx, registry, name)
}

func (s slowSource) Requirements(ctx context.Context, registry, name, version string) (Requirements, error) {
	time.Sleep(s.delay)
	return s.Source.Requirements(ctx, registry, name, version)
}

// benchmarkSlow resolves 5 roots in a 300-package registry whose calls
// each take 1ms.
func benchmarkSlow(b *testing.B, parallelism int) {
	g := newGenSource(300, 20, 3, false)
	src := slowSource{g, time.Millisecond}
	var refs []Reference
	for i := range 5 {
		refs = append(refs, Reference{Name: g.names[i*3]})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(context.Background(), src, refs, Options{Parallelism: parallelism}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveSlowSourceSerial fetches one call at a time.
func BenchmarkResolveSlowSourceSerial(b *testing.B) { benchmarkSlow(b, 1) }

// BenchmarkResolveSlowSourcePrefetch prefetches with 8 calls in flight.
func BenchmarkResolveSlowSourcePrefetch(b *testing.B) { benchmarkSlow(b, 8) }
