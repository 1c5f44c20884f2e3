package format

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// Package is a loaded skill package: its manifest, its decoded entrypoint
// and the sorted set of files it ships.
type Package struct {
	// FS is the package folder the package was loaded from.
	FS fs.FS
	// Manifest is the decoded skill.yaml; nil for a bare skill, and nil
	// when skill.yaml exists but could not be decoded (then Bare is false
	// and the diagnostics say why).
	Manifest *Manifest
	// Entrypoint is the decoded entrypoint; nil when it is missing
	// (ASK_ENTRYPOINT_MISSING), cannot be decoded (ASK_FRONTMATTER_INVALID,
	// ASK_WORKFLOW_META_INVALID) or the kind is unknown.
	Entrypoint *Entrypoint
	// EntrypointFile is the entrypoint's file name for Kind; "" for an
	// unknown kind.
	EntrypointFile string
	// Files is the file set the package ships: sorted, slash-separated,
	// package-relative paths of regular files.
	Files []string
	// Bare reports a folder without skill.yaml: a plain Agent Skills
	// skill whose only metadata is SKILL.md's front matter.
	Bare bool
	// Kind is the package kind: the manifest's, or KindSkill for a bare
	// skill.
	Kind Kind
}

// Name returns the manifest name, or the entrypoint's `name` when there
// is no manifest name (bare skills).
func (p *Package) Name() string { return p.pick(func(m *Manifest) string { return m.Name }, "name") }

// Description returns the manifest description, or the entrypoint's
// `description` when the manifest has none.
func (p *Package) Description() string {
	return p.pick(func(m *Manifest) string { return m.Description }, "description")
}

// Version returns the manifest version, or the entrypoint's `version` as
// written when the manifest has none.
func (p *Package) Version() string {
	return p.pick(func(m *Manifest) string { return m.Version }, "version")
}

// Compact drops from the decoded manifest and entrypoint what only
// diagnostics read: the positions of values and keys (Pos, KeyPos and Has
// report nothing afterwards) and the source text of nested scalars (Text
// keeps the top-level ones, which Name, Version and the agents'
// projections read). For a caller that holds thousands of packages after
// validating them; everything else stays as decoded.
func (p *Package) Compact() {
	if m := p.Manifest; m != nil {
		m.positions, m.keys = nil, nil
	}
	if e := p.Entrypoint; e != nil {
		e.positions, e.keys = nil, nil
		top := make(map[string]string, len(e.Keys))
		for k, v := range e.texts {
			if !strings.ContainsAny(k, ".[") {
				top[k] = v
			}
		}
		e.texts = top
	}
}

func (p *Package) pick(fromManifest func(*Manifest) string, key string) string {
	if p.Manifest != nil {
		if s := fromManifest(p.Manifest); s != "" {
			return s
		}
	}
	if p.Entrypoint != nil {
		return p.Entrypoint.Text(key)
	}
	return ""
}

// LoadOptions tunes Load.
type LoadOptions struct {
	// Limits bounds the package; zero fields take DefaultLimits values.
	Limits Limits
	// Inspect, when set, is called for every file that joins the file set,
	// with its path and the fs.FileInfo the FS returned. A non-nil error
	// refuses the file as ASK_PACKAGE_UNSAFE_FILE with the error's text.
	//
	// An fs.FS cannot see hard-link counts, so Load cannot refuse hard
	// links itself: the OS-level caller (the CLI) sets Inspect to reject a
	// file whose info.Sys() reports more than one link.
	Inspect func(path string, info fs.FileInfo) error
	// Entrypoints, when set, decodes the entrypoint: a file it decoded
	// before, with the same bytes, is not decoded again.
	Entrypoints *EntrypointCache
}

// isSkipped reports names Load never includes: version-control, tool and
// Finder clutter.
func isSkipped(name string) bool {
	switch name {
	case ".git", "node_modules", ".agent-skills", ".DS_Store":
		return true
	}
	return false
}

