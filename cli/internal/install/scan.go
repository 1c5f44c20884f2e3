package install

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// rootInfo is one folder some selected agent reads packages from.
type rootInfo struct {
	path string
	kind format.Kind
	// loc gives the shape and extension of packages in the root.
	loc agents.Location
	// readers are the selected agents that read the root.
	readers []string
	// deprecated are the readers for which the root is deprecated.
	deprecated []string
}

// deprecatedForAll reports whether every reader reads the root only as a
// deprecated one: this package never writes there.
func (ri *rootInfo) deprecatedForAll() bool {
	return len(ri.deprecated) > 0 && len(ri.deprecated) == len(ri.readers)
}

// openRoots begins an install, uninstall or disable under the lock: the
// report, a digester, the roots of opts, refused when one is unsafe and,
// unless a dry run, recovered from what an interrupted run left.
func openRoots(ctx context.Context, opts *Options) (*Report, *format.Digester, []rootInfo, error) {
	rep := &Report{DryRun: opts.DryRun, Results: []Result{}}
	dg := format.NewDigester()
	opts.lists = newLists()
	roots := scanRoots(opts)
	if err := guard(opts, roots); err != nil {
		return rep, dg, roots, err
	}
	if !opts.DryRun {
		if err := recoverRoots(ctx, roots, dg, opts.meta()); err != nil {
			return rep, dg, roots, err
		}
	}
	return rep, dg, roots, nil
}

// held is what a root holds of one name (see heldIn).
type held struct {
	// shown is the name's enabled place; place is where it is (its
	// receipt says whether it is disabled).
	shown, place string
	// rec and raw are its receipt, nil when none can be read; rerr says
	// why one cannot.
	rec  *receipt
	raw  []byte
	rerr error
	// disk is what is at place.
	disk *onDisk
}

// heldIn reads what root ri holds of name. The error is an unsafe
// receipts folder or a place that cannot be read: the operation stops.
func heldIn(opts *Options, ri rootInfo, name string, dg *format.Digester) (held, error) {
	h := held{shown: shapeDest(ri.path, name, ri.loc)}
	h.rec, h.raw, _, h.rerr = current(opts.meta(), ri.path, name, h.shown, ri.loc.Shape, dg)
	if isUnsafe(h.rerr) {
		return held{}, h.rerr
	}
	if h.rerr != nil {
		h.rec, h.raw = nil, nil
	}
	h.place = h.shown
	if h.rec != nil {
		h.place = placeOf(h.shown, ri.loc.Shape, h.rec.Disabled)
	}
	disk, err := inspect(h.place, ri.loc.Shape, h.rec, dg)
	if err != nil {
		return held{}, ioError("read", h.place, err)
	}
	h.disk = disk
	return h, nil
}

// scanRoots returns every root of every selected agent in the scope for
// every kind the agent has a location for, sorted by path.
func scanRoots(opts *Options) []rootInfo {
	byPath := map[string]*rootInfo{}
	var order []string
	for _, a := range opts.Agents {
		for _, k := range format.Kinds() {
			loc, ok := a.LocationFor(k, opts.Scope, opts.Env)
			if !ok {
				continue
			}
			for _, r := range agents.Roots(a, k, opts.Scope, opts.Env) {
				ri := byPath[r.Path]
				if ri == nil {
					ri = &rootInfo{path: r.Path, kind: k, loc: loc}
					ri.loc.Root = r.Path
					byPath[r.Path] = ri
					order = append(order, r.Path)
				}
				if ri.kind != k || slices.Contains(ri.readers, a.ID()) {
					continue
				}
				ri.readers = append(ri.readers, a.ID())
				if r.Deprecated {
					ri.deprecated = append(ri.deprecated, a.ID())
				}
			}
		}
	}
	slices.Sort(order)
	out := make([]rootInfo, 0, len(order))
	for _, p := range order {
		out = append(out, *byPath[p])
	}
	return out
}

