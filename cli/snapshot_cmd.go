package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/format"
)

type snapshotCmd struct {
	Capture snapshotCaptureCmd `cmd:"" help:"Capture a package or a collection: every file's bytes and digest, the package digests, the contracts, the catalog digest."`
	Verify  snapshotVerifyCmd  `cmd:"" help:"Check a tree against its snapshot: exit 5 naming every added, removed and changed file (with the first changed byte) and contract field."`
	Restore snapshotRestoreCmd `cmd:"" help:"Put a captured package back byte for byte, atomically; refuses over local changes unless --force."`
}

// pointRestoreStaged is the fault-injection point of snapshot restore
// after the staged copy was checked, right before the swap.
const pointRestoreStaged = "snapshot-restore-staged"

// maxDetailLines bounds the changes an error lists; --json lists all.
const maxDetailLines = 50

type snapshotCaptureCmd struct {
	Tree       string `arg:"" type:"path" help:"The package or collection folder."`
	Out        string `type:"path" help:"Write the snapshot to this file, atomically (default: standard output). Refused inside the captured folder."`
	Package    bool   `xor:"shape" help:"Capture the folder as one package."`
	Collection bool   `xor:"shape" help:"Capture the folder as a collection (every package below it), even when it has a skill.yaml or SKILL.md."`
	JSON       bool   `name:"json" help:"With --out, print the summary as JSON."`
}

func (c *snapshotCaptureCmd) Help() string {
	return `A folder with a skill.yaml or SKILL.md at its root is captured as a package, any
other as a collection (--package and --collection decide instead). The snapshot
(schema agent-skills.snapshot/1, see docs/maintenance.md) holds every file's exact
bytes and digest, each package's canonical digest and contract, and for a collection
the digest of its skills-catalog.json. Capturing twice gives the same bytes.
The summary goes to standard error.

Examples:
  agent-skills snapshot capture skills/pdf --out pdf.snapshot.json
  agent-skills snapshot capture skills/ --collection > skills.snapshot.json`
}

// snapshotSummary is the --json output of snapshot capture.
type snapshotSummary struct {
	Out      string            `json:"out,omitempty"`
	Kind     string            `json:"kind"`
	Files    int               `json:"files"`
	Bytes    int64             `json:"bytes"`
	Catalog  string            `json:"catalog,omitempty"`
	Packages []snapshotPackage `json:"packages"`
}

