package install

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
)

// Everything below <root>/.agent-skills is this package's: it creates the
// folders, the receipts, the pending receipts and the staging entries, and
// nothing else has a reason to be there. But a project clone can ship
// anything in that folder — a link named staging that points at the
// user's documents, a pending receipt that names a folder elsewhere — and
// recovery removes and renames what it finds there. So the metadata is
// never trusted: every operation first checks it (checkMeta), without
// following a single link, and refuses with ASK_ROOT_UNSAFE what it could
// not have created; recovery then touches only entries whose name it
// gives (stagingEntry), through the staging folder opened as an os.Root
// that is the very folder that was checked.

// stagingEntry reports whether n is a staging entry a transaction
// creates, <name>.<16 hex digits>.staged or .old, and returns the name.
func stagingEntry(n string) (name string, ok bool) {
	base, ok := strings.CutSuffix(n, ".staged")
	if !ok {
		if base, ok = strings.CutSuffix(n, ".old"); !ok {
			return "", false
		}
	}
	i := strings.LastIndexByte(base, '.')
	if i < 0 || !isID(base[i+1:]) || !safeName(base[:i]) {
		return "", false
	}
	return base[:i], true
}

// tmpReceipt reports whether n is a temporary receipt writeReplace makes:
// .<name>.json.tmp-<16 hex digits>.
func tmpReceipt(n string) bool {
	rest, ok := strings.CutPrefix(n, ".")
	if !ok {
		return false
	}
	i := strings.LastIndex(rest, ".json.tmp-")
	return i >= 0 && isID(rest[i+len(".json.tmp-"):]) && safeName(rest[:i])
}