// Load reads the package rooted at fsys.
//
// With a skill.yaml, the file set is every regular file reachable from the
// manifest's `files` entries (folders walked recursively) plus skill.yaml;
// without one the folder is a bare skill and the file set is every regular
// file in it. `.git`, `node_modules`, `.agent-skills` and `.DS_Store` are
// skipped wherever they appear. Symbolic links, devices, sockets, pipes and
// other non-regular files are refused (ASK_PACKAGE_UNSAFE_FILE) and never
// followed; so are symbolic links on the way to a `files` entry when fsys
// implements fs.ReadLinkFS (os.DirFS does). A `files` entry that does not
// exist is ASK_FILES_MISSING at that entry's line. Entries that are
// absolute, hold "..", a backslash or are otherwise not fs.ValidPath are
// skipped silently: package validate reports the entry itself. Exceeding a
// limit is ASK_PACKAGE_TOO_LARGE. A file of the set whose path is not
// portable, or collides with another's on a case-insensitive or
// normalising file system (CheckPaths), is ASK_PACKAGE_UNSAFE_FILE and
// leaves the set; every such file is reported.
//
// The entrypoint for the kind is decoded whether or not `files` lists it;
// a missing one is ASK_ENTRYPOINT_MISSING. Load only reads skill.yaml and
// the entrypoint; other files are stat-ed, not read.
func Load(fsys fs.FS, opts LoadOptions) (*Package, Diagnostics) {
	l := &loader{
		fsys: fsys, lim: opts.Limits.withDefaults(), inspect: opts.Inspect, entrypoints: opts.Entrypoints,
		files: map[string]bool{}, refused: map[string]bool{},
	}
	pkg := &Package{FS: fsys, Kind: KindSkill}
	info, err := fs.Lstat(fsys, ManifestFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		pkg.Bare = true
		l.walkDir(".", 0)
	case err != nil:
		l.unreadable(ManifestFile, err)
	case l.checkRegular(ManifestFile, info):
		l.loadManifest(pkg, info)
	}
	pkg.EntrypointFile = EntrypointFor(pkg.Kind)
	if pkg.EntrypointFile != "" && (pkg.Bare || pkg.Manifest != nil) {
		pkg.Entrypoint = l.loadEntrypoint(pkg.EntrypointFile, pkg.Kind)
	}
	pkg.Files = make([]string, 0, len(l.files))
	for p := range l.files {
		pkg.Files = append(pkg.Files, p)
	}
	slices.Sort(pkg.Files)
	if bad := CheckPaths(pkg.Files); len(bad) > 0 {
		for _, pe := range bad {
			delete(l.files, pe.Path)
			l.refuse(pe.Path, unportableFile(pe))
		}
		pkg.Files = slices.DeleteFunc(pkg.Files, func(p string) bool { return !l.files[p] })
	}
	l.diags.Sort()
	return pkg, l.diags
}

// loader carries the state of one Load call.
type loader struct {
	fsys    fs.FS
	lim     Limits
	inspect func(string, fs.FileInfo) error
	// entrypoints is LoadOptions.Entrypoints.
	entrypoints *EntrypointCache
	diags       Diagnostics
	files       map[string]bool
	refused     map[string]bool // paths already reported, to report each once
	total       int64
	full        bool // a count or total-size limit was hit; stop collecting
}

func (l *loader) add(d Diagnostic) { l.diags = append(l.diags, d) }

func (l *loader) loadManifest(pkg *Package, info fs.FileInfo) {
	if info.Size() > l.lim.MaxManifestSize {
		l.add(tooLarge(ManifestFile, "the manifest", l.lim.MaxManifestSize, "bytes"))
		return
	}
	data, ok := l.read(ManifestFile, l.lim.MaxManifestSize, "the manifest")
	if !ok {
		return
	}
	m, diags := decodeManifest(data, ManifestFile, l.lim.MaxManifestSize)
	l.diags = append(l.diags, diags...)
	l.addFile(ManifestFile, info)
	if m == nil {
		return
	}
	pkg.Manifest, pkg.Kind = m, m.Kind
	for i, entry := range m.Files {
		l.addEntry(entry, m.Pos(indexPath("files", i)))
	}
}

