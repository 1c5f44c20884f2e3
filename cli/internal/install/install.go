package install

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// Install puts each item into every root that the selected agents need,
// as one transaction: either every package is in place with its receipt
// when it returns nil, or nothing changed.
//
// For each package it drops the agents that the manifest's
// compatibility.agents does not list, plans the roots with
// agents.PlanRoots, projects the package once per root with
// agents.LayoutForRoot and checks the layout against the root's shape.
// Then, before writing anything anywhere, it compares every destination
// with its receipt: a tracked file changed or missing (modified), a
// package without a receipt (unmanaged), an unreadable receipt, or a file
// the user added where the new version has one, refuses the whole install
// with ASK_MODIFIED_INSTALL, unless opts.Force. Files the user added that
// the new version does not have are carried into it.
//
// Each changed package is staged in <root>/.agent-skills/staging, synced,
// recorded in a pending receipt, and swapped into place atomically
// (renameat2 RENAME_EXCHANGE for a folder, rename for a file, with a
// rename-aside fallback that the pending receipt journals); the receipts
// are then written. A failure, a panic or runtime.Goexit at any step puts
// every old version and receipt back. A crash leaves each destination
// holding the old or the new version, complete, which Recover settles.
//
// With opts.Release, each item's Pkg is set to nil once its
// transactions are planned.
//
// The report has a Result per package and root — installed, upgraded,
// downgraded, reinstalled, unchanged or refused — and one per agent that
// was skipped. With opts.DryRun the report is the same and nothing is
// written.
func Install(ctx context.Context, items []Item, opts Options) (*Report, error) {
	for i, it := range items {
		if it.Pkg == nil && it.Load != nil {
			continue // checked once loaded (loaded)
		}
		if it.Pkg == nil || it.Pkg.Name() == "" {
			return nil, fmt.Errorf("install: item %d has no loaded package", i)
		}
		if !safeName(it.Pkg.Name()) {
			return nil, nameError(it.Pkg.Name())
		}
	}
	return install(ctx, items, &opts)
}

// loaded returns item i's package, decoding it when the item has only
// Load, with the checks Install makes of a loaded one.
func loaded(it Item, i int) (*format.Package, error) {
	if it.Pkg != nil {
		return it.Pkg, nil
	}
	pkg, err := it.Load()
	if err != nil {
		return nil, err
	}
	if pkg == nil || pkg.Name() == "" {
		return nil, fmt.Errorf("install: item %d has no loaded package", i)
	}
	if !safeName(pkg.Name()) {
		return nil, nameError(pkg.Name())
	}
	return pkg, nil
}

// planChunk is how many items install plans before it stages their
// transactions, when it has more: an install of up to planChunk items
// plans them all, then checks them, then stages; a larger one stages each
// chunk as soon as it is planned and checked, so that only one chunk's
// package files are held at once (at 10,000 packages in two roots, tens
// of MiB), and undoes what it staged if a later item is refused.
var planChunk = 1024

// chunkItems is how many items each chunk of a larger install has (at
// most planChunk): a chunk's plans hold its packages' files to stage and
// their receipts' records until it is staged, about 1.5 MB per 1,024
// packages in two roots, on top of everything the install holds until
// its commit.
var chunkItems = 256

