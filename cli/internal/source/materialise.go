package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/validate"
)

// versionFunc picks the version of a bare skill from its front matter,
// its files (fsys, the file set without skill.yaml) and the source.
type versionFunc func(b bareSkill, fsys fs.FS, files []string) (string, error)

// materialiseChosen materialises each chosen skill of t. When "*" chose
// them, a skill the gate refuses (validation, or a file that cannot be
// copied safely) is listed in skipped, unless it is also named. Any other
// refusal — a named skill, the one skill of a source, skills picked from a
// list — fails the whole call, after every chosen skill was tried, so that
// the error names each refused skill with all its reasons. On an error
// nothing is left in opts.Dir.
func materialiseChosen(ctx context.Context, t *tree, chosen []Found, named map[string]bool, version versionFunc, opts *Options) ([]*Package, []Skipped, error) {
	siblings := newSiblingIndex(t.src)
	// Listing the siblings for every skill of a collection made each
	// skill's options a list of all the others; materialise asks for
	// them only for a skill with a link out of its folder.
	type result struct {
		p   *Package
		err error
	}
	results := make([]result, len(chosen))
	one := func(i int) {
		f := chosen[i]
		results[i].p, results[i].err = materialise(ctx, t, f, version, "", func() []string { return siblings.of(f.Path) }, opts)
	}
	if opts.InPlace {
		// Verified in memory, each skill on its own: in parallel (reading,
		// decoding, validating and digesting 500 skills was a fifth of an
		// install, on one processor). The results are taken in order
		// below, so what is installed, skipped or refused does not depend
		// on the timing.
		eachParallel(len(chosen), materialiseWorkers, one)
	} else {
		for i := range chosen {
			if one(i); results[i].err != nil {
				if _, ok := skipOf(chosen[i], results[i].err); !ok {
					break // fails the call below, as it always did: nothing more is copied
				}
			}
		}
	}
	var pkgs []*Package
	var skipped []Skipped
	var refused []refusedSkill
	fail := func(err error) ([]*Package, []Skipped, error) {
		for _, r := range results {
			if r.p != nil && r.p.Dir != "" {
				os.RemoveAll(r.p.Dir)
			}
		}
		return nil, nil, err
	}
	for i, f := range chosen {
		p, err := results[i].p, results[i].err
		if err == nil {
			pkgs = append(pkgs, p)
			continue
		}
		sk, ok := skipOf(f, err)
		switch {
		case !ok:
			return fail(err)
		case !named["*"] || opts.AllOrNothing || named[f.Name] || named[path.Base(orDot(f.Path))]:
			refused = append(refused, refusedSkill{sk, err})
		default:
			skipped = append(skipped, sk)
		}
	}
	if len(refused) > 0 {
		return fail(refusedError(refused, t.url, opts.AllOrNothing))
	}
	return pkgs, skipped, nil
}

// materialiseWorkers bounds the goroutines that materialise a source's
// skills at once.
const materialiseWorkers = 4

// eachParallel calls fn(i) for every i in [0, n) on up to limit
// goroutines and no more than the machine has processors, taking the
// indexes in order; with one, on the caller's. A panic in fn is re-raised
// here once every goroutine stopped.
func eachParallel(n, limit int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), limit, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var panicked atomic.Value
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, r)
					next.Store(int64(n)) // no more indexes
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(r)
	}
}

// namedSkills returns the skills r and opts name, "*" included.
func namedSkills(r Ref, opts *Options) map[string]bool {
	named := map[string]bool{}
	for _, n := range append(slices.Clone(opts.Skills), r.Skill) {
		if n != "" {
			named[n] = true
		}
	}
	return named
}

// refusedSkill is a named skill the gate refused, and the error that said so.
type refusedSkill struct {
	Skipped
	err error
}