// Scan lists every package in every root the selected agents read in the
// scope — the roots they are written to and the ones they only read,
// deprecated ones included — with its state: ok, modified (a tracked
// file changed or missing, with the files), unmanaged (no receipt: put
// there by hand or by another tool) or receipt-broken. It reports the
// files the user added, the readers that see the package, the readers for
// which the root is deprecated, and the readers that see a package of the
// same name through two roots. A pending receipt left by an interrupted
// run is resolved in memory, as Recover would, and flagged. Scan writes
// nothing and takes no lock. Results are sorted by root, then name. A
// root that is not safe to read (see Recover) is ASK_ROOT_UNSAFE.
func Scan(ctx context.Context, opts Options) ([]Installed, error) {
	out := []Installed{}
	err := scan(ctx, &opts, func(names, wanted int) {
		// Room for the root's packages at once: at 20,000 an Installed
		// each, growing the list copied megabytes, held twice meanwhile.
		if wanted > 0 {
			out = slices.Grow(out, min(names, wanted))
		} else {
			out = slices.Grow(out, names)
		}
	}, func(in Installed) error {
		in.Readers, in.Deprecated = slices.Clone(in.Readers), slices.Clone(in.Deprecated)
		out = append(out, in)
		return nil
	})
	if err != nil {
		return out, err
	}
	markSeenTwice(out)
	return out, nil
}

// ScanEach is Scan without the list: it gives fn each package Scan would
// list, in Scan's order, as it finds it, and keeps none of them, so that a
// caller that needs little of each (settling skills.lock after an install
// of 10,000 skills: 20,000 packages) holds only that. SeenTwiceBy, which
// needs every root, is left empty. The Readers and Deprecated of the
// packages of one root are one slice each, shared: fn must not change
// them. An error from fn stops the scan and is returned.
func ScanEach(ctx context.Context, opts Options, fn func(Installed) error) error {
	return scan(ctx, &opts, func(int, int) {}, fn)
}

// scan is Scan and ScanEach: it calls grow with the number of names of
// each root (and of names asked for, 0 for all) before giving fn the
// packages found under them.
func scan(ctx context.Context, opts *Options, grow func(names, wanted int), fn func(Installed) error) error {
	dg := format.NewDigester()
	roots := scanRoots(opts)
	if err := guard(opts, roots); err != nil {
		return err
	}
	// A set, not slices.Contains: the scans after an install are given
	// every name it installed (10,000 names, 20,000 packages).
	var wanted map[string]bool
	if len(opts.Names) > 0 {
		wanted = make(map[string]bool, len(opts.Names))
		for _, n := range opts.Names {
			wanted[n] = true
		}
	}
	for _, ri := range roots {
		if err := ctx.Err(); err != nil {
			return err
		}
		names, listing := packageNames(ri, opts.meta())
		grow(len(names), len(wanted))
		readers, deprecated := slices.Clip(ri.readers), slices.Clip(ri.deprecated)
		for _, name := range names {
			if wanted != nil && !wanted[name] {
				continue
			}
			dest := shapeDest(ri.path, name, ri.loc)
			rec, _, pending, rerr := current(opts.meta(), ri.path, name, dest, ri.loc.Shape, dg)
			var err error
			if isUnsafe(rerr) {
				return rerr
			}
			if rerr != nil {
				rec = nil
			}
			if rec != nil {
				dest = placeOf(dest, ri.loc.Shape, rec.Disabled)
			}
			var disk *onDisk
			if opts.ReceiptsOnly {
				disk, err = listing.presence(ri.path, dest, ri.loc.Shape)
			} else {
				disk, err = inspect(dest, ri.loc.Shape, rec, dg)
			}
			if err != nil {
				return ioError("read", dest, err)
			}
			if rerr == nil && rec == nil && !disk.exists {
				continue
			}
			in := Installed{
				Name: name, Kind: ri.kind, Root: ri.path, Dest: dest, Scope: opts.Scope,
				Readers: readers, Deprecated: deprecated,
				Pending: pending, State: StateOK,
			}
			switch {
			case rerr != nil:
				in.State = StateReceiptBroken
			case rec == nil:
				in.State = StateUnmanaged
				in.Version = unmanagedVersion(dest, ri.loc.Shape)
			case !disk.kindOK || disk.modified():
				in.State = StateModified
				in.ModifiedFiles = disk.modifiedList()
			}
			if rec != nil {
				in.Drift = disk.drift()
			}
			if rec != nil {
				in.Version, in.Kind, in.Registry, in.Resolved = rec.Version, rec.Kind, rec.Registry, rec.Resolved
				in.Source, in.Subpath = rec.Source, rec.Subpath
				in.Integrity, in.Role, in.Agents, in.Dependencies = rec.Integrity, rec.Role, rec.Agents, rec.Dependencies
				in.Disabled, in.Findings = rec.Disabled, rec.Findings
				in.AddedFiles = disk.added
			}
			if err := fn(in); err != nil {
				return err
			}
		}
	}
	return nil
}