// install is Install under the lock.
func install(ctx context.Context, items []Item, opts *Options) (_ *Report, err error) {
	rep, dg, _, err := openRoots(ctx, opts)
	if err != nil {
		return rep, err
	}
	now := opts.now().UTC().Format(time.RFC3339)
	r := newRunner(ctx, opts)
	defer r.settle(&err)
	// Each planning goroutine digests with its own Digester.
	var digesters [planWorkers]*format.Digester
	digesters[0] = dg
	var txns []*txn
	var refused, blocked []Result
	var stageErr error
	// Each destination planned, to the index of its result: the result
	// names the item (a name each would be as many bytes again).
	dests := map[string]int32{}
	step := len(items)
	if step > planChunk {
		step = min(planChunk, chunkItems)
	}
	for lo := 0; lo < len(items); lo += step {
		hi := min(lo+step, len(items))
		plans := planAll(ctx, items, lo, hi, opts, &digesters, now)
		// The plans are taken in the order of the items, as one loop over
		// them would: the report and the first error do not depend on which
		// goroutine planned what.
		first := len(txns)
		for _, p := range plans {
			if p.err != nil {
				return rep, p.err
			}
			rep.Results = append(rep.Results, p.skips...)
			rep.Duplicates = append(rep.Duplicates, p.dups...)
			if p.inexact {
				rep.Inexact = append(rep.Inexact, p.name)
			}
			for _, pt := range p.targets {
				if pt.layoutErr != nil {
					return rep, pt.layoutErr
				}
				if other, ok := dests[pt.dest]; ok {
					return rep, fmt.Errorf("install: %s and %s both install to %s", rep.Results[other].Name, p.name, pt.dest)
				}
				// pt.r is appended below, at this index.
				dests[pt.dest] = int32(len(rep.Results))
				if pt.err != nil {
					return rep, pt.err
				}
				switch {
				case pt.blocked:
					blocked = append(blocked, pt.r)
				case pt.r.Outcome == OutcomeRefused:
					refused = append(refused, pt.r)
				case pt.t != nil:
					txns = append(txns, pt.t)
					pt.t.share()
				}
				rep.Results = append(rep.Results, pt.r)
			}
		}
		if hi == len(items) {
			break
		}
		if lo == 0 {
			// As many results and transactions again per item.
			rep.Results = slices.Grow(rep.Results, len(rep.Results)*(len(items)-hi)/hi+1)
			txns = slices.Grow(txns, len(txns)*(len(items)-hi)/hi+1)
		}
		// Staged now, unless nothing will be: the errors come in the order
		// they would without chunks (the items' own, refusals, then
		// staging's), and the caller's undo removes what was staged.
		if len(refused) == 0 && len(blocked) == 0 && stageErr == nil && !opts.DryRun {
			stageErr = r.stage(txns[first:])
		}
	}
	if len(refused) > 0 {
		return rep, modifiedError("install", refused)
	}
	if len(blocked) > 0 {
		return rep, blockedError("install", blocked)
	}
	if opts.DryRun {
		return rep, nil
	}
	if stageErr != nil {
		return rep, stageErr
	}
	if err := r.stage(txns[len(r.txns):]); err != nil {
		return rep, err
	}
	return rep, r.finish()
}

// itemPlan is what planning one item gives: its skips and duplicates,
// and a plan per root, or the error that stopped it.
type itemPlan struct {
	name    string
	skips   []Result
	dups    []Duplicate
	inexact bool
	targets []targetPlan
	err     error
}

// targetPlan is one item's plan for one root: its result and, when it
// writes anything, its transaction. layoutErr is an error met before the
// destination is known to be the item's alone, err one met after.
type targetPlan struct {
	dest      string
	layoutErr error
	err       error
	r         Result
	blocked   bool
	t         *txn
}

// planWorkers bounds the goroutines that plan items at once.
const planWorkers = 4

// planAll plans items [lo, hi) — projecting each package once per root
// and comparing each destination with its receipt, which only read — on
// up to planWorkers goroutines, as many as the machine has processors,
// each with its own Digester (made on first use in digesters). Once an
// item fails, no later one is started; the caller takes the plans in
// order, so the first failure in order is the one reported. A panic in a
// worker is re-raised here once every worker stopped.
func planAll(ctx context.Context, items []Item, lo, hi int, opts *Options, digesters *[planWorkers]*format.Digester, now string) []itemPlan {
	plans := make([]itemPlan, hi-lo)
	inOrder(hi-lo, planWorkers, func(w, i int) bool {
		if digesters[w] == nil {
			digesters[w] = format.NewDigester()
		}
		plans[i] = planItem(ctx, items, lo+i, opts, digesters[w], now)
		return plans[i].failed()
	})
	return plans
}

// failed reports whether planning the item met an error.
func (p *itemPlan) failed() bool {
	if p.err != nil {
		return true
	}
	for _, pt := range p.targets {
		if pt.layoutErr != nil || pt.err != nil {
			return true
		}
	}
	return false
}