type snapshotPackage struct {
	Path    string `json:"path"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Digest  string `json:"digest"`
	Files   int    `json:"files"`
}

func summarize(s *snapshot.Snapshot) snapshotSummary {
	sum := snapshotSummary{Kind: s.Kind, Packages: make([]snapshotPackage, 0, len(s.Packages))}
	if s.Catalog != nil {
		sum.Catalog = s.Catalog.Digest
	}
	for _, p := range s.Packages {
		sum.Packages = append(sum.Packages, snapshotPackage{Path: p.Path, Name: p.Contract.Name, Version: p.Contract.Version, Digest: p.Digest, Files: len(p.Files)})
		sum.Files += len(p.Files)
		for _, f := range p.Files {
			sum.Bytes += f.Size
		}
	}
	return sum
}

func (c *snapshotCaptureCmd) Run(e *env) error {
	if c.JSON && c.Out == "" {
		return askerr.Usage("--json prints the summary of a snapshot written with --out; without --out the snapshot itself is the output")
	}
	root, err := existingDir(e, c.Tree)
	if err != nil {
		return err
	}
	if c.Out != "" {
		if inside(c.Out, root) {
			return &askerr.Error{Code: askerr.CodeUsage,
				Message: fmt.Sprintf("--out %s is inside the captured folder %s: writing it would change what is captured", e.Rel(c.Out), e.Rel(root)),
				Try:     []string{"write the snapshot outside the folder, e.g. --out ../" + filepath.Base(root) + ".snapshot.json"}}
		}
	}
	asPackage := c.Package || !c.Collection && isPackageRoot(root)
	s, err := capture(root, asPackage)
	if err != nil {
		return err
	}
	b, err := snapshot.Encode(s)
	if err != nil {
		return askerr.Internal("cannot encode the snapshot", err)
	}
	if len(b) > snapshot.MaxSize {
		return &askerr.Error{Code: askerr.CodeUsage,
			Message: fmt.Sprintf("the snapshot of %s would be %d MiB, more than the %d MiB a snapshot may hold; nothing was written", e.Rel(root), len(b)>>20, snapshot.MaxSize>>20),
			Try:     []string{"capture the collection's packages one by one, or a smaller part of the collection"}}
	}
	sum := summarize(s)
	if c.Out == "" {
		if _, err := e.RawOut().Write(b); err != nil {
			return askerr.IO("cannot write the snapshot to standard output", err)
		}
	} else {
		if err := atomicfile.WriteFile(c.Out, b, 0o644); err != nil {
			return askerr.IO("cannot write "+e.Rel(c.Out), err)
		}
		sum.Out = e.Rel(c.Out)
	}
	if c.JSON {
		return e.JSON(sum)
	}
	what := fmt.Sprintf("collection %s: %d %s", ui.Field(e.Rel(root)), len(s.Packages), ui.Plural(len(s.Packages), "package", "packages"))
	if s.Kind == "package" {
		p := s.Packages[0].Contract
		what = "package " + ui.Field(strings.TrimSpace(p.Name+" "+p.Version))
	}
	e.Info("captured %s, %d %s, %d bytes", what, sum.Files, ui.Plural(sum.Files, "file", "files"), sum.Bytes)
	if s.Kind == "package" {
		e.Info("  digest %s", s.Packages[0].Digest)
	}
	if s.Catalog != nil {
		e.Info("  catalog %s %s", s.Catalog.File, s.Catalog.Digest)
	}
	for _, p := range sum.Packages {
		e.Verbose("  %s %s %s (%d files)", ui.Field(p.Path), ui.Field(p.Version), p.Digest, p.Files)
	}
	if sum.Out != "" {
		e.Info("wrote %s", sum.Out)
	}
	return nil
}

// isPackageRoot reports whether root has a manifest or a SKILL.md.
func isPackageRoot(root string) bool {
	for _, f := range []string{format.ManifestFile, "SKILL.md"} {
		if _, err := os.Lstat(filepath.Join(root, f)); err == nil {
			return true
		}
	}
	return false
}

// capture captures the folder root as a package or a collection.
func capture(root string, asPackage bool) (*snapshot.Snapshot, error) {
	fsys := os.DirFS(root)
	if asPackage {
		return snapshot.CapturePackage(fsys, snapshot.Options{})
	}
	return snapshot.CaptureCollection(fsys, snapshot.Options{})
}

// existingDir returns the absolute path of the folder dir, refusing
// what is not one.
func existingDir(e *env, dir string) (string, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", askerr.Usage("cannot resolve %s", dir)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return "", &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"name the package or collection folder"}}
	}
	return root, nil
}

// inside reports whether file is root or below it, links resolved as far
// as they exist.
func inside(file, root string) bool {
	r, err := filepath.Rel(resolveLinks(root), resolveLinks(file))
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// resolveLinks returns p with the links of its longest existing prefix
// resolved.
func resolveLinks(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(resolveLinks(filepath.Clean(dir)), base)
}

// readSnapshot reads and decodes the snapshot file name ("-" is standard
// input), returning its bytes too.
func readSnapshot(e *env, name string) ([]byte, *snapshot.Snapshot, error) {
	var r io.Reader = e.stdin
	shown := "(standard input)"
	if name == "-" && r == nil {
		return nil, nil, askerr.Usage("there is no standard input to read the snapshot from")
	}
	if name != "-" {
		f, err := openPlain(name)
		if err != nil {
			return nil, nil, &askerr.Error{Code: askerr.CodeUsage, Message: "cannot read snapshot " + e.Rel(name), Err: err,
				Try: []string{"agent-skills snapshot capture <folder> --out <file> makes one"}}
		}
		defer f.Close()
		r, shown = f, e.Rel(name)
	}
	b, err := io.ReadAll(io.LimitReader(r, snapshot.MaxSize+1))
	if err != nil {
		return nil, nil, askerr.IO("cannot read snapshot "+shown, err)
	}
	s, err := snapshot.Decode(bytes.NewReader(b), shown)
	if err != nil {
		return nil, nil, err
	}
	return b, s, nil
}

// openPlain opens name, refusing what is not a regular file.
func openPlain(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = atomicfile.ErrNotPlain
		}
		return nil, err
	}
	return f, nil
}

type snapshotVerifyCmd struct {
	Snapshot string `arg:"" help:"The snapshot file (- reads standard input)."`
	Tree     string `arg:"" optional:"" default:"." type:"path" help:"The folder it was captured from (default: the working folder)."`
	JSON     bool   `name:"json" help:"Print the comparison as JSON."`
}

func (c *snapshotVerifyCmd) Help() string {
	return `Captures the folder again, as the snapshot's kind says (package or collection), and
compares: every package added or removed, every file added, removed or changed (with
the first byte at which it differs), every contract field changed and the catalog
digest. A snapshot holds no local path, so the folder is an argument (default: the
working folder). Exit 0 when nothing changed, 5 (ASK_SNAPSHOT_DRIFT) otherwise.

Examples:
  agent-skills snapshot verify pdf.snapshot.json skills/pdf
  agent-skills snapshot verify skills.snapshot.json skills/ --json`
}

// snapshotVerifyReport is the --json output of snapshot verify.
type snapshotVerifyReport struct {
	Snapshot string            `json:"snapshot"`
	Tree     string            `json:"tree"`
	Kind     string            `json:"kind"`
	Packages int               `json:"packages"`
	Files    int               `json:"files"`
	Clean    bool              `json:"clean"`
	Changes  []snapshot.Change `json:"changes"`
}

func (c *snapshotVerifyCmd) Run(e *env) error {
	_, want, err := readSnapshot(e, c.Snapshot)
	if err != nil {
		return err
	}
	root, err := existingDir(e, c.Tree)
	if err != nil {
		return err
	}
	changes, err := snapshot.Verify(want, os.DirFS(root), snapshot.Options{})
	if err != nil {
		return err
	}
	sum := summarize(want)
	rep := snapshotVerifyReport{Snapshot: e.Rel(c.Snapshot), Tree: e.Rel(root), Kind: want.Kind, Packages: len(want.Packages),
		Files: sum.Files, Clean: len(changes) == 0, Changes: changes}
	if c.JSON {
		if err := e.JSON(rep); err != nil {
			return err
		}
	} else if rep.Clean {
		e.Done("%s matches the snapshot: %d %s, %d %s", ui.Field(rep.Tree), rep.Packages, ui.Plural(rep.Packages, "package", "packages"),
			rep.Files, ui.Plural(rep.Files, "file", "files"))
	}
	if rep.Clean {
		return nil
	}
	return &askerr.Error{Code: snapshot.CodeDrift,
		Message: fmt.Sprintf("%s has drifted from the snapshot: %d %s", rep.Tree, len(changes), ui.Plural(len(changes), "change", "changes")),
		Detail:  changeLines(changes),
		Try: []string{"agent-skills snapshot restore " + rep.Snapshot + " <package folder> puts a captured package back",
			"or capture a new snapshot when the changes are intended"}}
}

// changeLines describes changes, at most maxDetailLines of them.
func changeLines(cs []snapshot.Change) []string {
	var out []string
	for i, c := range cs {
		if i == maxDetailLines {
			out = append(out, fmt.Sprintf("… and %d more (--json lists every one)", len(cs)-i))
			break
		}
		out = append(out, termtext.Line(c.String()))
	}
	return out
}

type snapshotRestoreCmd struct {
	Snapshot string `arg:"" help:"The snapshot file (- reads standard input)."`
	Dest     string `arg:"" type:"path" help:"The package folder to restore: created when missing, replaced as a whole otherwise."`
	Package  string `help:"The package to restore from a collection snapshot: its path in the collection or its name."`
	Force    bool   `help:"Replace the folder even though it differs from the snapshot; the listed local changes are lost."`
	JSON     bool   `name:"json" help:"Print the result as JSON."`
}

func (c *snapshotRestoreCmd) Help() string {
	return `Writes the captured package into a staging folder beside the destination, checks every
staged file against the snapshot's digests, and then swaps it in with one rename: the
destination is at every moment either the old folder or the restored one. The
destination becomes exactly the package's files (0644, folders 0755: a snapshot does
not record file modes); anything else in it counts as a local change. A destination
that differs from the snapshot is refused, listing each difference, unless --force; one
that already matches is left alone. A destination that is a symbolic link is refused.

