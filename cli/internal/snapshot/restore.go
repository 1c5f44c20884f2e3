package snapshot

import (
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// MaxDestEntries bounds how many entries LocalChanges walks in a
// destination folder.
const MaxDestEntries = 100_000

// LocalChanges returns how the folder dest differs from the captured
// package p, file by file: files the snapshot does not have (whatever
// their name: a restore replaces the whole folder), files it has that
// are missing or differ (with the first differing byte), and anything
// that is not a regular file (a link or device is never followed or
// read). A file is read no further than its captured size plus one
// byte. Folders are not changes by themselves; file modes are not
// compared. No change means dest already holds p byte for byte.
func LocalChanges(p *Package, dest fs.FS) ([]Change, error) {
	out := []Change{}
	seen := make(map[string]bool, len(p.Files))
	entries := 0
	err := fs.WalkDir(dest, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if entries++; entries > MaxDestEntries {
			return fmt.Errorf("it holds more than %d entries", MaxDestEntries)
		}
		if name == "." {
			return nil
		}
		f := p.File(name)
		if f != nil {
			seen[name] = true
		}
		switch t := d.Type(); {
		case t.IsDir():
			if f != nil {
				out = append(out, Change{Package: p.Path, Kind: ChangeNotRegular, File: name, Before: fileValue(f.Digest, f.Size), After: "a folder"})
				return fs.SkipDir
			}
			return nil
		case !t.IsRegular():
			out = append(out, Change{Package: p.Path, Kind: ChangeNotRegular, File: name, After: typeName(t)})
			return nil
		}
		if f == nil {
			c := Change{Package: p.Path, Kind: ChangeFileAdded, File: name}
			if fi, err := d.Info(); err == nil {
				c.After = fmt.Sprintf("%d bytes", fi.Size())
			}
			out = append(out, c)
			return nil
		}
		now, err := readAtMost(dest, name, f.Size+1)
		if err != nil {
			return err
		}
		if c := changedFile(p.Path, f, now); c != nil {
			out = append(out, *c)
		}
		return nil
	})
	if err != nil {
		return nil, ioError("cannot compare the destination with the snapshot", err)
	}
	for i := range p.Files {
		if !seen[p.Files[i].Path] {
			out = append(out, removedFile(p.Path, &p.Files[i]))
		}
	}
	sortByFile(out)
	return out, nil
}

// Tree returns p's files as atomicfile.WriteTree and ReplaceTree write
// them: 0644 each, the folders between them 0755 (a snapshot records no
// file mode).
func (p *Package) Tree() []atomicfile.File {
	out := make([]atomicfile.File, len(p.Files))
	for i, f := range p.Files {
		out[i] = atomicfile.File{Path: f.Path, Data: f.Content, Mode: 0o644}
	}
	return out
}

// Select returns the package of s a restore puts back: the only one, or
// the one whose path or name is sel. The error lists what there is.
func (s *Snapshot) Select(sel string) (*Package, error) {
	if sel == "" && len(s.Packages) == 1 {
		return &s.Packages[0], nil
	}
	var names []string
	for i := range s.Packages {
		p := &s.Packages[i]
		if sel != "" && (p.Path == sel || p.Contract.Name == sel) {
			return p, nil
		}
		names = append(names, termtext.Line(p.Path))
	}
	msg := fmt.Sprintf("the snapshot holds %d packages: choose one with --package", len(s.Packages))
	if sel != "" {
		msg = fmt.Sprintf("the snapshot holds no package with the path or name %q", sel)
	}
	if len(names) > 20 {
		names = append(names[:20], fmt.Sprintf("… and %d more", len(names)-20))
	}
	return nil, &askerr.Error{Code: askerr.CodeUsage, Message: msg, Detail: names,
		Try: []string{"agent-skills snapshot restore <snapshot> <dest> --package <path or name>"}}
}

func readAtMost(fsys fs.FS, name string, n int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

func typeName(t fs.FileMode) string {
	switch {
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// sortByFile orders changes of one package by file path.
func sortByFile(cs []Change) {
	slices.SortStableFunc(cs, func(a, b Change) int { return strings.Compare(a.File, b.File) })
}