// planItem plans items[i] in every root its agents need (see Install).
func planItem(ctx context.Context, items []Item, i int, opts *Options, dg *format.Digester, now string) (p itemPlan) {
	if err := ctx.Err(); err != nil {
		return itemPlan{err: err}
	}
	it := items[i]
	pkg, err := loaded(it, i)
	if err != nil {
		return itemPlan{err: err}
	}
	if opts.Release {
		items[i].Pkg, items[i].Load = nil, nil // the transactions keep what staging needs
	}
	// The name and version are copied out of the package's manifest text,
	// which every result, transaction and receipt of the item would
	// otherwise keep whole (a few hundred bytes per package, once the
	// package itself is let go).
	name := strings.Clone(pkg.Name())
	p.name = name
	fsys := pkg.FS
	if fsys == nil {
		fsys = os.DirFS(it.Dir)
	}
	base := Result{Name: name, Version: strings.Clone(pkg.Version()), Kind: pkg.Kind, Role: it.Role}
	compatible, skips := compatibleAgents(pkg, opts.Agents, opts.AgentVersions)
	for _, s := range skips {
		r := base
		r.Outcome, r.Agent, r.Reason = OutcomeSkipped, s.Agent, s.Reason
		p.skips = append(p.skips, r)
	}
	plan := agents.PlanRoots(compatible, pkg.Kind, opts.Scope, opts.Env)
	p.inexact = plan.Inexact
	plan.KeepCopies(compatible, pkg.Kind, opts.Scope, opts.Env, func(root string) bool {
		return ownCopy(opts, root, name)
	})
	for _, s := range plan.Skips {
		r := base
		r.Outcome, r.Agent, r.Reason = OutcomeSkipped, s.Agent, s.Reason
		p.skips = append(p.skips, r)
	}
	for _, d := range plan.Duplicates {
		p.dups = append(p.dups, Duplicate{Name: name, Duplicate: d})
	}
	hashes := map[string]string{}
	shared := map[string]*sharedFile{}
	contents := map[string]knownContent{}
	for _, tgt := range plan.Targets {
		var pt targetPlan
		readers := pick(compatible, tgt.Readers)
		layout, err := agents.LayoutForRoot(pkg, readers)
		if err == nil {
			err = layout.Check(tgt.Shape)
		}
		if err != nil {
			pt.layoutErr = err
			p.targets = append(p.targets, pt)
			return p
		}
		dest := tgt.Dest(name)
		pt.dest = dest
		pt.err = planTarget(&pt, tgt, layout, dest, it, opts, dg, fsys, hashes, shared, contents, base, now)
		p.targets = append(p.targets, pt)
		if pt.err != nil {
			return p
		}
	}
	return p
}

// ownCopy reports whether root holds name, installed by agent-skills for
// selected agents only: a copy an earlier install left for some of them,
// which the install rewrites with the others (agents.Plan.KeepCopies). A
// copy that any other agent was given is that agent's, and left as it is.
func ownCopy(opts *Options, root, name string) bool {
	rec, _, err := readReceiptIn(opts.meta(), root, name)
	if err != nil || rec == nil || len(rec.Agents) == 0 {
		return false
	}
	for _, id := range rec.Agents {
		if !slices.ContainsFunc(opts.Agents, func(a agents.Adapter) bool { return a.ID() == id }) {
			return false
		}
	}
	return true
}

