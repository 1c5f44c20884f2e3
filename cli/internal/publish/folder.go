package publish

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// IndexFile is where a registry root keeps its index.
const IndexFile = "registry/skills.yaml"

// ArchiveDir is the registry-relative folder older versions are packed
// into when their folder is replaced.
const ArchiveDir = "archive"

// FolderTarget is a registry root on disk: registry/skills.yaml and the
// package folders it names. The bundled collection (skills/, packages at
// <name>/) is one; a git registry's work tree is another.
type FolderTarget struct {
	// Root is the registry root folder.
	Root string
}

// Index reads Root/registry/skills.yaml; a root without one has an empty
// index.
func (t FolderTarget) Index(ctx context.Context) (*registry.Index, error) {
	_, idx, err := t.readIndex()
	return idx, err
}

// readIndex returns the index file's bytes (nil when absent) and its
// decoded form.
func (t FolderTarget) readIndex() ([]byte, *registry.Index, error) {
	file := filepath.Join(t.Root, filepath.FromSlash(IndexFile))
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		idx, err := registry.DecodeIndex([]byte("schemaVersion: 1\nskills: []\n"), IndexFile)
		return nil, idx, err
	}
	if err != nil {
		return nil, nil, &Error{Code: registry.CodeRegistryUnavailable, Message: "cannot read " + file, Err: err,
			Try: []string{"check the --registry path"}}
	}
	idx, err := registry.DecodeIndex(data, file)
	if err != nil {
		return nil, nil, err
	}
	return data, idx, nil
}

// Locate returns the folder of the package inside the registry: the path
// of an existing version of name, else pkgDir's own place when it lies
// inside Root (nothing is copied then), else skills/<name>. A folder that
// another skill's version uses is ASK_PUBLISH_PATH_CONFLICT.
func (t FolderTarget) Locate(idx *registry.Index, name, pkgDir string) (string, error) {
	inside := ""
	if rel, ok := within(t.Root, pkgDir); ok && rel != "." {
		inside = rel
	}
	return locate(idx, name, inside)
}

// locate returns the folder of the package inside a registry: the path of
// an existing version of name, else inside (the package's own place in
// the registry, "" when it is outside), else skills/<name>; a folder that
// another skill's version uses is ASK_PUBLISH_PATH_CONFLICT.
func locate(idx *registry.Index, name, inside string) (string, error) {
	dest := ""
	if s, ok := idx.Skill(name); ok {
		for _, v := range s.Sorted() {
			if v.Path != "" {
				dest = strings.TrimSuffix(v.Path, "/")
				break
			}
		}
	}
	if dest == "" {
		dest = inside
	}
	if dest == "" {
		dest = "skills/" + name
	}
	for _, s := range idx.Skills {
		if s.Name == name {
			continue
		}
		for _, v := range s.Versions {
			if p := strings.TrimSuffix(v.Path, "/"); p == dest || strings.HasPrefix(dest, p+"/") || strings.HasPrefix(p, dest+"/") {
				return "", &Error{
					Code:    CodePublishPathConflict,
					Message: fmt.Sprintf("folder %s of the registry belongs to %s@%s", dest, s.Name, v.Version),
					Try:     []string{"move the package to its own folder, named after it, and publish again"},
				}
			}
		}
	}
	return dest, nil
}

// Requirements reads the edges of a published version from its payload,
// verified against the index integrity.
func (t FolderTarget) Requirements(ctx context.Context, name string, v *registry.Version) (resolve.Requirements, error) {
	var req resolve.Requirements
	err := t.Published(ctx, name, v, func(pkg *format.Package) error {
		if pkg.Manifest != nil {
			req = requirementsOf(pkg.Manifest)
		}
		return nil
	})
	return req, err
}