// packageNames lists the names of the packages in a root: folders (or
// links) for the directory shape, files with the location's extension for
// the file shape, hidden entries excluded, plus every name with a receipt.
// It returns the root's listing too, which says what is at each name.
func packageNames(ri rootInfo, v *metaView) ([]string, rootListing) {
	names := receiptNames(v, ri.path)
	has := make(map[string]bool, len(names)) // a root may hold 10,000
	for _, n := range names {
		has[n] = true
	}
	ents, err := os.ReadDir(ri.path)
	listing := rootListing{listed: err == nil, types: make(map[string]fs.FileMode, len(ents))}
	for _, e := range ents {
		n := e.Name()
		listing.types[n] = e.Type()
		if strings.HasPrefix(n, ".") {
			continue
		}
		if ri.loc.Shape == agents.ShapeFile {
			base, ok := strings.CutSuffix(n, ri.loc.Extension)
			if !ok || base == "" || e.IsDir() {
				continue
			}
			n = base
		} else if !e.IsDir() && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		if !has[n] {
			has[n] = true
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, listing
}

// rootListing is what a root held when Scan listed it: the type of each
// entry (a link is a link), by name.
type rootListing struct {
	listed bool
	types  map[string]fs.FileMode
}

// presence is presence(dest, shape), answered from the listing when dest
// is an entry of the root it lists: the listing gives each entry's type
// as lstat would, and a package of a scan of receipts (right after a run
// wrote them) needs nothing more. That was an lstat per package and root,
// twice after every install.
func (l rootListing) presence(root, dest string, shape agents.Shape) (*onDisk, error) {
	if !l.listed || filepath.Dir(dest) != root {
		return presence(dest, shape)
	}
	d := &onDisk{}
	typ, ok := l.types[filepath.Base(dest)]
	if !ok {
		return d, nil
	}
	d.exists = true
	if shape == agents.ShapeFile {
		d.kindOK = typ.IsRegular()
	} else {
		d.kindOK = typ.IsDir()
	}
	return d, nil
}

// unmanagedVersion reads the version of a package put in place by hand
// from its skill.yaml, when it has one.
func unmanagedVersion(dest string, shape agents.Shape) string {
	if shape != agents.ShapeDirectory {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(dest, format.ManifestFile))
	if err != nil {
		return ""
	}
	m, _ := format.DecodeManifest(data, format.ManifestFile)
	if m == nil {
		return ""
	}
	return m.Version
}

// markSeenTwice fills SeenTwiceBy: the readers that see a package of the
// same kind and name in more than one root.
func markSeenTwice(list []Installed) {
	type key struct {
		kind format.Kind
		name string
	}
	groups := map[key][]int{}
	for i, in := range list {
		k := key{in.Kind, in.Name}
		groups[k] = append(groups[k], i)
	}
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		count := map[string]int{}
		for _, i := range idx {
			for _, a := range list[i].Readers {
				count[a]++
			}
		}
		for _, i := range idx {
			for _, a := range list[i].Readers {
				if count[a] > 1 {
					list[i].SeenTwiceBy = append(list[i].SeenTwiceBy, a)
				}
			}
		}
	}
}
