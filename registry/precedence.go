package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/format"
)

// Set is the ordered list of configured registries (DESIGN §4.3). The
// first trusted registry whose index has any version of a name owns the
// name, so a later registry can never inject a higher version of it
// (dependency confusion). A qualified reference "registry:name" bypasses
// precedence. A registry that cannot be asked is skipped with one notice,
// but it never lets a later registry take over a name it might own.
type Set struct {
	regs   []Registry
	notify func(string)

	mu     sync.Mutex
	warned map[string]bool
	// kept holds the snapshots Requirements verified, until Snapshot takes
	// them, whole while their payloads (keptBytes) and the seals
	// (sealedBytes) fit keptBudget; past it, sealed, at most keptSealedMax
	// of them. held lists the keys of whole ones in the order they were
	// kept (some may have been taken since), the first to be sealed when
	// the seals grow past the budget.
	kept        map[keptKey]keptSnapshot
	keptBytes   int64
	sealedBytes int64
	keptSealed  int
	held        []keptKey
	// paths holds one copy of each file path the sealed snapshots name
	// (most packages have the same few: skill.yaml, SKILL.md, …).
	paths map[string]string
}

// sharedPath returns the set's copy of the path p, made on first use;
// s.mu is held.
func (s *Set) sharedPath(p string) string {
	if c, ok := s.paths[p]; ok {
		return c
	}
	if s.paths == nil {
		s.paths = map[string]string{}
	}
	c := strings.Clone(p)
	s.paths[c] = c
	return c
}

// keptKey names one package of one registry.
type keptKey struct{ registry, name, version string }

// keptSnapshot is a verified snapshot and its payload size, or, past
// keptBudget, only its sealed payload (sealed): the decoded manifest and
// entrypoint, with the positions validation reports, are most of what a
// small package costs in memory, and are decoded again from the sealed
// bytes when Snapshot hands the package over.
type keptSnapshot struct {
	pkg       *format.Package
	sealed    *sealedFS
	integrity string
	// resolved is where the payload came from (Registry.Resolved), read
	// from the index while resolution has it, so that fetching a kept
	// package needs no index.
	resolved string
	size     int64 // payload bytes of a whole one
	cost     int64 // sealCost of a sealed one
}

// keptBudget bounds the memory Set keeps between resolution and fetch:
// the payload bytes of the packages it keeps whole and what their seals
// take (sealCost). Within it, a package resolution verified is handed over
// whole and is not read, loaded or digested again. The seals count too,
// so that a large resolution (10,000 packages, ~9 MB of seals) seals the
// packages it held whole as it goes instead of holding payloads on top of
// them. Past it, only the snapshot's
// sealed payload is kept (Seal: the bytes of its manifest and entrypoint,
// and the digest of each other file, which is read again from the
// registry and checked when it is installed), and the manifest and
// entrypoint are decoded again from those bytes when it is handed over,
// so that a large install still verifies each package once while neither
// its payloads nor its decoded manifests are all held in memory.
//
// 1 MiB: a 50-skill install (17 KiB packages) is held whole; past it a
// whole payload is worth keeping only while nothing else needs the
// memory, and during a large resolution the resolver's state and the
// index do. Measured on the 10,000-skill install, 8 MiB held ~8 MB of
// payloads through most of the resolution, which its seals then replaced
// anyway; on the 500-skill install, reading the sealed packages' other
// files again costs ~0.02 s of CPU and no wall time (paired runs).
var keptBudget int64 = 1 << 20

// keptSealedMax bounds how many sealed snapshots Set keeps (under a KiB
// each for a small package); past it a snapshot is dropped after its dependencies are read,
// and verified again when fetched, so memory stays bounded however many
// packages a run resolves.
var keptSealedMax = 16384

// NewSet returns the set of regs in precedence order; notify (may be nil)
// receives one notice per unreachable registry.
func NewSet(notify func(string), regs ...Registry) *Set {
	return &Set{regs: regs, notify: notify, warned: map[string]bool{}}
}

// Registries returns the registries in precedence order.
func (s *Set) Registries() []Registry { return s.regs }

// Get returns the registry called name.
func (s *Set) Get(name string) (Registry, bool) {
	for _, r := range s.regs {
		if r.Name() == name {
			return r, true
		}
	}
	return nil, false
}

// Lookup returns the registry that answers for name and the skill's index
// entry: the named registry when registry is not empty, else the owner by
// precedence.
func (s *Set) Lookup(ctx context.Context, registry, name string) (Registry, *Skill, error) {
	if registry == "" {
		return s.Owner(ctx, name)
	}
	r, ok := s.Get(registry)
	if !ok {
		return nil, nil, s.unknown(registry)
	}
	idx, err := r.Index(ctx)
	if err != nil {
		return nil, nil, err
	}
	sk, ok := idx.Skill(name)
	if !ok {
		return nil, nil, notFound(name, "registry "+quote(registry))
	}
	return r, sk, nil
}

