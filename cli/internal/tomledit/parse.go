package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// MaxSize is the largest document Parse accepts, in bytes. Codex's
// config.toml is a few kilobytes (a trusted project adds about 60 bytes).
// The bound also bounds time: go-toml's decoder checks each key against
// its siblings one by one, which takes about a second for 20,000 keys in
// one table.
const MaxSize = 128 << 10

// ParseError reports a document that is not valid TOML, or is too large.
type ParseError struct {
	// Line and Column locate the problem, both counted from 1; zero when
	// the problem has no position (a document that is too large).
	Line, Column int
	// Message states the problem.
	Message string
}

// Error returns the position and the message.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Message
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// EditError reports an edit that cannot be made by replacing spans, or a
// result that failed the check against the original document.
type EditError struct {
	// Path is the table the edit was for.
	Path []string
	// Message states why the edit was refused.
	Message string

	// bug marks a result that failed the check: a fault of this package,
	// not of the document (the fuzz targets fail on it).
	bug bool
}

// Error names the table and the reason.
func (e *EditError) Error() string {
	return fmt.Sprintf("cannot edit table [%s]: %s", headerKey(e.Path), e.Message)
}

// Span is a range of bytes of the document, Start inclusive, End exclusive.
type Span struct {
	Start, End int
}

// Table is one [table] or [[array of tables]] header of a document.
type Table struct {
	// Path is the decoded key path of the header: [hooks.state."/a:b"]
	// is {"hooks", "state", "/a:b"}.
	Path []string
	// Array is true for an [[array of tables]] header.
	Array bool
	// Line is the header's line, counted from 1.
	Line int
	// Header is the header's line, from its first byte to after its
	// newline (or the end of the document).
	Header Span
	// Block is the table's block: the header with the comment lines
	// directly above it and at most one blank line above those, up to
	// the start of the next block (see the package documentation).
	Block Span
	// ContentEnd is the end of the block's last line that is not blank:
	// what remains of Block after it is the blank lines before the next
	// block.
	ContentEnd int
}

// keyDef is one key/value expression: the table it is in, its key path
// and whether its value is an inline table.
type keyDef struct {
	table  []string
	key    []string
	inline bool
	line   int
}

// Document is a parsed TOML document. It is not changed by edits: Set and
// Delete return new bytes, which Parse reads again for the next edit.
type Document struct {
	src    []byte
	tables []Table
	keys   []keyDef
	root   map[string]any
	eol    string

	lineAt, lineNo int // the last offset lineOf counted to, and its line
}

// Parse reads a TOML document. An invalid document is a *ParseError with
// the line and column of the first problem.
func Parse(src []byte) (*Document, error) {
	return parse(src, MaxSize)
}

// parse is Parse with a size limit; the check of an edit's result uses
// none, since the input was within MaxSize and the edit is small.
func parse(src []byte, limit int) (*Document, error) {
	if limit > 0 && len(src) > limit {
		return nil, &ParseError{Message: fmt.Sprintf("the document is %d bytes, more than the %d this tool edits", len(src), MaxSize)}
	}
	root, err := decode(src)
	if err != nil {
		return nil, err
	}
	d := &Document{src: src, root: root, eol: "\n", lineNo: 1}
	if bytes.Contains(src, []byte("\r\n")) {
		d.eol = "\r\n"
	}
	if err := d.scan(); err != nil {
		return nil, err
	}
	return d, nil
}

// decode decodes src into maps, turning go-toml's errors into a
// *ParseError.
func decode(src []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := toml.Unmarshal(src, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &ParseError{Line: line, Column: col, Message: de.Error()}
		}
		return nil, &ParseError{Message: err.Error()}
	}
	return m, nil
}

// item is one top-level expression with the lines it occupies.
type item struct {
	start, end int // from the first byte of its first line to after its last newline
	comment    bool
	table      int // index into tables, or -1
}

