package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agent-skills/agent-skills/format"
)

// Error codes of verification and restore.
const (
	// CodeDrift: the tree no longer matches its snapshot (exit 5).
	CodeDrift = "ASK_SNAPSHOT_DRIFT"
	// CodeLocalChanges: restore would overwrite a folder that differs
	// from the snapshot (exit 1).
	CodeLocalChanges = "ASK_SNAPSHOT_LOCAL_CHANGES"
	// CodeDestUnsafe: the restore destination is a symbolic link or not a
	// folder (exit 5).
	CodeDestUnsafe = "ASK_SNAPSHOT_DEST_UNSAFE"
)

// What a Change is about.
const (
	ChangePackageAdded   = "package-added"
	ChangePackageRemoved = "package-removed"
	ChangeFileAdded      = "file-added"
	ChangeFileRemoved    = "file-removed"
	ChangeFileChanged    = "file-changed"
	// ChangeNotRegular is a path that is a folder, link or device where
	// the snapshot has a file, or a link or device anywhere (restore).
	ChangeNotRegular = "not-regular"
	ChangeContract   = "contract"
	ChangeCatalog    = "catalog"
)

// Change is one difference between a snapshot and what it is compared
// with (a fresh capture, or a restore destination).
type Change struct {
	// Package is the package's path ("." for a package snapshot); empty
	// for the catalog.
	Package string `json:"package"`
	// Kind is one of the Change* constants.
	Kind string `json:"kind"`
	// File is the file's path within the package (file changes) or the
	// catalog file.
	File string `json:"file,omitempty"`
	// Field is the contract field that changed (camelCase, as in the
	// snapshot).
	Field string `json:"field,omitempty"`
	// Offset is, for a changed file, the first byte at which the two
	// contents differ (the shorter one's length when one is a prefix of
	// the other).
	Offset *int64 `json:"offset,omitempty"`
	// Before and After are the snapshot's and the other side's value: a
	// file's digest and size, a contract field as compact JSON, the
	// catalog's digest. Empty when that side has none.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// Where returns the package/file the change names, for messages.
func (c Change) Where() string {
	switch {
	case c.Kind == ChangeCatalog:
		return c.File
	case c.File == "":
		return c.Package
	case c.Package == ".":
		return c.File
	}
	return c.Package + "/" + c.File
}

// String describes the change in one line.
func (c Change) String() string {
	w := c.Where()
	switch c.Kind {
	case ChangePackageAdded:
		return w + ": package added"
	case ChangePackageRemoved:
		return w + ": package removed"
	case ChangeFileAdded:
		return w + ": file added (not in the snapshot)"
	case ChangeFileRemoved:
		return w + ": file removed"
	case ChangeFileChanged:
		return fmt.Sprintf("%s: changed at byte %d (%s → %s)", w, *c.Offset, c.Before, c.After)
	case ChangeNotRegular:
		return w + ": not a regular file (" + c.After + ")"
	case ChangeContract:
		return fmt.Sprintf("%s: contract field %s changed: %s → %s", w, c.Field, orNone(c.Before), orNone(c.After))
	case ChangeCatalog:
		return fmt.Sprintf("%s: catalog changed: %s → %s", w, orNone(c.Before), orNone(c.After))
	case ChangeProblem:
		return fmt.Sprintf("%s: does not load: %s", c.Package, c.After)
	}
	return w + ": " + c.Kind
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Compare returns every difference between the snapshot want and the
// capture got of the same tree, sorted by package, then file, then
// field: packages added and removed, files added, removed and changed
// (with the first differing byte), contract fields changed, and the
// catalog's digest. No change means the tree still is what was captured.
func Compare(want, got *Snapshot) []Change {
	out := []Change{}
	if c := catalogChange(want.Catalog, got.Catalog); c != nil {
		out = append(out, *c)
	}
	i, j := 0, 0
	for i < len(want.Packages) || j < len(got.Packages) {
		switch {
		case j == len(got.Packages) || i < len(want.Packages) && want.Packages[i].Path < got.Packages[j].Path:
			out = append(out, Change{Package: want.Packages[i].Path, Kind: ChangePackageRemoved, Before: want.Packages[i].Digest})
			i++
		case i == len(want.Packages) || got.Packages[j].Path < want.Packages[i].Path:
			out = append(out, Change{Package: got.Packages[j].Path, Kind: ChangePackageAdded, After: got.Packages[j].Digest})
			j++
		default:
			out = append(out, comparePackage(&want.Packages[i], &got.Packages[j])...)
			i++
			j++
		}
	}
	return out
}

func catalogChange(want, got *CatalogDigest) *Change {
	switch {
	case want == nil && got == nil:
		return nil
	case want == nil:
		return &Change{Kind: ChangeCatalog, File: got.File, After: got.Digest}
	case got == nil:
		return &Change{Kind: ChangeCatalog, File: want.File, Before: want.Digest}
	case want.Digest != got.Digest:
		return &Change{Kind: ChangeCatalog, File: want.File, Before: want.Digest, After: got.Digest}
	}
	return nil
}

// comparePackage returns the file and contract changes of one package.
func comparePackage(want, got *Package) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(want.Files) || j < len(got.Files) {
		switch {
		case j == len(got.Files) || i < len(want.Files) && want.Files[i].Path < got.Files[j].Path:
			out = append(out, removedFile(want.Path, &want.Files[i]))
			i++
		case i == len(want.Files) || got.Files[j].Path < want.Files[i].Path:
			f := &got.Files[j]
			out = append(out, Change{Package: want.Path, Kind: ChangeFileAdded, File: f.Path, After: fileValue(f.Digest, f.Size)})
			j++
		default:
			if c := changedFile(want.Path, &want.Files[i], got.Files[j].Content); c != nil {
				out = append(out, *c)
			}
			i++
			j++
		}
	}
	return append(out, compareContract(want.Path, &want.Contract, &got.Contract)...)
}

func removedFile(pkg string, f *File) Change {
	return Change{Package: pkg, Kind: ChangeFileRemoved, File: f.Path, Before: fileValue(f.Digest, f.Size)}
}

// changedFile compares the captured file f with the bytes now there.
func changedFile(pkg string, f *File, now []byte) *Change {
	if bytes.Equal(f.Content, now) {
		return nil
	}
	off := int64(firstDiff(f.Content, now))
	return &Change{Package: pkg, Kind: ChangeFileChanged, File: f.Path, Offset: &off,
		Before: fileValue(f.Digest, f.Size), After: fileValue(format.BytesDigest(now), int64(len(now)))}
}

// firstDiff returns the first index at which a and b differ, or the
// shorter one's length.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func fileValue(digest string, size int64) string {
	return fmt.Sprintf("%s, %d bytes", digest, size)
}