// unknown builds the ASK_REGISTRY_UNKNOWN error.
func (s *Set) unknown(registry string) *Error {
	var names []string
	for _, r := range s.regs {
		names = append(names, r.Name())
	}
	return &Error{
		Code:    CodeRegistryUnknown,
		Message: fmt.Sprintf("no registry called %q is configured", registry),
		Detail:  []string{"configured: " + strings.Join(names, ", ")},
		Try:     []string{"agent-skills registry list", "agent-skills registry add " + registry + " <url>"},
	}
}

// Owner returns the first trusted registry whose index has name. When an
// earlier registry could not be asked and a later one has the name, it
// returns ASK_REGISTRY_UNAVAILABLE instead of promoting the later one; when
// an earlier registry's index is invalid it returns that
// ASK_REGISTRY_INVALID_INDEX error, as a qualified reference would.
// A name held only by untrusted registries is ASK_SKILL_NOT_FOUND with a
// hint naming the qualified reference.
func (s *Set) Owner(ctx context.Context, name string) (Registry, *Skill, error) {
	var skipped []string
	var untrusted Registry
	for _, r := range s.regs {
		idx, err := r.Index(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			if refusedIndex(err) {
				// The registry answered, with an index that fails its
				// checks: a security failure to report as such (exit 5),
				// whether or not a later registry has the name, rather
				// than "could not be asked" (docs/registry.md).
				return nil, nil, err
			}
			s.warn(r, err)
			skipped = append(skipped, r.Name())
			continue
		}
		sk, ok := idx.Skill(name)
		if !ok {
			continue
		}
		if r.Spec().Untrusted {
			if untrusted == nil {
				untrusted = r
			}
			continue
		}
		if len(skipped) > 0 {
			return nil, nil, &Error{
				Code: CodeRegistryUnavailable,
				Message: fmt.Sprintf("registry %s could not be asked about %q, which it may own; %q also has it, but comes later",
					strings.Join(quoteAll(skipped), ", "), name, r.Name()),
				Try: []string{
					fmt.Sprintf("agent-skills install %s:%s  (to choose %s explicitly)", r.Name(), name, r.Name()),
					"retry when " + strings.Join(skipped, ", ") + " can be reached",
				},
			}
		}
		return r, sk, nil
	}
	switch {
	case untrusted != nil:
		return nil, nil, notFound(name, "any trusted registry",
			fmt.Sprintf("agent-skills install %s:%s  (registry %q is untrusted, so it never owns names by precedence)", untrusted.Name(), name, untrusted.Name()))
	case len(skipped) > 0:
		return nil, nil, &Error{
			Code:    CodeRegistryUnavailable,
			Message: fmt.Sprintf("skill %q is in no reachable registry, and %s could not be asked", name, strings.Join(quoteAll(skipped), ", ")),
			Try:     []string{"retry when " + strings.Join(skipped, ", ") + " can be reached", "agent-skills search " + name},
		}
	}
	return nil, nil, notFound(name, "any configured registry")
}

// refusedIndex reports whether err is an index that was read but failed
// its schema or safety checks (ASK_REGISTRY_INVALID_INDEX).
func refusedIndex(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeRegistryInvalidIndex
}

// warn sends one notice per unreachable registry.
func (s *Set) warn(r Registry, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warned[r.Name()] || s.notify == nil {
		s.warned[r.Name()] = true
		return
	}
	s.warned[r.Name()] = true
	s.notify(fmt.Sprintf("registry %s skipped: %s", r.Name(), firstLine(err.Error())))
}

// Indexes returns the loaded indexes of every registry that can be asked,
// in precedence order, for Search; the others get one notice each. When
// only is not empty, just that registry is asked and its failure is
// returned.
func (s *Set) Indexes(ctx context.Context, only string) ([]Loaded, error) {
	if only != "" {
		r, ok := s.Get(only)
		if !ok {
			return nil, s.unknown(only)
		}
		idx, err := r.Index(ctx)
		if err != nil {
			return nil, err
		}
		return []Loaded{{Registry: r.Name(), Index: idx, Untrusted: r.Spec().Untrusted}}, nil
	}
	var out []Loaded
	for _, r := range s.regs {
		idx, err := r.Index(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.warn(r, err)
			continue
		}
		out = append(out, Loaded{Registry: r.Name(), Index: idx, Untrusted: r.Spec().Untrusted})
	}
	return out, nil
}

// Published is one version as the resolver sees it.
type Published struct {
	// Version is the exact version.
	Version string
	// Deprecated excludes it from range resolution.
	Deprecated bool
}