// skipOf describes a skill that materialise refused, when err is such a
// refusal: a validation failure, an unsafe or an oversized file.
func skipOf(f Found, err error) (Skipped, bool) {
	var e *Error
	if !errors.As(err, &e) {
		return Skipped{}, false
	}
	switch e.Code {
	case askerr.CodeValidationFailed, format.CodePackageUnsafeFile, format.CodePackageTooLarge:
	default:
		return Skipped{}, false
	}
	sk := Skipped{Name: f.Name, Path: f.Path, Code: e.Code, Reason: e.Message, Diagnostics: e.Diagnostics}
	if len(sk.Diagnostics) == 0 {
		sk.Diagnostics = format.Diagnostics{{Severity: format.SeverityError, Code: e.Code, Message: e.Message}}
	}
	return sk, true
}

// refusedError is the error for named skills the gate refused: the one
// skill's own error, or one naming every refused skill with its reasons.
// Its code is the worst of theirs: an unsafe or oversized file before a
// validation failure. allOrNothing says "*" refused them too.
func refusedError(refused []refusedSkill, where string, allOrNothing bool) error {
	if len(refused) == 1 {
		return refused[0].err
	}
	code := askerr.CodeValidationFailed
	var detail []string
	var all format.Diagnostics
	for _, r := range refused {
		if r.Code != askerr.CodeValidationFailed && code == askerr.CodeValidationFailed {
			code = r.Code
		}
		detail = append(detail, fmt.Sprintf("%s (%s):", r.Name, orDot(r.Path)))
		for _, d := range r.Diagnostics {
			detail = append(detail, "  "+d.String())
		}
		all = append(all, r.Diagnostics...)
	}
	names := make([]string, len(refused))
	for i, r := range refused {
		names[i] = r.Name
	}
	others := "install the others by name, or all that pass with --skill '*'"
	if allOrNothing {
		others = "without --strict, --skill '*' installs the skills that pass and lists the others"
	}
	return &Error{Code: code, Diagnostics: all, Detail: detail,
		Message: fmt.Sprintf("%d skills from %s cannot be installed (%s); nothing was installed", len(refused), where, strings.Join(names, ", ")),
		Try:     []string{"report the problems above to the skills' maintainers", others}}
}

// siblingsOf returns the names of the folders beside the skill folder p of
// fsys that hold a SKILL.md: the packages a link such as
// ../beta/SKILL.md may point at. A skill at the root has none.
func siblingsOf(fsys fs.FS, p string) []string { return newSiblingIndex(fsys).of(p) }

// leavesPackage reports whether diags, validated without the siblings,
// hold a link out of the package: only such a link is validated
// differently with the siblings (validate.Options.Siblings) than without
// them, and every such link is reported, at every gate.
func leavesPackage(diags format.Diagnostics) bool {
	for _, d := range diags {
		if d.Code == validate.CodeLinkOutsidePackage {
			return true
		}
	}
	return false
}

// siblingIndex answers siblingsOf for many skill folders of one tree,
// listing each parent folder once: the skills of a collection share a
// parent, and listing it again for each of them made a large collection's
// install quadratic (at 500 skills, two thirds of the install's time).
type siblingIndex struct {
	fsys     fs.FS
	mu       sync.Mutex          // materialise asks from several goroutines
	byParent map[string][]string // parent folder -> its folders holding a SKILL.md
}

// newSiblingIndex returns an empty index of fsys.
func newSiblingIndex(fsys fs.FS) *siblingIndex {
	return &siblingIndex{fsys: fsys, byParent: map[string][]string{}}
}

// of is siblingsOf(s.fsys, p).
func (s *siblingIndex) of(p string) []string {
	if p == "" {
		return nil
	}
	parent, self := path.Dir(p), path.Base(p)
	if parent == "." {
		parent = ""
	}
	s.mu.Lock()
	all, ok := s.byParent[parent]
	if !ok {
		all = skillFolders(s.fsys, parent)
		s.byParent[parent] = all
	}
	s.mu.Unlock()
	var out []string
	for _, n := range all {
		if n != self {
			out = append(out, n)
		}
	}
	return out
}