// loadEntrypoint reads and decodes the entrypoint file.
func (l *loader) loadEntrypoint(name string, kind Kind) *Entrypoint {
	info, err := fs.Lstat(l.fsys, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.add(Diagnostic{File: name, Severity: SeverityError, Code: CodeEntrypointMissing,
			Message: fmt.Sprintf("%s is missing; a %s package needs it as its entrypoint", name, kind),
			Fix:     entrypointFix(name)})
		return nil
	case err != nil:
		l.unreadable(name, err)
		return nil
	case info.IsDir():
		l.add(Diagnostic{File: name, Severity: SeverityError, Code: CodeEntrypointMissing,
			Message: fmt.Sprintf("%s is a folder; the entrypoint must be a file", name),
			Fix:     entrypointFix(name)})
		return nil
	case !l.checkRegular(name, info):
		return nil
	case info.Size() > l.lim.MaxEntrypointSize:
		l.add(tooLarge(name, "the entrypoint", l.lim.MaxEntrypointSize, "bytes"))
		return nil
	}
	data, ok := l.read(name, l.lim.MaxEntrypointSize, "the entrypoint")
	if !ok {
		return nil
	}
	e, diags := l.entrypoints.decode(data, name, kind, l.lim.MaxEntrypointSize)
	l.diags = append(l.diags, diags...)
	return e
}

func entrypointFix(name string) string {
	if name == EntrypointFor(KindWorkflow) {
		return "create WORKFLOW.js with `export const meta = { name: '…', description: '…' }`"
	}
	return fmt.Sprintf("create %s starting with front matter that sets `name` and `description`", name)
}

// read returns the whole file, refusing one that grows past limit while
// being read.
func (l *loader) read(name string, limit int64, what string) ([]byte, bool) {
	f, err := l.fsys.Open(name)
	if err != nil {
		l.unreadable(name, err)
		return nil, false
	}
	defer f.Close()
	data, err := readSized(f, limit)
	if err != nil {
		l.unreadable(name, err)
		return nil, false
	}
	if int64(len(data)) > limit {
		l.add(tooLarge(name, what, limit, "bytes"))
		return nil, false
	}
	return data, true
}

