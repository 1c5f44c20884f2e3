package registry

import (
	"io/fs"
	"strings"
	"unicode/utf8"
)

// This file duplicates, on purpose, the small part of validate's path
// checker that the archive extractor and the index decoder need: registry
// sits below validate in the module graph and must not import it.

// maxPathLen and maxPathDepth bound a package-relative path.
const (
	maxPathLen   = 1024
	maxPathDepth = 32
	maxNameLen   = 255
)

// checkPath reports why the slash-separated, package-relative path p is
// unsafe to create on any supported operating system, or "" when it is
// safe. It rejects empty, absolute and drive-letter paths, backslashes,
// "." and ".." elements, control characters, invalid UTF-8, names reserved
// by Windows, names ending in a dot or a space, and characters Windows
// refuses.
func checkPath(p string) string {
	switch {
	case p == "":
		return "empty path"
	case len(p) > maxPathLen:
		return "path longer than 1024 bytes"
	case !utf8.ValidString(p):
		return "path is not valid UTF-8"
	case strings.HasPrefix(p, "/"):
		return "absolute path"
	case strings.Contains(p, `\`):
		return "backslash in path"
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return "drive-letter path"
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "control character in path"
		}
	}
	depth := 0
	for rest := p; ; {
		e, more, found := strings.Cut(rest, "/")
		depth++
		if depth > maxPathDepth {
			return "path deeper than 32 levels"
		}
		if why := checkElem(e); why != "" {
			return why
		}
		if !found {
			break
		}
		rest = more
	}
	if !fs.ValidPath(p) {
		return "invalid path"
	}
	return ""
}

// checkElem reports why one path element is unsafe, or "".
func checkElem(e string) string {
	switch {
	case e == "":
		return "empty path element"
	case e == "..":
		return `".." path element`
	case e == ".":
		return `"." path element`
	case len(e) > maxNameLen:
		return "path element longer than 255 bytes"
	case strings.ContainsAny(e, `<>:"|?*`):
		return `character reserved on Windows (<>:"|?*)`
	case strings.HasSuffix(e, ".") || strings.HasSuffix(e, " "):
		return "path element ends in a dot or a space"
	case isReservedWindowsName(e):
		return "name reserved on Windows (" + e + ")"
	}
	return ""
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isReservedWindowsName reports whether the path element e, ignoring any
// extension, is a device name Windows reserves (CON, NUL, COM1, …).
func isReservedWindowsName(e string) bool {
	base, _, _ := strings.Cut(e, ".")
	base = strings.TrimRight(base, " ")
	if n := len(base); n != 3 && n != 4 && n != 6 && n != 7 {
		return false
	}
	base = strings.ToUpper(base)
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		c := base[3]
		return '0' <= c && c <= '9'
	}
	return false
}