// skillFolders returns the names of the folders in parent that hold a
// regular SKILL.md.
func skillFolders(fsys fs.FS, parent string) []string {
	ents, err := fs.ReadDir(fsys, orDot(parent))
	if err != nil {
		return []string{}
	}
	out := []string{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if isSkillFolder(fsys, join(parent, e.Name())) {
			out = append(out, e.Name())
		}
	}
	return out
}

// materialise copies the skill folder f of t into opts.Dir/<name>,
// synthesises skill.yaml for a bare skill, loads the package, validates it
// at opts.Gate (with siblings(), the folders beside it, for links into a
// sibling skill — asked for only when a link leaves the package) and with
// opts.Check, keeps only its file set and digests
// it. A non-empty want is the integrity the package must have. The
// warnings are returned in Package.Diagnostics; a package with errors is
// ASK_VALIDATION_FAILED with every diagnostic.
//
// With opts.InPlace nothing is copied: the skill is verified over a
// snapshot in memory and the package reads its files from t in place,
// checked against what was verified (see pinnedFS); t must then stay open
// until the package is installed.
func materialise(ctx context.Context, t *tree, f Found, version versionFunc, want string, siblings func() []string, opts *Options) (*Package, error) {
	var (
		tmp  string
		snap fstest.MapFS
		fsys fs.FS
	)
	var sums *snapSums
	dg := t.borrowDigester()
	defer t.returnDigester(dg)
	if opts.InPlace {
		var err error
		if snap, err = snapshotTree(ctx, t.src, f.Path, format.DefaultLimits()); err != nil {
			return nil, err
		}
		sums = &snapSums{snap: snap, raw: map[string]string{}, dg: dg}
		fsys = snapFS{snap, sums}
	} else {
		if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
			return nil, err
		}
		var err error
		if tmp, err = os.MkdirTemp(opts.Dir, ".source-"); err != nil {
			return nil, err
		}
		defer func() {
			if tmp != "" { // not renamed into place
				os.RemoveAll(tmp)
			}
		}()
		if err := copyTree(ctx, t.src, f.Path, tmp, format.DefaultLimits()); err != nil {
			return nil, err
		}
		fsys = os.DirFS(tmp)
	}
	synth := false
	var mem map[string][]byte
	if _, err := fs.Stat(fsys, format.ManifestFile); errors.Is(err, fs.ErrNotExist) {
		pkg, _ := format.Load(fsys, format.LoadOptions{Entrypoints: &t.src.entrypoints})
		var e *format.Entrypoint
		if pkg.EntrypointFile == "SKILL.md" {
			e = pkg.Entrypoint // the same bytes, decoded by Load
		}
		b, err := readBareFrom(fsys, f.Name, e)
		if err != nil {
			return nil, err
		}
		v, err := version(b, fsys, pkg.Files)
		if err != nil {
			return nil, err
		}
		data, err := synthManifest(b, v)
		if err != nil {
			return nil, err
		}
		if snap != nil {
			snap[format.ManifestFile] = &fstest.MapFile{Data: data, Mode: 0o644}
			mem = map[string][]byte{format.ManifestFile: data}
		} else if err := os.WriteFile(filepath.Join(tmp, format.ManifestFile), data, 0o644); err != nil {
			return nil, err
		}
		synth = true
	}
	// The SKILL.md bytes are the ones discovery decoded: through the
	// cache they are decoded once.
	pkg, diags := format.Load(fsys, format.LoadOptions{Entrypoints: &t.src.entrypoints})
	name := pkg.Name()
	vopts := validate.Options{Gate: opts.Gate, DirName: name, OverrideKeys: opts.OverrideKeys}
	checked := validate.Package(pkg, vopts)
	if leavesPackage(checked) {
		if vopts.Siblings = siblings(); len(vopts.Siblings) > 0 {
			checked = validate.Package(pkg, vopts)
		}
	}
	diags = append(diags, checked...)
	if opts.Check != nil && pkg.Entrypoint != nil {
		diags = append(diags, opts.Check(pkg)...)
	}
	diags.Sort()
	where := t.url
	if f.Path != "" {
		where += " (" + f.Path + ")"
	}
	if err := refusal(diags, f.Name, where); err != nil {
		return nil, err
	}
	if diags.HasErrors() || pkg.Manifest == nil || name == "" {
		e := &Error{Code: askerr.CodeValidationFailed, Diagnostics: errorsOf(diags),
			Message: fmt.Sprintf("skill %s from %s is not a valid package; nothing was installed", f.Name, where),
			Try:     invalidTry(t, f)}
		for _, d := range diags {
			if d.Severity == format.SeverityError {
				e.Detail = append(e.Detail, d.String())
			}
		}
		return nil, e
	}
	if snap == nil {
		if err := registry.Prune(tmp, pkg.Files); err != nil {
			return nil, err
		}
	}
	sum, err := digestFiles(fsys, pkg.Files, dg)
	if err != nil {
		return nil, err
	}
	if want != "" && !format.SameIntegrity(want, sum) {
		return nil, &Error{Code: registry.CodeIntegrityMismatch,
			Message: fmt.Sprintf("%s from %s does not match skills.lock", name, where),
			Detail:  []string{"expected (skills.lock): " + want, "actual:                 " + sum},
			Try: []string{"nothing was installed; the source's bytes changed since they were locked",
				"agent-skills update " + name + "   (only if you trust the new bytes)"}}
	}
	var dest string
	if snap != nil {
		// Two skills of one fetch with one name would be one folder of the
		// copy: the same refusal.
		if !t.claim(name) {
			return nil, fmt.Errorf("source: two skills of %s are named %s", t.url, name)
		}
		pinned, err := newPinnedFS(t.fsys, f.Path, where, snap, pkg.Files, mem, sums.of, t.keep)
		if err != nil {
			return nil, err
		}
		pkg.FS = pinned
	} else {
		dest = filepath.Join(opts.Dir, name)
		if _, err := os.Lstat(dest); err == nil {
			return nil, fmt.Errorf("source: %s already exists", dest)
		}
		if err := os.Rename(tmp, dest); err != nil {
			return nil, err
		}
		tmp = ""
		pkg, _ = format.Load(os.DirFS(dest), format.LoadOptions{})
	}
	p := &Package{Name: name, Version: pkg.Version(), Dir: dest, Subpath: f.Path, Commit: t.commit,
		Integrity: sum, Synthesised: synth, Pkg: pkg, Resolved: t.url, Diagnostics: warningsOf(diags)}
	if t.commit != "" || f.Path != "" {
		p.Resolved += "#" + t.commit
		if f.Path != "" {
			p.Resolved += ":" + f.Path
		}
	}
	return p, nil
}