// readSized reads f to its end, or to limit+1 bytes, as
// io.ReadAll(io.LimitReader(f, limit+1)) does, into a buffer of the size
// f's Stat gives: ReadAll's doubling from 512 bytes was most of what Load
// allocated for a typical SKILL.md. A file that grows is still read to
// limit+1 bytes.
func readSized(f fs.File, limit int64) ([]byte, error) {
	size := int64(512)
	if info, err := f.Stat(); err == nil && info.Size() >= 0 {
		size = min(info.Size(), limit) + 1 // +1: EOF without growing
	}
	buf := make([]byte, 0, size)
	r := io.LimitReader(f, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// addEntry adds what one `files` entry reaches.
func (l *loader) addEntry(entry string, pos Pos) {
	p := strings.TrimSuffix(entry, "/")
	if p == "" || strings.Contains(p, `\`) || !fs.ValidPath(p) {
		return // unsafe or malformed: reported by package validate
	}
	if p == "." {
		l.walkDir(".", 0)
		return
	}
	// Lstat every segment, so that a symbolic link on the way to the entry
	// is refused instead of followed.
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if isSkipped(seg) {
			return
		}
		sub := strings.Join(segs[:i+1], "/")
		info, err := fs.Lstat(l.fsys, sub)
		if errors.Is(err, fs.ErrNotExist) {
			l.add(Diagnostic{File: ManifestFile, Pos: pos, Severity: SeverityError, Code: CodeFilesMissing,
				Message: fmt.Sprintf("files entry %q does not exist in the package", entry),
				Fix:     "create it, or remove the entry from `files`"})
			return
		}
		if err != nil {
			l.unreadable(sub, err)
			return
		}
		last := i == len(segs)-1
		if info.IsDir() {
			if last {
				l.walkDir(p, len(segs))
			}
			continue
		}
		if !l.checkRegular(sub, info) {
			return
		}
		if !last {
			l.add(Diagnostic{File: ManifestFile, Pos: pos, Severity: SeverityError, Code: CodeFilesMissing,
				Message: fmt.Sprintf("files entry %q does not exist in the package: %s is a file, not a folder", entry, sub),
				Fix:     "correct the path, or remove the entry from `files`"})
			return
		}
		l.addFile(p, info)
	}
}

// walkDir adds every regular file under dir, a folder of depth path
// segments ("." has 0).
func (l *loader) walkDir(dir string, depth int) {
	if l.full {
		return
	}
	if depth >= l.lim.MaxDepth {
		l.refuse(dir, tooLarge(dir, "the folder nesting", int64(l.lim.MaxDepth), "levels"))
		return
	}
	entries, err := fs.ReadDir(l.fsys, dir)
	if err != nil {
		l.unreadable(dir, err)
		return
	}
	for _, de := range entries {
		if l.full {
			return
		}
		if isSkipped(de.Name()) {
			continue
		}
		p := de.Name()
		if dir != "." {
			p = dir + "/" + de.Name()
		}
		switch t := de.Type(); {
		case t.IsDir():
			l.walkDir(p, depth+1)
		case t.IsRegular():
			info, err := de.Info()
			if err != nil {
				l.unreadable(p, err)
				continue
			}
			if l.checkRegular(p, info) {
				l.addFile(p, info)
			}
		default:
			l.refuse(p, unsafeFile(p, t))
		}
	}
}

// checkRegular refuses anything but a regular file or folder.
func (l *loader) checkRegular(p string, info fs.FileInfo) bool {
	if t := info.Mode().Type(); t != 0 && !t.IsDir() {
		l.refuse(p, unsafeFile(p, t))
		return false
	}
	return true
}

// addFile adds one regular file to the set, enforcing the limits and the
// Inspect hook.
func (l *loader) addFile(p string, info fs.FileInfo) {
	if l.files[p] || l.refused[p] || l.full {
		return
	}
	switch {
	case len(p) > l.lim.MaxPathLength:
		l.refuse(p, tooLarge(p, fmt.Sprintf("the path (%d bytes)", len(p)), int64(l.lim.MaxPathLength), "bytes"))
		return
	case strings.Count(p, "/")+1 > l.lim.MaxDepth:
		l.refuse(p, tooLarge(p, "the folder nesting", int64(l.lim.MaxDepth), "levels"))
		return
	case info.Size() > l.lim.MaxFileSize:
		l.refuse(p, tooLarge(p, fmt.Sprintf("the file (%d bytes)", info.Size()), l.lim.MaxFileSize, "bytes"))
		return
	case len(l.files) >= l.lim.MaxFiles:
		l.full = true
		l.add(tooLarge("", "the number of files", int64(l.lim.MaxFiles), "files"))
		return
	case l.total+info.Size() > l.lim.MaxTotalSize:
		l.full = true
		l.add(tooLarge("", "the total size of the files", l.lim.MaxTotalSize, "bytes"))
		return
	}
	if l.inspect != nil {
		if err := l.inspect(p, info); err != nil {
			l.refuse(p, Diagnostic{File: p, Severity: SeverityError, Code: CodePackageUnsafeFile,
				Message: fmt.Sprintf("%s is refused: %v", p, err),
				Fix:     "replace it with an ordinary file"})
			return
		}
	}
	l.total += info.Size()
	l.files[p] = true
}

// refuse records a diagnostic for p once and keeps p out of the file set.
func (l *loader) refuse(p string, d Diagnostic) {
	if l.refused[p] {
		return
	}
	l.refused[p] = true
	l.add(d)
}

// unreadable reports a file the FS could not stat, list or read.
func (l *loader) unreadable(p string, err error) {
	l.refuse(p, Diagnostic{File: p, Severity: SeverityError, Code: CodeFilesMissing,
		Message: fmt.Sprintf("%s cannot be read: %v", p, unwrapPathError(err)),
		Fix:     "check the file's permissions"})
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// unportableFile builds the ASK_PACKAGE_UNSAFE_FILE diagnostic for a file
// whose path some supported system cannot create as itself (CheckPaths).
func unportableFile(pe *PathError) Diagnostic {
	fix := "rename it so that Linux, macOS and Windows all create it as itself: no <>:\"|?*\\ or control characters, no name ending in a dot or a space, no device name such as CON, aux or com1"
	if pe.Other != "" {
		fix = "rename one of the two so that their names differ by more than case or Unicode normalisation"
	}
	return Diagnostic{File: pe.Path, Severity: SeverityError, Code: CodePackageUnsafeFile, Message: pe.Error(), Fix: fix}
}

// unsafeFile builds the ASK_PACKAGE_UNSAFE_FILE diagnostic for a
// non-regular file.
func unsafeFile(p string, t fs.FileMode) Diagnostic {
	what := "a special file"
	switch {
	case t&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case t&fs.ModeDevice != 0, t&fs.ModeCharDevice != 0:
		what = "a device file"
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	}
	return Diagnostic{File: p, Severity: SeverityError, Code: CodePackageUnsafeFile,
		Message: fmt.Sprintf("%s is %s; packages may only contain regular files and folders", p, what),
		Fix:     "replace it with a copy of the file it stands for, or remove it"}
}