// Constraint is one dependency: a name and a semver range.
type Constraint struct {
	// Name is the package depended on.
	Name string
	// Range is the semver range as written in the manifest.
	Range string
}

// Requirements are the edges of one version.
type Requirements struct {
	// Dependencies must resolve.
	Dependencies []Constraint
	// Optional are skipped with a warning when they do not resolve.
	Optional []Constraint
	// Suggests names companions, without ranges.
	Suggests []string
}

// Versions lists the published versions of name, oldest first, from the
// named registry or the owner by precedence, and says which registry
// answered. It has the shape of the resolver's Source.Versions; the CLI
// adapts the types.
func (s *Set) Versions(ctx context.Context, registry, name string) (string, []Published, error) {
	r, sk, err := s.Lookup(ctx, registry, name)
	if err != nil {
		return "", nil, err
	}
	sorted := sk.Sorted()
	out := make([]Published, len(sorted))
	for i, v := range sorted {
		out[len(sorted)-1-i] = Published{Version: v.Version, Deprecated: v.Deprecated}
	}
	return r.Name(), out, nil
}

// Requirements reads the manifest of name@version from its verified
// payload (in place for local, git and bundled registries; downloaded
// and extracted into the cache for http) and returns its edges. It has
// the shape of the resolver's Source.Requirements.
//
// The payload is verified as a snapshot (Registry.Snapshot) and kept, within
// a budget, for Set.Snapshot: the package the run installs is the one
// resolution read its dependencies from, verified once. A package too large
// for a snapshot is verified in place instead.
func (s *Set) Requirements(ctx context.Context, registry, name, version string) (Requirements, error) {
	r, _, err := s.Lookup(ctx, registry, name)
	if err != nil {
		return Requirements{}, err
	}
	var pkg *format.Package
	var integrity string
	if rr, ok := r.(sealedSnapshotter); ok && s.sealsNext() {
		pkg, integrity, err = rr.sealedSnapshot(ctx, name, version)
	} else {
		pkg, integrity, err = r.Snapshot(ctx, name, version)
	}
	var e *Error
	if errors.As(err, &e) && e.Code == format.CodePackageTooLarge {
		pkg, err = r.Package(ctx, name, version)
	} else if err == nil {
		var resolved string
		if resolved, err = r.Resolved(ctx, name, version); err == nil {
			s.keep(keptKey{r.Name(), name, version}, pkg, integrity, resolved)
		}
	}
	if err != nil {
		return Requirements{}, err
	}
	var req Requirements
	if m := pkg.Manifest; m != nil {
		for _, d := range m.Dependencies {
			req.Dependencies = append(req.Dependencies, Constraint{Name: d.Name, Range: d.Version})
		}
		for _, d := range m.OptionalDependencies {
			req.Optional = append(req.Optional, Constraint{Name: d.Name, Range: d.Version})
		}
		req.Suggests = append(req.Suggests, m.Suggests...)
	}
	return req, nil
}

// sealedSnapshotter is a registry that verifies a package sealed at once
// (the one Registry implementation does).
type sealedSnapshotter interface {
	sealedSnapshot(ctx context.Context, name, version string) (*format.Package, string, error)
}

// sealsNext reports whether the budget is so nearly spent that the next
// package resolution verifies will be sealed: Requirements then verifies
// it sealed at once (registry.sealedSnapshot), without reading its payload
// into memory. The last eighth of the budget is left to whole packages
// that fit.
func (s *Set) sealsNext() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keptBytes+s.sealedBytes >= keptBudget-keptBudget/8
}

// keep holds a verified snapshot for Snapshot, within keptBudget, or
// sealed past it, within keptSealedMax. A package verified sealed
// (sealedSnapshot) is kept as it is.
func (s *Set) keep(k keptKey, pkg *format.Package, integrity, resolved string) {
	sealed, _ := pkg.FS.(*sealedFS)
	size := HeldBytes(pkg)
	if size == 0 && sealed == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.kept[k]; dup {
		return
	}
	if s.kept == nil {
		s.kept = map[keptKey]keptSnapshot{}
	}
	// The resolver's names and versions may be slices of an index's whole
	// text; kept, they would keep it all in memory after it is released.
	k.name, k.version = strings.Clone(k.name), strings.Clone(k.version)
	if sealed == nil && s.keptBytes+s.sealedBytes+size <= keptBudget {
		s.kept[k] = keptSnapshot{pkg: pkg, integrity: integrity, resolved: resolved, size: size}
		s.keptBytes += size
		s.held = append(s.held, k)
		return
	}
	if s.keptSealed >= keptSealedMax {
		return
	}
	if sealed != nil {
		// Its names and paths as sealFS makes them: the key's copies,
		// and the set's one copy of each path.
		sealed.name, sealed.version = k.name, k.version
		for i := range sealed.files {
			sealed.files[i].path = s.sharedPath(sealed.files[i].path)
		}
		s.keepSealed(k, sealed, integrity, resolved)
	} else {
		s.sealKept(k, pkg, integrity, resolved)
	}
	// The seals grew: whole packages give way, oldest first.
	for s.keptBytes+s.sealedBytes > keptBudget && len(s.held) > 0 {
		h := s.held[0]
		s.held = s.held[1:]
		ks, ok := s.kept[h]
		if !ok || ks.pkg == nil {
			continue // taken, or sealed already
		}
		s.keptBytes -= ks.size
		if s.keptSealed >= keptSealedMax {
			delete(s.kept, h) // verified again when fetched
			continue
		}
		s.sealKept(h, ks.pkg, ks.integrity, ks.resolved)
	}
}