Examples:
  agent-skills snapshot restore pdf.snapshot.json skills/pdf
  agent-skills snapshot restore skills.snapshot.json skills/pdf --package pdf --force`
}

// snapshotRestoreReport is the --json output of snapshot restore.
type snapshotRestoreReport struct {
	Dest    string `json:"dest"`
	Package string `json:"package"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Digest  string `json:"digest"`
	Files   int    `json:"files"`
	// Restored is false when the destination already matched.
	Restored bool `json:"restored"`
	// Replaced are the local changes --force overwrote.
	Replaced []snapshot.Change `json:"replaced"`
}

func (c *snapshotRestoreCmd) Run(e *env) error {
	_, s, err := readSnapshot(e, c.Snapshot)
	if err != nil {
		return err
	}
	p, err := s.Select(c.Package)
	if err != nil {
		return err
	}
	dest, err := filepath.Abs(c.Dest)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.Dest)
	}
	rep := snapshotRestoreReport{Dest: e.Rel(dest), Package: p.Path, Name: p.Contract.Name, Version: p.Contract.Version,
		Digest: p.Digest, Files: len(p.Files), Replaced: []snapshot.Change{}}
	fi, err := os.Lstat(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return askerr.IO("cannot inspect "+rep.Dest, err)
	case !fi.IsDir():
		return unsafeDest(rep.Dest, fi.Mode())
	default:
		changes, err := snapshot.LocalChanges(p, os.DirFS(dest))
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			return c.report(e, rep)
		}
		if !c.Force {
			return &askerr.Error{Code: snapshot.CodeLocalChanges,
				Message: fmt.Sprintf("%s differs from the snapshot: %d local %s; nothing was written", rep.Dest, len(changes), ui.Plural(len(changes), "change", "changes")),
				Detail:  changeLines(changes),
				Try:     []string{"keep what you need, then run the same command with --force to replace the folder"}}
		}
		rep.Replaced = changes
	}
	check := func(stage string) error {
		changes, err := snapshot.LocalChanges(p, os.DirFS(stage))
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			return &askerr.Error{Code: askerr.CodeIO, Message: "the staged copy does not match the snapshot; nothing was replaced",
				Detail: changeLines(changes), Try: []string{"check the disk and run the command again"}}
		}
		if hook := e.faultHook(); hook != nil {
			return hook(pointRestoreStaged)
		}
		return nil
	}
	if err := atomicfile.ReplaceTree(dest, p.Tree(), check); err != nil {
		if errors.Is(err, atomicfile.ErrNotDir) {
			// something that is not a folder took its place meanwhile
			mode := fs.ModeSymlink
			if fi, err := os.Lstat(dest); err == nil {
				mode = fi.Mode()
			}
			return unsafeDest(rep.Dest, mode)
		}
		var ae *askerr.Error
		if errors.As(err, &ae) {
			return err
		}
		return askerr.IO("cannot restore "+rep.Dest+"; it was left as it was", err)
	}
	rep.Restored = true
	return c.report(e, rep)
}

func (c *snapshotRestoreCmd) report(e *env, rep snapshotRestoreReport) error {
	if c.JSON {
		return e.JSON(rep)
	}
	what := ui.Field(strings.TrimSpace(rep.Name + " " + rep.Version))
	if !rep.Restored {
		e.Done("%s already matches the snapshot of %s: nothing was written", ui.Field(rep.Dest), what)
		return nil
	}
	e.Done("restored %s into %s (%d %s, %s)", what, ui.Field(rep.Dest), rep.Files, ui.Plural(rep.Files, "file", "files"), rep.Digest)
	if n := len(rep.Replaced); n > 0 {
		e.Info("replaced %d local %s:", n, ui.Plural(n, "change", "changes"))
		for _, l := range changeLines(rep.Replaced) {
			e.Info("  %s", l)
		}
	}
	return nil
}

func unsafeDest(dest string, mode fs.FileMode) error {
	what := "a file"
	if mode&fs.ModeSymlink != 0 {
		what = "a symbolic link"
	}
	return &askerr.Error{Code: snapshot.CodeDestUnsafe,
		Message: fmt.Sprintf("%s is %s, not a folder: a restore never follows or replaces one", dest, what),
		Try:     []string{"name the package folder itself, or remove " + dest + " first"}}
}
