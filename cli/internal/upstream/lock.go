package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
)

// FileName is the lock's name at a collection's root.
const FileName = "upstreams.lock.json"

// Schema is the value of the lock's "schema" field; a reader refuses any
// other.
const Schema = "agent-skills.upstreams/1"

// Limits of what a reader accepts.
const (
	// MaxLockSize is the largest lock Decode reads.
	MaxLockSize = 32 << 20
	// MaxLicenseSize is the largest licence file recorded.
	MaxLicenseSize = 1 << 20
)

// Error codes this package raises; exit codes are in the CLI's table.
const (
	// CodeLockInvalid: upstreams.lock.json is malformed, of another
	// schema, or records what Record never writes (exit 2).
	CodeLockInvalid = "ASK_UPSTREAM_LOCK_INVALID"
	// CodeInvalid: what upstream add was asked to record cannot be: not a
	// git repository, a package outside the collection, a licence path
	// the upstream does not have (exit 2).
	CodeInvalid = "ASK_UPSTREAM_INVALID"
	// CodeChanged: upstream check found an upstream that changed since it
	// was recorded (exit 1).
	CodeChanged = "ASK_UPSTREAM_CHANGED"
	// CodeUnchecked: upstream check could not check one entry or more
	// (exit 4); each entry names its own cause.
	CodeUnchecked = "ASK_UPSTREAM_UNCHECKED"
)

// Lock is upstreams.lock.json.
type Lock struct {
	Schema string `json:"schema"`
	// Upstreams are sorted by Package; one entry per local package.
	Upstreams []Entry `json:"upstreams"`
}

// Entry records one local package's upstream.
type Entry struct {
	// Package is the local package folder, relative to the collection's
	// root, slash-separated.
	Package string `json:"package"`
	Source  Source `json:"source"`
	// Digest is the canonical package digest (format.Digest) of the
	// upstream skill at Source.Commit.
	Digest string `json:"digest"`
	// Files are the upstream skill's file set at Source.Commit, sorted by
	// path, relative to the skill's folder.
	Files []File `json:"files"`
	// License is the licence that applies to the upstream skill; nil when
	// none was found.
	License *License `json:"license,omitempty"`
}

// Source is where an upstream skill lives.
type Source struct {
	// Repository is the git repository as agent-skills records a source
	// (github:owner/repo, gitlab:group/repo, or the URL).
	Repository string `json:"repository"`
	// Path is the skill's folder in the repository, "." for its root.
	Path string `json:"path"`
	// Ref is the branch or tag followed; absent for the default branch.
	Ref string `json:"ref,omitempty"`
	// Commit is the commit Ref resolved to when the entry was recorded.
	Commit string `json:"commit"`
}

