package skillset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/validate"
)

// fetched is a verified package to install: decoded (item.Pkg), or past
// the held budget only sealed, decoded again when install plans it
// (item.Load).
type fetched struct {
	want
	item install.Item
	// agentVersions says the package limits an agent by version
	// (compatibility.agents[].minVersion): install then needs the
	// versions detection reads.
	agentVersions bool
	// scan is what the content scan found in the package; nil for
	// nothing (see risk.go).
	scan *scanned
}

// fetch reads and verifies every wanted package into memory (a snapshot
// whose digest is computed over the very bytes that will be installed;
// the one resolution verified to read its dependencies, when the registry
// set kept it), checks the lock's integrity, and validates each package at
// the use case's gate and for the selected agents; the warnings go to the
// outcome. A registry package is always asked for, by name or as a
// dependency, so any that fails refuses the run: every package is
// checked first, and the error names each that failed. Nothing outside
// the registries' caches is written.
//
// Packages are fetched, verified and validated by a bounded pool of
// workers (fetchWorkers); the outcome is assembled in the order of wants,
// so the output, the problems and the error returned are the same as
// one by one: the first failure in that order wins, and no package after
// it is started once it is known.
func (p *op) fetch(wants []want) ([]fetched, error) {
	defer p.progress.Done()
	if err := p.policyRegistries(wants); err != nil {
		return nil, err
	}
	type result struct {
		item          install.Item
		diags         format.Diagnostics
		err           error
		agentVersions bool
		scan          *scanned
	}
	res := make([]result, len(wants))
	var (
		mu       sync.Mutex
		finished = make([]bool, len(wants))
		reported int          // wants[:reported] have been shown as fetched
		failed   = len(wants) // the lowest index that failed
		next     = 0
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if next >= failed {
			return -1
		}
		next++
		return next - 1
	}
	var held atomic.Int64 // payload bytes the items hold in memory
	work := func() {
		vopts := validate.Options{Gate: p.gate(), OverrideKeys: p.ws.OverrideKeys()}
		for i := take(); i >= 0; i = take() {
			w := wants[i]
			item, diags, sc, err := p.fetchOne(w, vopts)
			var agentVersions bool
			if err == nil {
				agentVersions = limitsAgentVersions(item.Pkg)
				item = keepWithin(item, w, &held)
			}
			res[i] = result{item, diags, err, agentVersions, sc}
			mu.Lock()
			if err != nil && i < failed {
				failed = i
			}
			// Progress follows the order of wants, as a serial fetch's
			// would: a package is shown once every one before it is done.
			finished[i] = true
			for reported < len(wants) && finished[reported] {
				r := wants[reported]
				reported++
				p.progress.Step(reported, len(wants), "fetching", r.name+"@"+r.version)
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range min(fetchWorkers(), len(wants)) {
		wg.Go(work)
	}
	wg.Wait()

	out := make([]fetched, 0, len(wants))
	var invalid []string
	for i, w := range wants {
		r := res[i]
		if r.err != nil {
			return nil, r.err
		}
		if r.diags.HasErrors() {
			p.out.Problems = append(p.out.Problems, Problem{Package: w.name + "@" + w.version, Diagnostics: errorsOnly(r.diags)})
			invalid = append(invalid, w.name+"@"+w.version+" from "+w.registry)
			continue
		}
		p.out.warned(w.name+"@"+w.version, warningsOnly(r.diags))
		out = append(out, fetched{want: w, item: r.item, agentVersions: r.agentVersions, scan: r.scan})
	}
	switch len(invalid) {
	case 0:
		return out, nil
	case 1:
		name, _, _ := strings.Cut(invalid[0], "@")
		return nil, &askerr.Error{Code: askerr.CodeValidationFailed, Diagnostics: p.out.Problems[len(p.out.Problems)-1].Diagnostics,
			Message: invalid[0] + " is not a valid package; nothing was installed",
			Try:     []string{"report the problems above to the skill's maintainers", "install another version: agent-skills info " + name}}
	}
	return nil, &askerr.Error{Code: askerr.CodeValidationFailed,
		Message: fmt.Sprintf("%d packages are not valid (%s); nothing was installed", len(invalid), strings.Join(invalid, ", ")),
		Try:     []string{"report the problems above to the skills' maintainers", "install other versions: agent-skills info <name>"}}
}

// fetchHeldBudget bounds the payload bytes the fetched packages hold in
// memory until they are installed. Past it, a package is sealed
// (registry.Seal): only the bytes of its manifest and entrypoint stay in
// memory, and the installer reads its other files again from the
// registry, each checked against the digest the verification computed;
// the decoded package is dropped once validated and decoded again from
// those bytes when install plans it (registry.Reloader), so memory stays
// flat however many packages a run installs.
var fetchHeldBudget int64 = 8 << 20

// keepWithin returns it, or, when holding its package would pass
// fetchHeldBudget, it with only the package's seal (see fetched). A
// package the registry set handed over sealed (past its own budget) is
// only sealed too. The seal's reads report coded errors.
func keepWithin(it install.Item, w want, held *atomic.Int64) install.Item {
	pkg := it.Pkg
	if !registry.Sealed(pkg) {
		size := registry.HeldBytes(pkg)
		if size == 0 || held.Add(size) <= fetchHeldBudget {
			return it
		}
		held.Add(-size)
		pkg = registry.Seal(pkg, w.name, w.version)
	}
	reload := registry.Reloader(pkg)
	it.Pkg, it.Load = nil, func() (*format.Package, error) {
		pkg, err := reload()
		if err != nil {
			return nil, coded(err)
		}
		pkg.FS = codedFS{pkg.FS}
		return pkg, nil
	}
	return it
}

// limitsAgentVersions reports whether pkg limits an agent by version
// (compatibility.agents[].minVersion).
func limitsAgentVersions(pkg *format.Package) bool {
	if pkg == nil || pkg.Manifest == nil {
		return false
	}
	for _, a := range pkg.Manifest.Compatibility.Agents {
		if a.MinVersion != "" {
			return true
		}
	}
	return false
}

// codedFS reports a registry error met while a file is read (a sealed
// package's file that changed after it was verified) as the CLI's error,
// so that the installer passes its code on instead of calling it an I/O
// failure.
type codedFS struct{ fs.FS }

// Open opens a file whose reads report coded errors.
func (c codedFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, coded(err)
	}
	return codedFile{f}, nil
}

// Stat asks the wrapped FS.
func (c codedFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// ReadDir asks the wrapped FS.
func (c codedFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// FileDigest passes on the digest the verification computed of a file,
// when the wrapped FS knows it (the installer then records it without
// reading the file again).
func (c codedFS) FileDigest(name string) (string, bool) {
	if kd, ok := c.FS.(interface{ FileDigest(string) (string, bool) }); ok {
		return kd.FileDigest(name)
	}
	return "", false
}

type codedFile struct{ fs.File }

func (f codedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, coded(err)
}

// WriteTo lets io.Copy use the wrapped file's WriteTo (no copy buffer per
// file; see registry's writeto.go), with coded errors.
func (f codedFile) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := f.File.(io.WriterTo); ok {
		n, err := wt.WriteTo(w)
		return n, coded(err)
	}
	return io.Copy(w, struct{ io.Reader }{f})
}

// coded turns a *registry.Error into an *askerr.Error with its code.
func coded(err error) error {
	var re *registry.Error
	if !errors.As(err, &re) {
		return err
	}
	return &askerr.Error{Code: re.Code, Message: re.Message, Detail: re.Detail, Try: re.Try, Err: re.Err}
}

// fetchWorkers is how many packages fetch verifies at once: one per
// processor, and at least four, so that a slow registry's latency
// overlaps on a small machine; at most sixteen.
func fetchWorkers() int { return min(max(runtime.GOMAXPROCS(0), 4), 16) }

// keptAll reports whether set keeps every package of wants from resolution
// (registry.Set.Keeps).
func keptAll(set *registry.Set, wants []want) bool {
	for _, w := range wants {
		if !set.Keeps(w.registry, w.name, w.version) {
			return false
		}
	}
	return true
}

// fetchOne fetches, verifies, validates and scans one wanted package: the
// item to install, its diagnostics, sorted, and what the content scan
// found in it (nil for nothing), read from the verified snapshot before
// anything is written.
func (p *op) fetchOne(w want, vopts validate.Options) (install.Item, format.Diagnostics, *scanned, error) {
	reg, ok := p.Registries.Get(w.registry)
	if !ok {
		return install.Item{}, nil, nil, &askerr.Error{Code: registry.CodeRegistryUnknown,
			Message: fmt.Sprintf("%s@%s comes from registry %q, which is not configured", w.name, w.version, w.registry),
			Try:     []string{"agent-skills registry add " + w.registry + " <url>", "agent-skills update " + w.name + "   (to resolve it again)"}}
	}
	ctx := p.ctx
	if w.resolved != "" {
		ctx = registry.WithLocked(ctx, w.resolved)
	}
	pkg, integrity, resolved, err := p.Registries.Fetch(ctx, reg.Name(), w.name, w.version)
	if err != nil {
		return install.Item{}, nil, nil, err
	}
	if w.integrity != "" && !format.SameIntegrity(w.integrity, integrity) {
		return install.Item{}, nil, nil, &askerr.Error{Code: registry.CodeIntegrityMismatch,
			Message: fmt.Sprintf("%s@%s does not match skills.lock", w.name, w.version),
			Detail:  []string{"expected (skills.lock): " + w.integrity, "actual   (" + w.registry + "):  " + integrity, "Nothing was installed."},
			Try:     []string{"ask the registry's maintainers why the published bytes changed", "agent-skills update " + w.name + "   (only if you trust the new bytes)"}}
	}
	// An HTTP registry's tarball URL inherits the user information of
	// an index URL written with a password; skills.lock and the
	// receipts record where the payload came from, never the password.
	resolved = redact.Strip(resolved)
	if err := p.policyPackage(w.name, pkg); err != nil {
		return install.Item{}, nil, nil, err
	}
	vopts.DirName = w.name
	diags := append(validate.Package(pkg, vopts), p.agentChecks(pkg)...)
	diags.Sort()
	sc, err := p.scanPackage(w.name, pkg)
	if err != nil {
		return install.Item{}, nil, nil, err
	}
	// Validated: the positions only diagnostics read can go (a run may
	// hold thousands of packages until it installs them).
	pkg.Compact()
	return install.Item{Pkg: pkg, Registry: reg.Name(), KeepRole: w.keepRole, Dependencies: w.deps,
		Resolved: resolved, Integrity: integrity, Role: w.role, Findings: sc.recorded()}, diags, sc, nil
}

// warningsOnly returns the warnings among diags.
func warningsOnly(diags format.Diagnostics) format.Diagnostics {
	var out format.Diagnostics
	for _, d := range diags {
		if d.Severity == format.SeverityWarning {
			out = append(out, d)
		}
	}
	return out
}

// errorsOnly returns the errors among diags.
func errorsOnly(diags format.Diagnostics) format.Diagnostics {
	var out format.Diagnostics
	for _, d := range diags {
		if d.Severity == format.SeverityError {
			out = append(out, d)
		}
	}
	return out
}