// sealKept keeps the snapshot pkg of k sealed; s.mu is held.
func (s *Set) sealKept(k keptKey, pkg *format.Package, integrity, resolved string) {
	s.keepSealed(k, sealFS(pkg, k.name, k.version, s.sharedPath), integrity, resolved)
}

// keepSealed keeps the seal of k; s.mu is held.
func (s *Set) keepSealed(k keptKey, sealed *sealedFS, integrity, resolved string) {
	cost := sealCost(sealed) + int64(len(resolved))
	s.kept[k] = keptSnapshot{sealed: sealed, integrity: integrity, resolved: resolved, cost: cost}
	s.sealedBytes += cost
	s.keptSealed++
}

// sealCost estimates the memory a kept seal takes: the bytes it holds and
// about 64 bytes for each file's entry and digest, and 256 for the rest
// (its key, the seal itself and its place in the map); measured at about
// 870 bytes for a small three-file package.
func sealCost(s *sealedFS) int64 {
	n := int64(256)
	for _, e := range s.files {
		n += 64 + int64(len(e.data))
	}
	return n
}

// ReleaseIndexes drops the indexes the registries of the set have loaded,
// for a caller that has read everything it needs of them (an install, once
// its packages are fetched, holds thousands of skills' entries otherwise
// until it ends); an index asked for afterwards is loaded again. The
// snapshots the set keeps for Snapshot are not dropped.
func (s *Set) ReleaseIndexes() {
	for _, r := range s.regs {
		r.ReleaseIndex()
	}
}

// Snapshot returns name@version of the registry called registry as a
// verified package held in memory, and its integrity (Registry.Snapshot).
// A snapshot Requirements verified during resolution is handed over, once,
// instead of being read and digested again (sealed, past keptBudget: see
// Sealed; its manifest and entrypoint decoded again from the verified
// bytes it holds).
func (s *Set) Snapshot(ctx context.Context, registry, name, version string) (*format.Package, string, error) {
	pkg, integrity, _, err := s.snapshot(ctx, registry, name, version, false)
	return pkg, integrity, err
}

// Fetch is Snapshot that also says where the payload came from
// (Registry.Resolved): for a package resolution verified, as the index said
// then, without the index (see Keeps).
func (s *Set) Fetch(ctx context.Context, registry, name, version string) (pkg *format.Package, integrity, resolved string, err error) {
	return s.snapshot(ctx, registry, name, version, true)
}

// Keeps reports whether name@version of registry is kept from resolution:
// fetching it reads no index.
func (s *Set) Keeps(registry, name, version string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.kept[keptKey{registry, name, version}]
	return ok
}

// snapshot is Snapshot, and with withResolved Fetch.
func (s *Set) snapshot(ctx context.Context, registry, name, version string, withResolved bool) (*format.Package, string, string, error) {
	r, ok := s.Get(registry)
	if !ok {
		return nil, "", "", s.unknown(registry)
	}
	s.mu.Lock()
	k := keptKey{registry, name, version}
	ks, ok := s.kept[k]
	if ok {
		delete(s.kept, k)
		s.keptBytes -= ks.size
		s.sealedBytes -= ks.cost
		if ks.sealed != nil {
			s.keptSealed--
		}
		if len(s.kept) == 0 {
			s.kept, s.held = nil, nil // a map keeps its buckets: thousands, after a large resolution
		}
	}
	s.mu.Unlock()
	if ok && ks.sealed != nil {
		pkg, err := ks.sealed.load()
		if err != nil {
			return nil, "", "", err
		}
		return pkg, ks.integrity, ks.resolved, nil
	}
	if ok {
		return ks.pkg, ks.integrity, ks.resolved, nil
	}
	pkg, integrity, err := r.Snapshot(ctx, name, version)
	if err != nil || !withResolved {
		return pkg, integrity, "", err
	}
	resolved, err := r.Resolved(ctx, name, version)
	if err != nil {
		return nil, "", "", err
	}
	return pkg, integrity, resolved, nil
}

// quoteAll quotes each string.
func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = quote(s)
	}
	return out
}