// planTarget fills pt, the plan of one item for the root of tgt whose
// destination dest is the item's alone.
func planTarget(pt *targetPlan, tgt agents.Target, layout agents.Layout, dest string, it Item, opts *Options, dg *format.Digester, fsys fs.FS, hashes map[string]string, shared map[string]*sharedFile, contents map[string]knownContent, base Result, now string) error {
	name := base.Name
	disabled := stateIn(opts.meta(), tgt.Root, name, dest, tgt.Shape, it.Disabled, dg)
	place := placeOf(dest, tgt.Shape, disabled)
	files, recs, err := project(layout, tgt.Shape, dest, fsys, dg, hashes, shared, contents)
	if err != nil {
		return err
	}
	r := base
	r.Root, r.Dest, r.Readers = tgt.Root, place, opts.lists.strings(tgt.Readers)
	if disabled {
		if f := ambiguousName(recs, tgt.Shape); f != "" {
			r.Outcome, r.Reason = OutcomeRefused, fmt.Sprintf("it is disabled here, and the new version has a file named %s, which a disabled SKILL.md would be named too", f)
			pt.r, pt.blocked = r, true
			return nil
		}
		files, recs = hideFiles(files, recs, tgt.Shape)
	}
	t := &txn{
		kind: txnWrite, root: tgt.Root, name: name, dest: place, shape: tgt.Shape, files: files, keepRole: it.KeepRole,
		rec: &receipt{
			SchemaVersion: receiptSchema, Name: name, Version: base.Version, Kind: base.Kind,
			Shape: tgt.Shape, Registry: it.Registry, Source: it.Source, Subpath: it.Subpath, Resolved: it.Resolved, Integrity: it.Integrity,
			Role: it.Role, Dependencies: it.Dependencies, Agents: slices.Clone(tgt.Readers), InstalledAt: now, Files: recs,
			Disabled: disabled, Findings: it.Findings,
		},
	}
	r.Files = opts.lists.of(len(recs), func(i int) string { return recs[i].Path })
	keep, err := classify(t, dest, &r, opts, dg)
	if err != nil {
		return err
	}
	if r.Outcome != OutcomeRefused && keep {
		pt.t = t
	}
	pt.r = r
	return nil
}

// stateIn returns whether the package name, whose enabled place in root
// is dest, is to be written disabled: as its receipt there says, or, with
// none that can be read, as asked.
func stateIn(v *metaView, root, name, dest string, shape agents.Shape, asked bool, dg *format.Digester) bool {
	if old, _, _, err := current(v, root, name, dest, shape, dg); err == nil && old != nil {
		return old.Disabled
	}
	return asked
}

// hideFiles renames the staged files and their records to the names they
// have while disabled, keeping both in the order of the records' paths.
func hideFiles(files []stagedFile, recs []fileRecord, shape agents.Shape) ([]stagedFile, []fileRecord) {
	idx := make([]int, len(recs))
	for i := range recs {
		idx[i] = i
		recs[i].Path = hiddenPath(recs[i].Path, shape)
		files[i].rel = recs[i].Path
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(recs[a].Path, recs[b].Path) })
	outF := make([]stagedFile, len(idx))
	outR := make([]fileRecord, len(idx))
	for i, k := range idx {
		outF[i], outR[i] = files[k], recs[k]
	}
	return outF, outR
}

// classify compares the destination of t with its receipt and decides the
// outcome; shown is the package's enabled place, where its receipt is
// looked up. It fills t's old receipt, the user's files to keep and r's
// outcome; it returns whether t has anything to write.
func classify(t *txn, shown string, r *Result, opts *Options, dg *format.Digester) (bool, error) {
	old, raw, _, rerr := current(opts.meta(), t.root, t.name, shown, t.shape, dg)
	if isUnsafe(rerr) {
		return false, rerr
	}
	if rerr != nil {
		old, raw = nil, nil
	}
	t.oldReceipt = raw
	if t.keepRole && old != nil && old.Role != "" {
		t.rec.Role = old.Role
		r.Role = old.Role
	}
	disk, err := inspect(t.dest, t.shape, old, dg)
	if err != nil {
		return false, ioError("read", t.dest, err)
	}
	t.existed = disk.exists
	newPaths := map[string]bool{}
	for _, f := range t.rec.Files {
		newPaths[f.Path] = true
	}
	var problem string
	switch {
	case rerr != nil:
		problem = "its receipt cannot be read: " + rerr.Error()
	case old == nil && disk.exists:
		problem = "it was not installed by agent-skills (no receipt)"
	case old != nil && disk.exists && !disk.kindOK:
		problem = "something else is in its place"
		r.Modified = disk.modifiedList()
	case old != nil && disk.exists && disk.modified():
		problem = "files were changed or removed since it was installed"
		r.Modified = disk.modifiedList()
	}
	if t.shape == agents.ShapeDirectory && disk.kindOK {
		for _, a := range disk.added {
			if newPaths[a] {
				r.Modified = append(r.Modified, a+" (added by you; the new version has it too)")
			} else if p := fileAncestor(a, newPaths); p != "" {
				r.Modified = append(r.Modified, a+" (added by you; the new version has a file "+p+")")
			} else {
				x := t.extra()
				x.keep = append(x.keep, a)
			}
		}
		if problem == "" && len(r.Modified) > 0 {
			problem = "files you added would be overwritten"
		}
	}
	if old != nil {
		r.Previous = old.Version
	}
	if problem != "" && !opts.Force {
		r.Outcome, r.Reason = OutcomeRefused, problem
		return false, nil
	}
	r.Preserved = t.keeps()
	switch {
	case !disk.exists || old == nil:
		r.Outcome = OutcomeInstalled
	case problem == "" && sameFiles(old.Files, t.rec.Files):
		r.Outcome, r.Files = OutcomeUnchanged, nil
		if sameMeta(old, t.rec) {
			return false, nil
		}
		t.kind = txnReceipt
		return true, nil
	default:
		r.Outcome = compareVersions(old.Version, t.rec.Version)
	}
	return true, nil
}