// invalidTry is what to do about a skill that fails validation: a folder
// on this machine is yours to fix (it has no ref to pin); a repository's
// problems go to its maintainers, or another commit may be valid.
func invalidTry(t *tree, f Found) []string {
	switch {
	case t.local:
		dir := filepath.Join(t.root, filepath.FromSlash(f.Path))
		return []string{"fix the problems above in " + dir + ", then install it again",
			"agent-skills validate " + dir + "   (to check it first)"}
	case t.co == nil:
		return []string{"report the problems above to whoever published the archive"}
	}
	return []string{"report the problems above to the skill's maintainers", "or pin a ref where the skill is valid: …#<tag or commit>"}
}

// errorsOf and warningsOf split diagnostics by severity.
func errorsOf(ds format.Diagnostics) format.Diagnostics { return bySeverity(ds, format.SeverityError) }
func warningsOf(ds format.Diagnostics) format.Diagnostics {
	return bySeverity(ds, format.SeverityWarning)
}

// bySeverity returns the diagnostics of severity sev.
func bySeverity(ds format.Diagnostics, sev format.Severity) format.Diagnostics {
	var out format.Diagnostics
	for _, d := range ds {
		if d.Severity == sev {
			out = append(out, d)
		}
	}
	return out
}

// refusal returns the error for a skill whose diagnostics hold an unsafe
// or oversized file, which no flag may let through: the code of the first
// such diagnostic, and every diagnostic with that code, so that all the
// offending files are named at once, with every error of diags as its
// Diagnostics. It returns nil when there is none.
func refusal(diags format.Diagnostics, name, where string) error {
	var code string
	var hits []string
	for _, d := range diags {
		if d.Severity != format.SeverityError || d.Code != format.CodePackageUnsafeFile && d.Code != format.CodePackageTooLarge {
			continue
		}
		if code == "" {
			code = d.Code
		}
		if d.Code == code {
			hits = append(hits, d.String())
		}
	}
	switch len(hits) {
	case 0:
		return nil
	case 1:
		return &Error{Code: code, Message: fmt.Sprintf("skill %s from %s is refused: %s", name, where, hits[0]), Diagnostics: errorsOf(diags),
			Try: []string{"do not install this skill; report it to the repository's maintainers"}}
	}
	return &Error{Code: code, Message: fmt.Sprintf("skill %s from %s is refused: %d files cannot be installed safely", name, where, len(hits)),
		Detail: hits, Diagnostics: errorsOf(diags), Try: []string{"do not install this skill; report it to the repository's maintainers"}}
}