// Published hands use the payload of a published version, verified
// against the index integrity; a tarball is extracted to a temporary
// folder that is removed when use returns.
func (t FolderTarget) Published(ctx context.Context, name string, v *registry.Version, use func(*format.Package) error) error {
	var fsys fs.FS
	if v.Tarball != "" {
		if strings.Contains(v.Tarball, "://") {
			return fmt.Errorf("%s@%s: tarball URLs are not read by a folder registry", name, v.Version)
		}
		tmp, err := os.MkdirTemp("", "agent-skills-publish-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		f, err := os.Open(filepath.Join(t.Root, filepath.FromSlash(v.Tarball)))
		if err != nil {
			return err
		}
		_, err = registry.Extract(ctx, f, tmp, registry.DefaultExtractLimits())
		f.Close()
		if err != nil {
			return err
		}
		fsys = os.DirFS(tmp)
	} else {
		fsys = os.DirFS(filepath.Join(t.Root, filepath.FromSlash(strings.TrimSuffix(v.Path, "/"))))
	}
	pkg, err := registry.Verify(fsys, name, v.Version, v.Integrity)
	if err != nil {
		return err
	}
	return use(pkg)
}

// Write publishes the package at pkgDir into the registry:
//
//   - older versions whose folder is replaced are packed into
//     archive/<name>-<version>.tar.gz first, and their entries point at the
//     tarball; those whose bytes are already gone are dropped, with a
//     warning;
//   - the package is copied to plan.Path through a staging folder beside
//     it, the previous folder kept aside until the new one is in place
//     (nothing is copied when pkgDir already is that folder);
//   - registry/skills.yaml is patched in place and written atomically;
//     its updatedAt, when it has one, becomes the new version's
//     publishedAt.
//
// The copied files must still digest to plan.Integrity, so a package
// edited since Prepare is refused.
func (t FolderTarget) Write(ctx context.Context, plan *Plan, pkgDir string) (_ *WriteResult, err error) {
	data, idx, err := t.readIndex()
	if err != nil {
		return nil, err
	}
	if err := checkVersion(idx, plan.Name, plan.Version); err != nil {
		return nil, err
	}
	res := &WriteResult{Path: plan.Path, Index: filepath.Join(t.Root, filepath.FromSlash(IndexFile))}
	destAbs := filepath.Join(t.Root, filepath.FromSlash(plan.Path))
	inPlace := sameDir(destAbs, pkgDir)
	edit := &indexEdit{name: plan.Name, tarball: map[string]string{}}
	// updatedAt follows the publication time, in documents that have it.
	edit.updatedAt = plan.NewVersion().PublishedAt
	s, exists := idx.Skill(plan.Name)
	if exists {
		if err := t.keepOld(ctx, s, plan.Path, destAbs, edit, res); err != nil {
			return nil, err
		}
		edit.add = plan.NewVersion()
		var remaining []*registry.Version
		for _, v := range s.Versions {
			if !slices.Contains(edit.drop, v.Version) {
				remaining = append(remaining, v)
			}
		}
		newest := latestOf(append(remaining, edit.add))
		switch {
		case newest == plan.Version:
			edit.latest = plan.Version
			edit.setFields = true
			edit.description, edit.keywords = plan.Skill.Description, plan.Skill.Keywords
		case slices.Contains(edit.drop, s.Latest):
			edit.latest = newest
		}
	} else {
		c := *plan.Skill
		c.Latest = plan.Version
		edit.skill = &c
	}
	if !inPlace {
		undo, perr := t.place(ctx, plan, pkgDir, destAbs)
		if perr != nil {
			return nil, perr
		}
		res.Copied = true
		defer func() { undo(err == nil) }()
	} else {
		sum, derr := format.Digest(os.DirFS(pkgDir), plan.Files)
		if derr != nil || sum != plan.Integrity {
			return nil, changed(plan)
		}
	}
	out, err := patchIndex(data, IndexFile, idx, edit)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(res.Index), 0o755); err != nil {
		return nil, err
	}
	var sig []byte
	if plan.SignIndex != nil {
		// Signed before anything is written: a key that cannot sign
		// leaves the registry as it was.
		if sig, err = plan.SignIndex(out); err != nil {
			return nil, err
		}
	}
	if err := atomicfile.WriteFile(res.Index, out, 0o644); err != nil {
		return nil, err
	}
	if sig == nil {
		if _, err := os.Stat(res.Index + registry.SignatureSuffix); err == nil {
			res.Warnings = append(res.Warnings, IndexFile+registry.SignatureSuffix+" no longer matches the index: users who trust this registry's signers will refuse it until it is published with --sign-key")
		}
	}
	if sig != nil {
		res.Signature = res.Index + registry.SignatureSuffix
		if err := atomicfile.WriteFile(res.Signature, sig, 0o644); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// keepOld archives or drops the versions of s that live in folder dest.
func (t FolderTarget) keepOld(ctx context.Context, s *registry.Skill, dest, destAbs string, edit *indexEdit, res *WriteResult) error {
	var here []*registry.Version
	for _, v := range s.Versions {
		if v.Path != "" && strings.TrimSuffix(v.Path, "/") == dest {
			here = append(here, v)
		}
	}
	if len(here) == 0 {
		return nil
	}
	var pkg *format.Package
	sum := ""
	if info, err := os.Stat(destAbs); err == nil && info.IsDir() {
		if p, diags := format.Load(os.DirFS(destAbs), format.LoadOptions{}); p != nil && !diags.HasErrors() {
			if d, err := format.Digest(p.FS, p.Files); err == nil {
				pkg, sum = p, d
			}
		}
	}
	for _, v := range here {
		id := s.Name + "@" + v.Version
		if pkg == nil || !format.SameIntegrity(sum, v.Integrity) {
			edit.drop = append(edit.drop, v.Version)
			res.Dropped = append(res.Dropped, id)
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: dropped from the index; folder %s no longer holds its bytes (its integrity %s does not match)", id, dest, v.Integrity))
			continue
		}
		rel := path.Join(ArchiveDir, s.Name+"-"+v.Version+".tar.gz")
		if err := packTo(pkg, filepath.Join(t.Root, filepath.FromSlash(rel))); err != nil {
			return err
		}
		edit.tarball[v.Version] = rel
		res.Archived = append(res.Archived, id)
	}
	return ctx.Err()
}

// place copies the package files into a staging folder beside destAbs,
// checks their digest, and swaps it in, keeping the previous folder
// aside. undo(true) removes the previous folder; undo(false) puts it
// back.
func (t FolderTarget) place(ctx context.Context, plan *Plan, pkgDir, destAbs string) (func(bool), error) {
	var files []atomicfile.File
	for _, name := range plan.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(filepath.Join(pkgDir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		files = append(files, atomicfile.File{Path: name, Data: data, Mode: 0o644})
	}
	parent, base := filepath.Dir(destAbs), filepath.Base(destAbs)
	stage := filepath.Join(parent, "."+base+".publish-"+token())
	if err := atomicfile.WriteTree(stage, files); err != nil {
		return nil, err
	}
	if sum, err := format.Digest(os.DirFS(stage), plan.Files); err != nil || sum != plan.Integrity {
		os.RemoveAll(stage)
		return nil, changed(plan)
	}
	aside := ""
	if _, err := os.Lstat(destAbs); err == nil {
		aside = filepath.Join(parent, "."+base+".previous-"+token())
		if err := os.Rename(destAbs, aside); err != nil {
			os.RemoveAll(stage)
			return nil, err
		}
	}
	if err := os.Rename(stage, destAbs); err != nil {
		if aside != "" {
			_ = os.Rename(aside, destAbs)
		}
		os.RemoveAll(stage)
		return nil, err
	}
	return func(ok bool) {
		switch {
		case ok && aside != "":
			_ = os.RemoveAll(aside)
		case !ok:
			_ = os.RemoveAll(destAbs)
			if aside != "" {
				_ = os.Rename(aside, destAbs)
			}
		}
	}, nil
}

// changed is the error for a package edited between Prepare and Write.
func changed(plan *Plan) error {
	return &Error{
		Code:    registry.CodeIntegrityMismatch,
		Message: fmt.Sprintf("%s@%s changed after it was checked: its files no longer digest to %s", plan.Name, plan.Version, plan.Integrity),
		Try:     []string{"run agent-skills publish again"},
	}
}

// packTo writes the reproducible archive of pkg to file atomically.
func packTo(pkg *format.Package, file string) error {
	var b bytes.Buffer
	if err := registry.Pack(pkg.FS, pkg.Files, &b); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(file, b.Bytes(), 0o644)
}

// within returns dir's slash path relative to root when dir lies inside
// root (or is root: "."), resolving symbolic links in both.
func within(root, dir string) (string, bool) {
	r, err1 := realPath(root)
	d, err2 := realPath(dir)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(r, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// sameDir reports whether a and b are the same existing folder.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// realPath returns the absolute path with symbolic links resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// token returns 8 random hex digits for staging names.
func token() string {
	var b [4]byte
	_, _ = io.ReadFull(rand.Reader, b[:])
	return hex.EncodeToString(b[:])
}
