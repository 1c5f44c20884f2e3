package registry

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// checkPath reports why the slash-separated, package-relative path p is
// unsafe to create on any supported operating system, or "" when it is
// safe. The rules are format's (format.CheckPath), shared with validation,
// the loader, the CLI's source copier and the agents' layouts; this adds
// only the depth bound the extractor and the index decoder apply
// (format.DefaultMaxDepth), which is a limit rather than a portability
// rule.
func checkPath(p string) string {
	if err := format.CheckPath(p); err != nil {
		return err.(*format.PathError).Rule
	}
	if strings.Count(p, "/")+1 > format.DefaultMaxDepth {
		return fmt.Sprintf("is deeper than %d levels", format.DefaultMaxDepth)
	}
	return ""
}

// admit decides whether the archive entry name (raw as the archive spells
// it) may be written, and claims it and its parent folders. A path that is
// absolute or escapes, is too deep, repeats an entry, or uses a file as a
// folder (or the reverse) makes the archive unsafe: ASK_ARCHIVE_UNSAFE at
// once. A path that is merely not portable (format.CheckPath), or names the
// same file as an earlier entry on a case-insensitive or normalising file
// system (format.PathSet), is recorded and skipped (false, nil), so that
// every such entry is reported together when the archive ends (see
// unportableError).
func (x *extractor) admit(raw, name string, isDir bool) (bool, error) {
	if err := format.CheckPath(name); err != nil {
		pe := err.(*format.PathError)
		if pe.Escapes {
			return false, archiveUnsafe(raw, pe.Rule)
		}
		x.unportable = append(x.unportable, pe)
		return false, nil
	}
	if why := checkPath(name); why != "" {
		return false, archiveUnsafe(raw, why)
	}
	elems := strings.Split(name, "/")
	for i := range elems {
		p := strings.Join(elems[:i+1], "/")
		wantDir := i < len(elems)-1 || isDir
		if d, ok := x.seen[p]; ok && !(d && wantDir) {
			return false, archiveUnsafe(raw, fmt.Sprintf("duplicate or conflicting entry %q", p))
		}
	}
	if err := x.names.Add(name, isDir); err != nil {
		x.unportable = append(x.unportable, err.(*format.PathError))
		return false, nil
	}
	for i := range elems {
		x.seen[strings.Join(elems[:i+1], "/")] = i < len(elems)-1 || isDir
	}
	return true, nil
}

// unportableError returns the ASK_PACKAGE_UNSAFE_FILE error listing every
// entry admit skipped, or nil when there is none: the error every kind of
// package source gives for such names (see format.CheckPaths).
func (x *extractor) unportableError() error {
	if len(x.unportable) == 0 {
		return nil
	}
	e := &Error{
		Code:    format.CodePackageUnsafeFile,
		Message: fmt.Sprintf("the archive holds %d file names that some supported system cannot create as themselves", len(x.unportable)),
		Try:     []string{"do not install this package; report it to its maintainers"},
	}
	for _, pe := range x.unportable {
		e.Detail = append(e.Detail, pe.Error())
	}
	return e
}