// copyTree copies the regular files and folders under the folder dir of
// the source (slash-separated, "" for the root) into dst, skipping .git,
// node_modules, .agent-skills and .DS_Store, and refusing a symbolic link
// or special file (ASK_PACKAGE_UNSAFE_FILE) and a tree over lim
// (ASK_PACKAGE_TOO_LARGE). It reads through fsys, so no link is followed
// on the way to dir or inside it. Copies are fresh files, so no hard link
// survives.
func copyTree(ctx context.Context, fsys *onceFS, dir, dst string, lim format.Limits) error {
	return walkSkill(ctx, fsys, dir, lim, func(slash string, data []byte, isDir bool) error {
		target := filepath.Join(dst, filepath.FromSlash(slash))
		if isDir {
			return os.Mkdir(target, 0o755)
		}
		return writeNew(target, data)
	})
}

// snapshotTree reads what copyTree would copy into memory, with the same
// checks and refusals: each file with the mode 0644 the copy would have.
// Each file is opened and read once, by fsys (see onceFS), and its bytes
// are the snapshot's: they are what the skill is verified over and, held
// by its pinnedFS, what the install writes.
func snapshotTree(ctx context.Context, fsys *onceFS, dir string, lim format.Limits) (fstest.MapFS, error) {
	snap := fstest.MapFS{}
	err := walkSkill(ctx, fsys, dir, lim, func(slash string, data []byte, isDir bool) error {
		if isDir {
			snap[slash] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
			return nil
		}
		snap[slash] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	return snap, err
}

// walkSkill walks the skill folder dir of fsys as copyTree describes,
// calling put for each folder and regular file to keep, in walk order,
// with its path inside the skill folder and, for a file, its bytes. A
// file's size is checked against lim before its bytes are handed on, and
// the bytes are those of that size (a file that grows meanwhile is taken
// as it was stat'ed).
func walkSkill(ctx context.Context, fsys *onceFS, dir string, lim format.Limits, put func(slash string, data []byte, isDir bool) error) error {
	if err := checkFolder(fsys, dir); err != nil {
		return err
	}
	var files int
	var total int64
	base := orDot(dir)
	return fs.WalkDir(fsys, base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == base {
			return nil
		}
		switch d.Name() {
		case ".git", "node_modules", ".agent-skills", ".DS_Store":
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		slash := p // the path inside the skill folder
		if dir != "" {
			slash = strings.TrimPrefix(p, dir+"/")
		}
		if strings.Count(slash, "/")+1 > lim.MaxDepth {
			return tooLarge(slash, fmt.Sprintf("nested deeper than %d levels", lim.MaxDepth))
		}
		switch t := d.Type(); {
		case t.IsDir():
			return put(slash, nil, true)
		case !t.IsRegular():
			return &Error{Code: format.CodePackageUnsafeFile,
				Message: fmt.Sprintf("%s is a symbolic link or special file; skills may only contain regular files and folders", slash),
				Try:     []string{"replace it with a copy of the file it stands for, or remove it"}}
		}
		files++
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		switch {
		case files > lim.MaxFiles:
			return tooLarge(slash, fmt.Sprintf("more than %d files", lim.MaxFiles))
		case info.Size() > lim.MaxFileSize:
			return tooLarge(slash, fmt.Sprintf("file larger than %d bytes", lim.MaxFileSize))
		case total > lim.MaxTotalSize:
			return tooLarge(slash, fmt.Sprintf("files larger than %d bytes together", lim.MaxTotalSize))
		}
		data, _, err := fsys.take(p, info.Size())
		if err != nil {
			return err
		}
		return put(slash, data, false)
	})
}

// writeNew writes data to a new file, 0644.
func writeNew(to string, data []byte) error {
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// tooLarge builds the ASK_PACKAGE_TOO_LARGE error for a skill folder.
func tooLarge(p, why string) *Error {
	return &Error{Code: format.CodePackageTooLarge, Message: "the skill is too large: " + p + ": " + why,
		Try: []string{"a skill package is at most 10,000 files and 100 MiB; install a smaller sub-folder"}}
}

// copyFile copies the regular file name of fsys, of size bytes when it
// was listed, to a new file written 0644. A file that grew since is
// refused rather than copied past the size the limits were checked on.
func copyFile(fsys fs.FS, name, to string, size int64) error {
	in, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(in, size+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > size {
		err = fmt.Errorf("source: %s changed while it was being copied", name)
	}
	return err
}

// snapFS is a skill's snapshot with the digests of its files, each
// computed once: the content version of a bare skill, its integrity and
// the pins of its files (pinnedFS) all need them.
type snapFS struct {
	fstest.MapFS
	sums *snapSums
}

// snapSums computes the digests of a snapshot's files, once each.
type snapSums struct {
	snap fstest.MapFS
	raw  map[string]string
	dg   *format.Digester
}

// of returns format.FileDigest of the raw bytes of name.
func (s *snapSums) of(name string) string {
	if d, ok := s.raw[name]; ok {
		return d
	}
	d := format.BytesDigest(s.snap[name].Data)
	s.raw[name] = d
	return d
}

// digest is format.Digest of files, from the digests of their bytes (the
// root skill.yaml's without its integrity lines, as format.Digest hashes
// it).
func (s *snapSums) digest(files []string) (string, error) {
	hashes := make([]format.FileHash, 0, len(files))
	seen := make(map[string]bool, len(files))
	for _, name := range files {
		f, ok := s.snap[name]
		switch {
		case seen[name]:
			return "", fmt.Errorf("digest: %s is listed twice", name)
		case !fs.ValidPath(name) || name == ".":
			return "", fmt.Errorf("digest: %q is not a valid package path", name)
		case !ok || f.Mode.IsDir():
			return "", fmt.Errorf("digest: open %s: %w", name, fs.ErrNotExist)
		}
		seen[name] = true
		d := ""
		if name == format.ManifestFile {
			var err error
			if d, err = s.dg.FileDigest(format.StripIntegrity(bytes.NewReader(f.Data))); err != nil {
				return "", err
			}
		} else {
			d = s.of(name)
		}
		hashes = append(hashes, format.FileHash{Path: name, Digest: d})
	}
	return format.CombineDigests(hashes), nil
}

// digestFiles is dg.Digest(fsys, files), from a snapshot's digests when
// fsys is one.
func digestFiles(fsys fs.FS, files []string, dg *format.Digester) (string, error) {
	if s, ok := fsys.(snapFS); ok {
		return s.sums.digest(files)
	}
	return dg.Digest(fsys, files)
}