// isID reports whether s is an id as newID makes them: 16 lower-case hex
// digits.
func isID(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// safeName reports whether a package name taken from a file name is one
// path element that cannot reach anywhere else: not empty, no separator,
// not hidden ("." and ".." included).
func safeName(name string) bool {
	return name != "" && name[0] != '.' && !strings.ContainsAny(name, `/\`) && filepath.IsLocal(name)
}

// checkMeta checks the metadata of one root before anything reads or
// writes it: <root>/.agent-skills, its receipts and its staging folders
// must each be absent or a real folder — never a symbolic link — on the
// root's own file system; every entry of receipts must not be a link; and
// every pending receipt must name only its own package's destination in
// the root and, as the place of the old version, a staging entry of its
// own (checkJournal).
func checkMeta(ri rootInfo, v *metaView) error {
	root := ri.path
	rootInfo, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return ioError("read", root, err)
	}
	if !rootInfo.IsDir() {
		return nil // every use of it fails with ASK_IO, naming it
	}
	for _, p := range []string{filepath.Join(root, metaDir), receiptsDir(root), stagingDir(root)} {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if p == filepath.Join(root, metaDir) {
				return nil
			}
			continue
		}
		if err != nil {
			return ioError("read", p, err)
		}
		if err := realDir(p, info, rootInfo); err != nil {
			return err
		}
	}
	ents, err := v.entries(root)
	if err != nil {
		return ioError("read", receiptsDir(root), err)
	}
	// In the order of the names, as a listing gives them: a link, then a
	// pending receipt, is refused as it comes; the entries of the run
	// journals (whose own names sort first) follow.
	checked := map[string]bool{}
	for _, n := range slices.Sorted(maps.Keys(ents)) {
		if ents[n]&fs.ModeSymlink != 0 {
			return linkError(filepath.Join(receiptsDir(root), n))
		}
		if name, ok := strings.CutSuffix(n, ".json.pending"); ok {
			checked[name] = true
			if err := checkPending(ri, v, name); err != nil {
				return err
			}
		}
	}
	names, _, err := v.pending(root)
	if err != nil {
		return ioError("read", receiptsDir(root), err)
	}
	for _, name := range names {
		if !checked[name] {
			if err := checkPending(ri, v, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPending checks the pending receipt of name in the root ri: a
// package name, its own place and its own old version (checkJournal).
func checkPending(ri rootInfo, v *metaView, name string) error {
	root := ri.path
	if !safeName(name) {
		return unsafeError(pendingPath(root, name), "agent-skills never writes a pending receipt of that name", nil)
	}
	j, err := readJournal(v, root, name, shapeDest(root, name, ri.loc), ri.loc.Shape)
	if err != nil {
		return err
	}
	if j != nil && j.Aside != "" {
		if err := asideOK(filepath.Join(root, j.Aside)); err != nil {
			return err
		}
	}
	return nil
}

// asideOK refuses an old version put aside that is not a real folder: a
// transaction puts aside the folder it found, so a link there was
// planted, and renaming it into place would make the agent read where it
// points. A missing one is fine: the transaction finished with it.
func asideOK(aside string) error {
	info, err := os.Lstat(aside)
	if err != nil || info.IsDir() {
		return nil
	}
	return unsafeError(aside, "the old version a pending receipt would put back is not a folder", nil)
}

// realDir refuses a metadata folder that is a link or on another file
// system than the root (a mount planted there) with ASK_ROOT_UNSAFE, and
// one that is a file with ASK_IO: nothing follows a file, it is only in
// the way.
func realDir(p string, info, rootInfo fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return linkError(p)
	case !info.IsDir():
		return ioError("use", p, errors.New("not a folder"))
	case !sameDevice(info, rootInfo):
		return unsafeError(p, "it is on another file system than its agent folder", nil)
	}
	return nil
}

// mkMeta creates <root>/.agent-skills/<sub> and the folders above it
// without following a link that is already there, then checks what it
// found or made like checkMeta.
func mkMeta(root, sub string) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return ioError("create", root, err)
	}
	rootInfo, err := os.Stat(root)
	if err != nil {
		return ioError("read", root, err)
	}
	for _, p := range []string{filepath.Join(root, metaDir), filepath.Join(root, metaDir, sub)} {
		// Mkdir never follows a link at p: it fails with EEXIST, and
		// the Lstat below refuses the link.
		if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return ioError("create", p, err)
		}
		info, err := os.Lstat(p)
		if err != nil {
			return ioError("create", p, err)
		}
		if err := realDir(p, info, rootInfo); err != nil {
			return err
		}
	}
	return nil
}

// openStaging opens the staging folder of root as an os.Root, after
// checking that it is a real folder and that what was opened is that very
// folder (same device and inode), so that nothing done through it can
// reach outside it, even if a link replaced a folder in the meantime. It
// returns nil, nil when there is no staging folder.
func openStaging(root string) (*os.Root, error) {
	p := stagingDir(root)
	rootInfo, err := os.Stat(root)
	if err != nil {
		return nil, ioError("read", root, err)
	}
	for _, d := range []string{filepath.Join(root, metaDir), p} {
		info, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, ioError("read", d, err)
		}
		if err := realDir(d, info, rootInfo); err != nil {
			return nil, err
		}
	}
	info, _ := os.Lstat(p)
	r, err := os.OpenRoot(p)
	if err != nil {
		return nil, ioError("open", p, err)
	}
	opened, err := r.Stat(".")
	if err != nil || !os.SameFile(opened, info) {
		r.Close()
		return nil, unsafeError(p, "it changed while it was being opened", nil)
	}
	return r, nil
}

// removeStaged removes one entry of root's staging folder, the folder or
// file at path, through openStaging: a link is removed, never followed.
func removeStaged(root, path string) error {
	if filepath.Dir(path) != stagingDir(root) {
		return unsafeError(path, "it is not in the staging folder", nil)
	}
	r, err := openStaging(root)
	if err != nil || r == nil {
		return err
	}
	defer r.Close()
	return r.RemoveAll(filepath.Base(path))
}

// cleanStaging removes every entry of root's staging folder that a
// transaction creates (stagingEntry), and the folder when that empties
// it. Anything else found there is left alone: this package did not make
// it, so it is not this package's to delete.
func cleanStaging(root string, s *syncer) error {
	r, err := openStaging(root)
	if err != nil || r == nil {
		return err
	}
	defer r.Close()
	d, err := r.Open(".")
	if err != nil {
		return ioError("read", stagingDir(root), err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return ioError("read", stagingDir(root), err)
	}
	for _, n := range names {
		if _, ok := stagingEntry(n); !ok {
			continue
		}
		s.root(root)
		if err := r.RemoveAll(n); err != nil {
			return ioError("clean", filepath.Join(stagingDir(root), n), err)
		}
	}
	os.Remove(stagingDir(root))
	return nil
}

// checkJournal checks a parsed pending receipt of name in root against
// what a transaction writes: dest exactly the package's destination,
// aside empty or exactly a staging entry <name>.<id>.old (folders only),
// and a receipt, if any, of the root's shape.
func checkJournal(j *journal, root, name, dest string, shape agents.Shape) error {
	return checkJournalAt(j, pendingPath(root, name), root, name, dest, shape)
}

// checkJournalAt is checkJournal naming the file p in its errors.
func checkJournalAt(j *journal, p, root, name, dest string, shape agents.Shape) error {
	want, err := filepath.Rel(root, dest)
	if err == nil && shape == agents.ShapeFile && j.Dest == placeOf(want, shape, true) {
		want = j.Dest // a disabled file-shaped package's place (disable.go)
	}
	if err != nil || j.Dest != want {
		return unsafeError(p, fmt.Sprintf("it names %q as the place of %s, not %q", j.Dest, name, want), nil)
	}
	if j.Aside != "" {
		base := filepath.Base(j.Aside)
		n, ok := stagingEntry(base)
		if !ok || n != name || !strings.HasSuffix(base, ".old") || j.Aside != filepath.Join(metaDir, "staging", base) || shape != agents.ShapeDirectory {
			return unsafeError(p, fmt.Sprintf("it names %q as the old version of %s, which is no staging entry of its own", j.Aside, name), nil)
		}
	}
	if j.Receipt != nil && j.Receipt.Shape != shape {
		return unsafeError(p, fmt.Sprintf("its receipt is for a %s, but %s holds a %s per package", j.Receipt.Shape, root, shape), nil)
	}
	return nil
}

// readMetaFile reads a file below .agent-skills without following a link
// at its own name (the folders above it were checked by checkMeta): a link
// there is ASK_ROOT_UNSAFE, a file larger than maxMetaFile an error. It
// costs the open, the reads and the close; only a failed open looks
// further, to tell a link from anything else.
func readMetaFile(p string) ([]byte, error) {
	data, err := readSmall(p, maxMetaFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if info, lerr := os.Lstat(p); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return nil, linkError(p)
		}
	}
	return data, err
}
