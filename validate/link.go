package validate

import (
	"bytes"
	"net/url"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// markdown is the CommonMark parser shared by every check. It is never
// reconfigured after creation, and goldmark parsers keep all per-document
// state in a fresh parser context, so sharing it across goroutines is safe.
var markdown = goldmark.DefaultParser()

// LinkKind classifies a Markdown link destination.
type LinkKind int

const (
	// LinkRelative is a relative path that must resolve inside the package.
	LinkRelative LinkKind = iota
	// LinkExternal is a URL with a scheme (https:, mailto:, …) or a
	// network-path reference ("//host/x"); it is not checked.
	LinkExternal
	// LinkFragment is a link inside the same document ("#section") or an
	// empty destination; it is not checked.
	LinkFragment
	// LinkAbsolute is an absolute path ("/x", "C:/x", "file:///x"), which
	// cannot point into an installed package.
	LinkAbsolute
	// LinkEscaping is a relative path that leaves the package ("../x").
	LinkEscaping
)

// String returns the kind's name as used in messages.
func (k LinkKind) String() string {
	switch k {
	case LinkExternal:
		return "external"
	case LinkFragment:
		return "fragment"
	case LinkAbsolute:
		return "absolute"
	case LinkEscaping:
		return "escaping"
	}
	return "relative"
}

// Link is one link or image found in a Markdown body.
type Link struct {
	// Pos is the 1-based line and column of the link's opening bracket (or
	// "!" of an image) in the file the body came from.
	Pos format.Pos
	// Destination is the destination as written, after Markdown escapes.
	Destination string
	// Image is true for ![alt](dest) images.
	Image bool
	// Kind says how the destination was classified.
	Kind LinkKind
	// Target is, for LinkRelative, the package-relative slash path the link
	// points to, with any "#fragment" and "?query" dropped and
	// percent-escapes such as %20 decoded; "." is the package root.
	Target string
	// Sibling is, for a LinkEscaping link that goes up one level only, to
	// the folder holding the package, the first element of its path there:
	// "beta" for "../beta/SKILL.md", which points into a sibling package
	// when the package sits in a collection beside a folder beta. It is
	// empty otherwise.
	Sibling string
}

// BaseDir is the placeholder Claude Code replaces with a skill's folder:
// a link written "{baseDir}/references/x.md" points at references/x.md
// of the package, wherever the linking file is.
const BaseDir = "{baseDir}"

// Links parses body as CommonMark and returns every inline, reference and
// image link in document order, classified by Kind. Autolinks (<https://…>)
// are absolute URLs and are skipped; links inside code spans and code
// blocks are not links and are not returned. startLine is the 1-based line
// of the file on which body begins (after any front matter) and dir the
// package-relative directory of the file ("." for the package root);
// relative targets are resolved against dir. Raw HTML (<img src=…>) is not
// inspected. A destination starting with BaseDir ("{baseDir}/x.md")
// resolves against the package root.
func Links(body []byte, startLine int, dir string) []Link {
	if startLine < 1 {
		startLine = 1
	}
	doc := markdown.Parse(text.NewReader(body))
	lines := lineStarts(body)
	var out []Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		image := false
		switch l := n.(type) {
		case *ast.Link:
			dest = l.Destination
		case *ast.Image:
			dest, image = l.Destination, true
		default:
			return ast.WalkContinue, nil
		}
		kind, target, sibling := classify(string(dest), dir)
		out = append(out, Link{
			Pos:         position(body, lines, nodeOffset(n), startLine),
			Destination: string(dest),
			Image:       image,
			Kind:        kind,
			Target:      target,
			Sibling:     sibling,
		})
		return ast.WalkContinue, nil
	})
	return out
}

// classify sorts a destination into a LinkKind and, for relative links,
// resolves its package-relative target; for an escaping link into a
// folder beside the package it returns that folder's name.
func classify(dest, dir string) (kind LinkKind, target, sibling string) {
	d := strings.TrimSpace(dest)
	if d == "" || d[0] == '#' {
		return LinkFragment, "", ""
	}
	if strings.HasPrefix(d, "//") || strings.HasPrefix(d, `\\`) {
		return LinkExternal, "", ""
	}
	if scheme, ok := urlScheme(d); ok {
		switch {
		case len(scheme) == 1: // a Windows drive letter, "C:/x"
			return LinkAbsolute, "", ""
		case strings.EqualFold(scheme, "file"):
			return LinkAbsolute, "", ""
		}
		return LinkExternal, "", ""
	}
	if i := strings.IndexAny(d, "#?"); i >= 0 {
		d = d[:i]
	}
	if u, err := url.PathUnescape(d); err == nil {
		d = u
	}
	if d == "" { // "?query" alone points at the document itself
		return LinkFragment, "", ""
	}
	if d == BaseDir || strings.HasPrefix(d, BaseDir+"/") {
		d, dir = "."+strings.TrimPrefix(d, BaseDir), "."
	}
	if d[0] == '/' || d[0] == '\\' {
		return LinkAbsolute, "", ""
	}
	if dir == "" {
		dir = "."
	}
	target = path.Join(dir, d)
	if target == ".." || strings.HasPrefix(target, "../") {
		if rest, ok := strings.CutPrefix(target, "../"); ok && rest != ".." && !strings.HasPrefix(rest, "../") {
			sibling, _, _ = strings.Cut(rest, "/")
		}
		return LinkEscaping, "", sibling
	}
	return LinkRelative, target, ""
}

// urlScheme returns the scheme of an absolute URL such as "https://x" or
// "mailto:a@b": letters, digits, "+", "-", "." after a leading letter, then
// ":".
func urlScheme(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIILetter(c):
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return s[:i], true
		default:
			return "", false
		}
	}
	return "", false
}

// nodeOffset returns the byte offset of an inline node in the source, or
// the start of its enclosing block when goldmark recorded none.
func nodeOffset(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for b := n.Parent(); b != nil; b = b.Parent() {
		if b.Type() == ast.TypeBlock && b.Lines().Len() > 0 {
			return b.Lines().At(0).Start
		}
	}
	return 0
}

// lineStarts returns the byte offset at which every line of src begins.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position maps a byte offset of body to a file position: the line counted
// from startLine and the column in characters, both 1-based.
func position(body []byte, lines []int, off, startLine int) format.Pos {
	off = min(max(off, 0), len(body))
	i := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	return format.Pos{Line: startLine + i, Col: utf8.RuneCount(body[lines[i]:off]) + 1}
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
