package format

import (
	"bytes"
	"fmt"
)

// FrontMatter is a Markdown file split into its YAML front matter and its
// body. All byte slices alias the input.
type FrontMatter struct {
	// Present reports whether the file starts with a front-matter block.
	// A file without one is not an error: Present is false and Body is the
	// whole file (without a byte-order mark).
	Present bool
	// Data is the YAML between the two `---` lines, without them; empty
	// for an empty block (`---` directly followed by `---`).
	Data []byte
	// Line is the 1-based file line on which Data starts (2 when the file
	// starts with the opening `---`); 0 when Present is false. A line n
	// inside Data is line Line+n-1 of the file.
	Line int
	// Body is everything after the closing `---` line.
	Body []byte
	// BodyLine is the 1-based file line on which Body starts.
	BodyLine int
}

// FrontMatterError reports a front-matter block that cannot be split.
type FrontMatterError struct {
	// Line is the 1-based file line the problem is on.
	Line int
	// Message states the problem.
	Message string
}

// Error renders the problem with its line.
func (e *FrontMatterError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Message) }

// SplitFrontMatter splits a Markdown file into YAML front matter and body.
//
// The file has front matter when its first line (after an optional UTF-8
// byte-order mark) is `---`, optionally followed by spaces or tabs. The
// block is closed by the next line that starts at column 1 with `---` and
// holds nothing else but trailing whitespace; an indented `---`, such as one
// inside a block scalar, is content. LF and CRLF line ends are both
// accepted. A block that is never closed is a *FrontMatterError naming the
// opening line — it is not treated as "no front matter".
func SplitFrontMatter(data []byte) (FrontMatter, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, hasNL := bytes.Cut(data, []byte("\n"))
	if !isDelimiter(first) {
		return FrontMatter{Body: data, BodyLine: 1}, nil
	}
	if !hasNL {
		return FrontMatter{}, &FrontMatterError{Line: 1, Message: "the front matter opened on line 1 is never closed"}
	}
	start := len(data) - len(rest)
	off, line := start, 2
	for off <= len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		lineEnd, next := len(data), len(data)+1
		if end >= 0 {
			lineEnd, next = off+end, off+end+1
		}
		if isDelimiter(data[off:lineEnd]) {
			fm := FrontMatter{Present: true, Data: data[start:off], Line: 2, BodyLine: line + 1}
			if next <= len(data) {
				fm.Body = data[next:]
			} else {
				fm.Body = data[len(data):]
			}
			return fm, nil
		}
		off, line = next, line+1
	}
	return FrontMatter{}, &FrontMatterError{Line: 1, Message: "the front matter opened on line 1 is never closed"}
}

// isDelimiter reports whether a line (without its "\n") is `---` at column
// 1 followed only by spaces, tabs or a carriage return.
func isDelimiter(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	return ok && len(bytes.TrimRight(rest, " \t\r")) == 0
}