// File is one upstream file: "sha256-" + base64 of its exact bytes.
type File struct {
	Path   string `json:"path"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// License is the licence file of an upstream skill.
type License struct {
	// Path is the licence file's path in the repository.
	Path string `json:"path"`
	// InPackage reports a licence inside the skill's folder: it is one of
	// Files, and its bytes are not repeated here.
	InPackage bool   `json:"inPackage"`
	Digest    string `json:"digest"`
	Size      int64  `json:"size"`
	// Content is the licence's bytes (base64 in JSON) when it lives
	// outside the package; absent otherwise.
	Content []byte `json:"content,omitempty"`
}

// Put adds e to l, replacing the entry of the same package, and keeps the
// entries sorted. It reports whether an entry was replaced.
func (l *Lock) Put(e Entry) bool {
	i, found := slices.BinarySearchFunc(l.Upstreams, e.Package, func(x Entry, p string) int { return strings.Compare(x.Package, p) })
	if found {
		l.Upstreams[i] = e
	} else {
		l.Upstreams = slices.Insert(l.Upstreams, i, e)
	}
	return found
}

// Get returns the entry of the package p, or nil.
func (l *Lock) Get(p string) *Entry {
	i, found := slices.BinarySearchFunc(l.Upstreams, p, func(x Entry, p string) int { return strings.Compare(x.Package, p) })
	if !found {
		return nil
	}
	return &l.Upstreams[i]
}

// Encode returns the canonical bytes of l: entries sorted by package and
// files by path, indented JSON in field order, a final newline.
func Encode(l *Lock) ([]byte, error) {
	out := Lock{Schema: Schema, Upstreams: slices.Clone(l.Upstreams)}
	if out.Upstreams == nil {
		out.Upstreams = []Entry{}
	}
	slices.SortFunc(out.Upstreams, func(a, b Entry) int { return strings.Compare(a.Package, b.Package) })
	for i := range out.Upstreams {
		out.Upstreams[i].Files = slices.Clone(out.Upstreams[i].Files)
		slices.SortFunc(out.Upstreams[i].Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode parses a lock, refusing more than MaxLockSize bytes, unknown
// fields, another schema, and anything Record never writes. name is used
// in messages only.
func Decode(r io.Reader, name string) (*Lock, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxLockSize+1))
	if err != nil {
		return nil, askerr.IO("cannot read "+name, err)
	}
	if len(b) > MaxLockSize {
		return nil, lockInvalid(name, fmt.Sprintf("it is larger than %d MiB", MaxLockSize>>20))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l Lock
	if err := dec.Decode(&l); err != nil {
		return nil, lockInvalid(name, "it is not an upstreams lock: "+err.Error())
	}
	if dec.More() {
		return nil, lockInvalid(name, "it holds more than one JSON value")
	}
	if l.Schema != Schema {
		return nil, lockInvalid(name, fmt.Sprintf("its schema is %q; this agent-skills reads %q", l.Schema, Schema))
	}
	if l.Upstreams == nil {
		l.Upstreams = []Entry{}
	}
	for i, e := range l.Upstreams {
		if err := e.check(); err != nil {
			return nil, lockInvalid(name, fmt.Sprintf("entry %d: %v", i+1, err))
		}
		if i > 0 && l.Upstreams[i-1].Package >= e.Package {
			return nil, lockInvalid(name, fmt.Sprintf("entry %d: packages are not sorted, or %q repeats", i+1, e.Package))
		}
	}
	return &l, nil
}

// check refuses what Record never writes.
func (e *Entry) check() error {
	if !fs.ValidPath(e.Package) || e.Package == "." {
		return fmt.Errorf("package %q is not a clean relative folder path", e.Package)
	}
	s := e.Source
	if s.Repository == "" || strings.ContainsAny(s.Repository, "\x00\n\r") {
		return fmt.Errorf("package %s: the repository is empty or holds a control character", e.Package)
	}
	if !RepoPath(s.Path) {
		return fmt.Errorf("package %s: the upstream path %q is not a clean relative path outside .git", e.Package, s.Path)
	}
	if !isCommitID(s.Commit) {
		return fmt.Errorf("package %s: commit %q is not a full commit id", e.Package, s.Commit)
	}
	if !isDigest(e.Digest) {
		return fmt.Errorf("package %s: digest %q is not a sha256- digest", e.Package, e.Digest)
	}
	for i, f := range e.Files {
		if !fs.ValidPath(f.Path) || f.Path == "." || !isDigest(f.Digest) || f.Size < 0 {
			return fmt.Errorf("package %s: file %q has an unclean path, a malformed digest or a negative size", e.Package, f.Path)
		}
		if i > 0 && e.Files[i-1].Path >= f.Path {
			return fmt.Errorf("package %s: files are not sorted, or %q repeats", e.Package, f.Path)
		}
	}
	if l := e.License; l != nil {
		if !RepoPath(l.Path) || l.Path == "." || !isDigest(l.Digest) {
			return fmt.Errorf("package %s: licence %q has an unclean path or a malformed digest", e.Package, l.Path)
		}
		if l.InPackage {
			if len(l.Content) != 0 {
				return fmt.Errorf("package %s: a licence inside the package records no bytes", e.Package)
			}
			if rel, ok := inFolder(l.Path, s.Path); !ok || e.file(rel) == nil || e.file(rel).Digest != l.Digest {
				return fmt.Errorf("package %s: licence %q is not the package file it claims to be", e.Package, l.Path)
			}
		} else {
			if int64(len(l.Content)) != l.Size || format.BytesDigest(l.Content) != l.Digest || l.Size > MaxLicenseSize {
				return fmt.Errorf("package %s: licence %q: its bytes do not match its digest or size", e.Package, l.Path)
			}
		}
	}
	return nil
}

// file returns the recorded file p, or nil.
func (e *Entry) file(p string) *File {
	i, ok := slices.BinarySearchFunc(e.Files, p, func(f File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return nil
	}
	return &e.Files[i]
}

// RepoPath reports whether p is a path a lock may name in a repository:
// clean, relative, slash-separated ("." for the root), not in .git (the
// checkout's own, never the upstream's), and free of the characters git
// reads as a pattern in a sparse checkout (so one entry cannot make the
// checkout its repository shares with others fail).
func RepoPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return fs.ValidPath(p) && first != ".git" && !strings.ContainsAny(p, "*?[]\\!#\x00\n\r") && !strings.HasPrefix(p, " ")
}

// inFolder returns p relative to dir ("." is the root) and whether p is
// inside dir.
func inFolder(p, dir string) (string, bool) {
	if dir == "." {
		return p, true
	}
	rel, ok := strings.CutPrefix(p, dir+"/")
	return rel, ok && rel != ""
}

func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isDigest(s string) bool {
	rest, ok := strings.CutPrefix(s, "sha256-")
	return ok && len(rest) == 44
}

func lockInvalid(name, why string) error {
	return &askerr.Error{Code: CodeLockInvalid, Message: fmt.Sprintf("%s cannot be used: %s", name, why),
		Try: []string{"restore it from version control, or record each upstream again: agent-skills upstream add <package> <repository>"}}
}