// fileAncestor returns the first parent folder of rel that is a file in
// files, or "".
func fileAncestor(rel string, files map[string]bool) string {
	for i := range len(rel) {
		if rel[i] == '/' && files[rel[:i]] {
			return rel[:i]
		}
	}
	return ""
}

// compareVersions names the move from version a to version b.
func compareVersions(a, b string) Outcome {
	va, errA := semver.StrictNewVersion(a)
	vb, errB := semver.StrictNewVersion(b)
	if errA != nil || errB != nil {
		if a == b {
			return OutcomeReinstalled
		}
		return OutcomeUpgraded
	}
	switch va.Compare(vb) {
	case -1:
		return OutcomeUpgraded
	case 1:
		if contentVersion(va) && contentVersion(vb) && va.Prerelease() != vb.Prerelease() {
			// Other bytes of a bare skill: the hashes have no order,
			// and the new bytes are the newer ones.
			return OutcomeUpgraded
		}
		return OutcomeDowngraded
	}
	return OutcomeReinstalled
}

// contentVersion reports whether v is the version a source gives a bare
// skill from its content, 0.0.0-<kind>-<12 hex digits> (folders, archives,
// MCP servers): two of them name different bytes, not an older and a
// newer release.
func contentVersion(v *semver.Version) bool {
	if v.Major() != 0 || v.Minor() != 0 || v.Patch() != 0 {
		return false
	}
	kind, sum, ok := strings.Cut(v.Prerelease(), "-")
	if !ok || kind == "" || len(sum) != 12 {
		return false
	}
	for _, r := range kind {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	for _, r := range sum {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// compatibleAgents splits the selected agents into those the manifest's
// compatibility.agents allows (all, when it lists none) and skips for the
// others: an agent not listed, or listed with a minVersion constraint
// that its known version does not meet.
func compatibleAgents(pkg *format.Package, selected []agents.Adapter, versions map[string]string) ([]agents.Adapter, []agents.Skip) {
	if pkg.Manifest == nil || len(pkg.Manifest.Compatibility.Agents) == 0 {
		return selected, nil
	}
	var ok []agents.Adapter
	var skips []agents.Skip
	for _, a := range selected {
		c, found := listed(pkg.Manifest.Compatibility.Agents, a)
		if !found {
			skips = append(skips, agents.Skip{
				Agent:  a.ID(),
				Reason: fmt.Sprintf("%s is not listed in the compatibility.agents of %s", a.DisplayName(), pkg.Name()),
			})
			continue
		}
		if reason := versionMismatch(c, a, versions[a.ID()]); reason != "" {
			skips = append(skips, agents.Skip{Agent: a.ID(), Reason: reason})
			continue
		}
		ok = append(ok, a)
	}
	return ok, skips
}

// versionMismatch explains why an agent at version v does not meet the
// entry's minVersion, or returns "" when it does or when either is
// unknown or unreadable.
func versionMismatch(c format.AgentCompat, a agents.Adapter, v string) string {
	if c.MinVersion == "" || v == "" {
		return ""
	}
	want := c.MinVersion
	if !strings.ContainsAny(want, "<>=~^!, ") {
		want = ">=" + want
	}
	con, err := semver.NewConstraint(want)
	if err != nil {
		return ""
	}
	got, err := semver.NewVersion(v)
	if err != nil {
		return ""
	}
	if con.Check(got) {
		return ""
	}
	return fmt.Sprintf("%s %s does not meet minVersion %q", a.DisplayName(), v, c.MinVersion)
}

// listed returns the entry of compat that names a by id or alias.
func listed(compat []format.AgentCompat, a agents.Adapter) (format.AgentCompat, bool) {
	for _, c := range compat {
		if c.ID == a.ID() || slices.Contains(a.Aliases(), c.ID) {
			return c, true
		}
	}
	return format.AgentCompat{}, false
}

// pick returns the adapters whose ids are in ids, in the order of ids.
func pick(all []agents.Adapter, ids []string) []agents.Adapter {
	out := make([]agents.Adapter, 0, len(ids))
	for _, id := range ids {
		for _, a := range all {
			if a.ID() == id {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// knownDigests is a package file system that knows the digest of each of
// its files (format.Digester.FileDigest of its bytes) without reading it:
// a source read in place, which hands out no other bytes than those.
type knownDigests interface {
	FileDigest(name string) (string, bool)
}

// knownContent is a file a layout synthesised for one of a package's
// roots (skill.yaml for a SKILL.md-only source, agents/openai.yaml), and
// its digest.
type knownContent struct {
	data   []byte
	digest string
}

// project turns a layout into the files to stage and their receipt
// records. A file-shaped layout's single entry is recorded under the
// destination's own name. hashes caches the digests of package files
// copied into several roots, shared their small files' bytes (see
// sharedFile), and contents the files synthesised for an earlier root:
// a root whose layout synthesises the same bytes at the same path keeps
// that copy and its digest, so that a package planned into two roots
// holds its skill.yaml once until it is staged.
func project(l agents.Layout, shape agents.Shape, dest string, fsys fs.FS, dg *format.Digester, hashes map[string]string, shared map[string]*sharedFile, contents map[string]knownContent) ([]stagedFile, []fileRecord, error) {
	files := make([]stagedFile, 0, len(l.Entries))
	recs := make([]fileRecord, 0, len(l.Entries))
	for _, e := range l.Entries {
		f := stagedFile{rel: e.Path, perm: 0o644}
		if shape == agents.ShapeFile {
			f.rel = filepath.Base(dest)
		}
		var digest string
		if e.CopyFrom != "" {
			info, err := fs.Stat(fsys, e.CopyFrom)
			if err != nil {
				return nil, nil, ioError("read the package file", e.CopyFrom, err)
			}
			if info.Mode().Perm()&0o111 != 0 {
				f.perm = 0o755
			}
			f.fsys, f.copyFrom = fsys, e.CopyFrom
			if info.Size() <= maxShared {
				if shared[e.CopyFrom] == nil {
					shared[e.CopyFrom] = &sharedFile{}
				}
				f.src = shared[e.CopyFrom]
			}
			digest = hashes[e.CopyFrom]
			if kd, ok := fsys.(knownDigests); ok && digest == "" {
				digest, _ = kd.FileDigest(e.CopyFrom)
			}
			if digest == "" {
				in, err := fsys.Open(e.CopyFrom)
				if err != nil {
					return nil, nil, ioError("read the package file", e.CopyFrom, err)
				}
				digest, err = dg.FileDigest(in)
				in.Close()
				if err != nil {
					return nil, nil, ioError("read the package file", e.CopyFrom, err)
				}
				hashes[e.CopyFrom] = digest
			}
		} else if kc, ok := contents[e.Path]; ok && bytes.Equal(kc.data, e.Content) {
			f.content, digest = kc.data, kc.digest
		} else {
			f.content = e.Content
			d, err := dg.FileDigest(bytes.NewReader(e.Content))
			if err != nil {
				return nil, nil, err
			}
			digest = d
			contents[e.Path] = knownContent{data: e.Content, digest: d}
		}
		files = append(files, f)
		recs = append(recs, fileRecord{Path: f.rel, Digest: digest, Mode: modeString(f.perm)})
	}
	return files, recs, nil
}
