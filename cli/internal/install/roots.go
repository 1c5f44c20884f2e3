package install

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// maxLinks bounds the symbolic links followed to resolve one path, like
// the kernel's own limit (40 on Linux): a loop ends in a refusal, not a
// hang.
const maxLinks = 40

// Canonicalizer returns the function agents.Env.Canonical should be on
// this machine: it resolves the symbolic links in an agent root's path, so
// that two roots that are one folder (.agents/skills and a .claude/skills
// linked to it) have one spelling and are planned, written and listed as
// one root with all their readers.
//
// Only the part of a path below the project root (for a path in the
// project) or the home folder (for a path there) is resolved; that prefix
// keeps the spelling it was given, so paths printed relative to the
// working folder stay readable. A path elsewhere is resolved whole. A
// missing part is kept as written; a dangling link is followed to where it
// points, since that is the folder an install will create.
//
// A link in the project that leads out of it is left as it is: such a
// root is refused with ASK_ROOT_UNSAFE, naming the link, by every
// operation of this package (a cloned repository must not point an
// install, an uninstall or a recovery at the rest of the disk). A link in
// the home folder may lead anywhere: that is the user's own machine.
//
// Results are remembered for the life of the returned function: a run
// creates missing folders, which does not change their spelling, and
// never changes where a link leads.
func Canonicalizer(projectRoot, home string) func(path string) string {
	var mu sync.Mutex
	seen := map[string]string{}
	return func(p string) string {
		mu.Lock()
		defer mu.Unlock()
		if c, ok := seen[p]; ok {
			return c
		}
		c := canonical(projectRoot, home, p)
		seen[p] = c
		return c
	}
}

// canonical is one resolution of Canonicalizer.
func canonical(projectRoot, home, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	p = filepath.Clean(p)
	if projectRoot != "" && within(projectRoot, p) {
		r, esc := resolveBelow(projectRoot, p)
		if esc != nil {
			return p
		}
		return r
	}
	if home != "" && within(home, p) {
		if r, esc := resolveBelow(home, p); esc == nil {
			return r
		}
	}
	r, _ := resolveBelow(volumeRoot(p), p)
	return r
}

// escape is a symbolic link whose target leaves the folder a path was
// resolved below.
type escape struct {
	// link is the link's own path; target is what it holds.
	link, target string
}

// resolveBelow resolves the symbolic links in the part of p below anchor,
// which p must be lexically within. The result is spelt from anchor. When
// a link leads out of anchor it returns p unchanged and that link. A path
// with more than maxLinks links is returned unchanged: using it fails later
// with the operating system's own error.
func resolveBelow(anchor, p string) (string, *escape) {
	anchor = filepath.Clean(anchor)
	// real is anchor with its own links resolved, needed only for a link
	// whose target is not spelt from anchor: resolved then, once, so that
	// a path without links below anchor costs one lstat per element below
	// it and none for the elements of anchor itself.
	var real string
	realAnchor := func() string {
		if real == "" {
			real = anchor
			if r, err := filepath.EvalSymlinks(anchor); err == nil {
				real = r
			}
		}
		return real
	}
	rel, ok := relWithin(anchor, p)
	if !ok {
		return p, nil
	}
	todo := splitPath(rel)
	cur := anchor
	links := 0
	for len(todo) > 0 {
		// todo is always clean and local: a link's target is made
		// absolute and taken relative to anchor again, so ".." never
		// needs walking (cur holds no link, so its lexical parent is its
		// real one).
		next := filepath.Join(cur, todo[0])
		todo = todo[1:]
		info, err := os.Lstat(next)
		if err != nil {
			// Missing (or unreadable): the rest is spelt as given, and
			// whoever uses the path meets the error.
			return filepath.Join(append([]string{next}, todo...)...), nil
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return p, nil
		}
		target, err := os.Readlink(next)
		if err != nil {
			return p, nil
		}
		abs := filepath.Join(cur, target)
		if filepath.IsAbs(target) {
			abs = filepath.Clean(target)
		}
		r, ok := relWithin(anchor, abs)
		if !ok {
			if r, ok = relWithin(realAnchor(), abs); !ok {
				return p, &escape{link: next, target: target}
			}
		}
		cur = anchor
		todo = append(splitPath(r), todo...)
	}
	return cur, nil
}

// within reports whether p is dir or lexically inside it.
func within(dir, p string) bool {
	_, ok := relWithin(dir, p)
	return ok
}

// relWithin returns p relative to dir when p is dir or lexically inside it.
func relWithin(dir, p string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}

// splitPath splits a relative path into its elements.
func splitPath(rel string) []string {
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(rel, string(filepath.Separator))
}

// volumeRoot returns the root of p's volume: "/" on Unix, `C:\` on
// Windows.
func volumeRoot(p string) string {
	return filepath.VolumeName(p) + string(filepath.Separator)
}