// contractFields lists the contract's fields by their JSON names.
func contractFields(c *Contract) []struct {
	name  string
	value any
} {
	return []struct {
		name  string
		value any
	}{
		{"name", c.Name}, {"kind", c.Kind}, {"version", c.Version}, {"description", c.Description},
		{"entrypoint", c.Entrypoint}, {"dependencies", c.Dependencies},
		{"optionalDependencies", c.OptionalDependencies}, {"suggests", c.Suggests},
		{"compatibility", c.Compatibility}, {"capabilities", c.Capabilities},
		{"manifestKeys", c.ManifestKeys}, {"frontMatterKeys", c.FrontMatterKeys}, {"links", c.Links},
	}
}

// compareContract returns a change per contract field that differs.
func compareContract(pkg string, want, got *Contract) []Change {
	var out []Change
	w, g := contractFields(want), contractFields(got)
	for k := range w {
		before, after := compactJSON(w[k].value), compactJSON(g[k].value)
		if before != after {
			out = append(out, Change{Package: pkg, Kind: ChangeContract, Field: w[k].name, Before: before, After: after})
		}
	}
	return out
}

// compactJSON is v as compact JSON; nil, "" and [] are the same absence.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	switch s := string(b); s {
	case `""`, "[]", "null":
		return ""
	default:
		return s
	}
}