// scan walks the expressions and records the tables, their blocks and the
// key definitions.
func (d *Document) scan() error {
	p := unstable.Parser{KeepComments: true}
	p.Reset(d.src)
	var items []item
	var current []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Comment:
			start := int(e.Raw.Offset)
			items = append(items, item{start: d.lineStart(start), end: d.lineEnd(start + int(e.Raw.Length)), comment: true, table: -1})
		case unstable.KeyValue:
			var key []string
			it := e.Key()
			for it.Next() {
				key = append(key, string(it.Node().Data))
			}
			start := int(e.Raw.Offset)
			d.keys = append(d.keys, keyDef{
				table:  current,
				key:    key,
				inline: e.Value().Kind == unstable.InlineTable,
				line:   d.lineOf(start),
			})
			items = append(items, item{start: d.lineStart(start), end: d.lineEnd(start + int(e.Raw.Length)), table: -1})
		case unstable.Table, unstable.ArrayTable:
			var path []string
			first := -1
			last := 0
			it := e.Key()
			for it.Next() {
				n := it.Node()
				if first < 0 {
					first = int(n.Raw.Offset)
				}
				last = int(n.Raw.Offset + n.Raw.Length)
				path = append(path, string(n.Data))
			}
			if first < 0 {
				return &ParseError{Message: "a table header without a key"}
			}
			current = path
			start := d.lineStart(first)
			t := Table{Path: path, Array: e.Kind == unstable.ArrayTable, Line: d.lineOf(first)}
			t.Header = Span{Start: start, End: d.lineEnd(last)}
			d.tables = append(d.tables, t)
			items = append(items, item{start: t.Header.Start, end: t.Header.End, table: len(d.tables) - 1})
		}
	}
	if err := p.Error(); err != nil {
		// The decoder accepted the document, so the parser should too.
		return &ParseError{Message: "the TOML parser failed where the decoder did not: " + err.Error()}
	}
	d.blocks(items)
	return nil
}

// blocks computes each table's Block and ContentEnd from the items.
func (d *Document) blocks(items []item) {
	starts := make([]int, len(d.tables))
	for i, it := range items {
		if it.table < 0 {
			continue
		}
		// Comment lines directly above the header.
		first := i
		for first > 0 && items[first-1].comment && items[first-1].end == items[first].start {
			first--
		}
		start := items[first].start
		// At most one blank line above those.
		gapStart := 0
		if first > 0 {
			gapStart = items[first-1].end
		}
		if gapStart < start {
			gap := d.src[gapStart:start]
			if j := bytes.LastIndexByte(gap[:len(gap)-1], '\n'); j >= 0 {
				start = gapStart + j + 1
			} else {
				start = gapStart
			}
		}
		starts[it.table] = start
	}
	for i := range d.tables {
		end := len(d.src)
		if i+1 < len(d.tables) {
			end = starts[i+1]
		}
		d.tables[i].Block = Span{Start: starts[i], End: end}
		d.tables[i].ContentEnd = d.contentEnd(d.tables[i].Header.Start, end)
	}
}

// contentEnd returns the end of the last line in src[from:to] that is not
// blank (only spaces, tabs and the line ending), and at least from.
func (d *Document) contentEnd(from, to int) int {
	end := to // the end of the line being looked at
	for i := to - 1; i >= from; i-- {
		switch d.src[i] {
		case '\n':
			end = i + 1
		case ' ', '\t', '\r':
		default:
			return end
		}
	}
	return from
}

// lineStart returns the offset of the first byte of the line holding off.
func (d *Document) lineStart(off int) int {
	return bytes.LastIndexByte(d.src[:off], '\n') + 1
}

// lineEnd returns the offset after the newline ending the line holding
// off, or the end of the document.
func (d *Document) lineEnd(off int) int {
	j := bytes.IndexByte(d.src[off:], '\n')
	if j < 0 {
		return len(d.src)
	}
	return off + j + 1
}

// lineOf returns the line number of off, counted from 1. Offsets are
// asked for in increasing order while scanning, so it counts on from the
// last answer.
func (d *Document) lineOf(off int) int {
	if off < d.lineAt {
		d.lineAt, d.lineNo = 0, 1
	}
	d.lineNo += bytes.Count(d.src[d.lineAt:off], []byte("\n"))
	d.lineAt = off
	return d.lineNo
}

// Bytes returns the document's bytes; the caller must not change them.
func (d *Document) Bytes() []byte { return d.src }

// Tables returns the table headers in document order. The slices are
// copies.
func (d *Document) Tables() []Table {
	out := make([]Table, len(d.tables))
	for i, t := range d.tables {
		t.Path = append([]string(nil), t.Path...)
		out[i] = t
	}
	return out
}

// Get returns the decoded value of the table at path, whether it was
// written as a header, with dotted keys or inline, and false when there is
// no table there. Values are go-toml's: string, int64, float64, bool,
// time types, []any and map[string]any.
func (d *Document) Get(path []string) (map[string]any, bool) {
	v, ok := lookup(d.root, path)
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// Has reports whether the document defines anything at path.
func (d *Document) Has(path []string) bool {
	_, ok := lookup(d.root, path)
	return ok
}

// lookup walks maps along path.
func lookup(root map[string]any, path []string) (any, bool) {
	var v any = root
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// headerKey renders a key path as it appears in a header.
func headerKey(path []string) string {
	parts := make([]string, len(path))
	for i, k := range path {
		parts[i] = renderKey(k)
	}
	return strings.Join(parts, ".")
}
