package registry

import (
	"strings"
	"unicode/utf8"
)

// The fast path of the YAML index decoder. decodeIndexYAML builds a
// yaml.Node tree of the whole document, which for a 10,000-skill index is
// about a million nodes and most of the decode time. fastIndexYAML reads
// the index directly into the Index structs instead, but only when the
// document is in a subset of YAML it recognises completely: the one
// EncodeYAML writes and what hand-written indexes commonly add to it —
//
//   - block mappings and block sequences (indented or not), a "- " item
//     opening a mapping on its own line;
//   - plain scalars on one line, single- and double-quoted scalars
//     (folded over lines as YAML folds them, every escape), literal block
//     scalars as mapping values;
//   - flow sequences of scalars and flow mappings of scalars on one line
//     (keywords: [a, b], versions as {version: 1.0.0, path: a});
//   - comment lines, end-of-line comments, blank lines, a leading "---";
//   - unknown keys with any of the above as values, which are skipped.
//
// Anything else — tabs, carriage returns, a byte-order mark, control or
// non-printable characters, anchors, aliases, tags, complex keys, folded
// block scalars, multi-line plain scalars and flow collections,
// directives, a second document — and every problem the full decoder
// would report (a duplicate key, a wrong type, a null where a string
// belongs, a limit exceeded) makes it decline: it returns false and the
// caller runs decodeIndexYAML, which then reports every problem with its
// line and column exactly as before. So the fast path changes how fast an
// index decodes, never what it decodes to nor which errors it reports;
// FuzzFastIndexYAML holds it to that against decodeIndexYAML.
//
// Strings are substrings of the document (escaped or folded quoted and
// block scalars excepted), and skills and versions come from slabs, so a
// decode allocates little more than the document itself.

// fastIndexYAML decodes data when it is in the recognised subset, with
// the same result decodeIndexYAML gives; ok is false otherwise.
func fastIndexYAML(src string, lim IndexLimits) (idx *Index, ok bool) {
	if !fastBytes(src) {
		return nil, false
	}
	p := &fastParser{src: src, lim: lim}
	return p.document()
}

// fastBytes reports whether data holds only line feeds, printable ASCII
// and valid UTF-8 of printable code points that YAML treats as plain
// text: no tab, carriage return, control character, byte-order mark or
// Unicode line break (NEL, LS, PS), which the fast path leaves to the
// full decoder.
func fastBytes(data string) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c != '\n' && (c < 0x20 || c > 0x7e) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(data[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return false
		case r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
			return false
		}
		i += n
	}
	return true
}

// fastParser walks the document line by line. The current line is
// src[bol:eol], numbered line (1-based), indented by ind spaces; ind is
// -1 at the end of the document. pos is where reading continues on it.
type fastParser struct {
	src            string
	lim            IndexLimits
	bol, eol, line int
	ind, pos       int
	nVersions      int
	skillSlab      []Skill
	versionSlab    []Version
	versionPtrs    []*Version
	keywordSlab    []string
	keywordScratch []string
}

// seek makes the first line at or after bol that holds more than blanks
// and a comment the current line.
func (p *fastParser) seek(bol int) {
	for bol < len(p.src) {
		eol := strings.IndexByte(p.src[bol:], '\n')
		if eol < 0 {
			eol = len(p.src)
		} else {
			eol += bol
		}
		p.line++
		i := bol
		for i < eol && p.src[i] == ' ' {
			i++
		}
		if i < eol && p.src[i] != '#' {
			p.bol, p.eol, p.ind, p.pos = bol, eol, i-bol, i
			return
		}
		bol = eol + 1
	}
	p.bol, p.eol, p.ind, p.pos = len(p.src), len(p.src), -1, len(p.src)
}

// next moves to the next line with content.
func (p *fastParser) next() { p.seek(p.eol + 1) }

// col is the 0-based column of pos on the current line, in characters.
func (p *fastParser) col() int {
	pre := p.src[p.bol:p.pos]
	for i := 0; i < len(pre); i++ {
		if pre[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(pre)
		}
	}
	return len(pre)
}

// here is the position of pos as the full decoder reports it.
func (p *fastParser) here() pos { return pos{int32(p.line), int32(p.col() + 1)} }

// document reads the root mapping.
func (p *fastParser) document() (*Index, bool) {
	p.seek(0)
	if p.ind == 0 && p.src[p.pos:p.eol] == "---" {
		p.next()
	}
	if p.ind != 0 {
		return nil, false
	}
	idx := &Index{SchemaVersion: 1}
	ok := p.mapping(0, func(key string) bool {
		switch key {
		case "schemaVersion":
			s, plain, ok := p.scalarValue(0)
			if !ok || !plain || !smallDecimal(s) {
				return false
			}
			n := 0
			for i := 0; i < len(s); i++ {
				n = n*10 + int(s[i]-'0')
			}
			idx.SchemaVersion = n
			return true
		case "name":
			return p.strValue(0, &idx.Name)
		case "updatedAt":
			return p.strValue(0, &idx.UpdatedAt)
		case "skills":
			var ok bool
			idx.Skills, ok = p.skills(0)
			return ok
		}
		return p.skipValue(0)
	})
	if !ok || p.ind != -1 {
		return nil, false
	}
	return idx, true
}

// smallDecimal reports whether s is a decimal integer YAML resolves as
// !!int and strconv.Atoi reads the same way: no sign, no leading zero,
// at most nine digits.
func smallDecimal(s string) bool {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// mapping reads a block mapping whose keys are at column col, the first
// at pos, calling entry for each key with pos just after its colon. entry
// reads the value and leaves the parser on the line after it. It declines
// a duplicate key, as the full decoder reports one.
func (p *fastParser) mapping(col int, entry func(key string) bool) bool {
	var scratch [8]string
	unknown := scratch[:0]
	var seen uint32
	for {
		key, ok := p.key()
		if !ok {
			return false
		}
		// A key is checked against every key seen so far, known or not.
		dup := false
		if i := keyIndex(key); i >= 0 {
			dup = seen&(1<<i) != 0
			seen |= 1 << i
		} else {
			for _, k := range unknown {
				dup = dup || k == key
			}
			unknown = append(unknown, key)
		}
		if dup || !entry(key) {
			return false
		}
		switch {
		case p.ind < col:
			return true
		case p.ind > col:
			return false
		}
	}
}

// keyIndex numbers the keys any index mapping knows, or returns -1.
func keyIndex(key string) int {
	switch key {
	case "schemaVersion":
		return 0
	case "name":
		return 1
	case "updatedAt":
		return 2
	case "skills":
		return 3
	case "description":
		return 4
	case "latest":
		return 5
	case "keywords":
		return 6
	case "versions":
		return 7
	case "version":
		return 8
	case "path":
		return 9
	case "tarball":
		return 10
	case "integrity":
		return 11
	case "publishedAt":
		return 12
	case "deprecationReason":
		return 13
	case "deprecated":
		return 14
	case "signatures":
		return 15
	case "manifest":
		return 16
	}
	return -1
}

// maxFastKey bounds a key's length, well below the 1024 characters YAML
// allows a simple key.
const maxFastKey = 128

// keyEnd returns the end of a key ([A-Za-z_][A-Za-z0-9_-]*) starting at
// i, or -1.
func (p *fastParser) keyEnd(i, end int) int {
	if i >= end || !(isAlpha(p.src[i]) || p.src[i] == '_') {
		return -1
	}
	j := i + 1
	for j < end && (isAlpha(p.src[j]) || isDigit(p.src[j]) || p.src[j] == '_' || p.src[j] == '-') {
		j++
	}
	if j-i > maxFastKey {
		return -1
	}
	return j
}

// key reads "key:" at pos, the colon followed by a space or the end of
// the line, and leaves pos after the colon.
func (p *fastParser) key() (string, bool) {
	j := p.keyEnd(p.pos, p.eol)
	if j < 0 || j >= p.eol || p.src[j] != ':' || (j+1 < p.eol && p.src[j+1] != ' ') {
		return "", false
	}
	k := p.src[p.pos:j]
	p.pos = j + 1
	return k, true
}

// isKeyAt reports whether a block mapping key starts at pos.
func (p *fastParser) isKeyAt() bool {
	j := p.keyEnd(p.pos, p.eol)
	return j >= 0 && j < p.eol && p.src[j] == ':' && (j+1 == p.eol || p.src[j+1] == ' ')
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// inline skips the blanks after a colon or a dash and reports whether a
// value follows on the same line (not a comment).
func (p *fastParser) inline() bool {
	i := p.pos
	for i < p.eol && p.src[i] == ' ' {
		i++
	}
	if i == p.eol || (p.src[i] == '#' && i > p.pos) {
		p.pos = i
		return false
	}
	p.pos = i
	return true
}

// endLine checks that only blanks and a comment follow pos, moves to the
// next line and checks that it does not continue the value of a node at
// column col (a more indented line would).
func (p *fastParser) endLine(col int) bool {
	i := p.pos
	for i < p.eol && p.src[i] == ' ' {
		i++
	}
	if i < p.eol && (p.src[i] != '#' || i == p.pos) {
		return false
	}
	p.next()
	return p.ind <= col
}

// isIndicator reports whether c may not start a plain scalar: YAML's
// indicators ("-", "?" and ":" may start one in block context before a
// non-blank, which blockScalar allows).
func isIndicator(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}

// isNull reports whether a plain scalar resolves to null.
func isNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// scalarValue reads the value after "key:" of a mapping at column col as
// a scalar on this line, or a literal block scalar, and moves past it.
func (p *fastParser) scalarValue(col int) (s string, plain, ok bool) {
	if !p.inline() {
		return "", false, false
	}
	if p.src[p.pos] == '|' {
		s, ok = p.literal(col)
		return s, false, ok
	}
	s, plain, ok = p.blockScalar()
	if !ok || !p.endLine(col) {
		return "", false, false
	}
	return s, plain, true
}

// strValue reads a string value into *dst: a scalar that does not
// resolve to null, within the string limit.
func (p *fastParser) strValue(col int, dst *string) bool {
	s, plain, ok := p.scalarValue(col)
	if !ok || (plain && isNull(s)) || len(s) > p.lim.MaxStringBytes {
		return false
	}
	*dst = s
	return true
}

// blockScalar reads a plain or quoted scalar at pos in block context.
func (p *fastParser) blockScalar() (s string, plain, ok bool) {
	switch c := p.src[p.pos]; {
	case c == '\'' || c == '"':
		s, ok = p.quoted(false)
		return s, false, ok
	case (c == '-' || c == '?' || c == ':') && p.pos+1 < p.eol && p.src[p.pos+1] != ' ':
		// A plain scalar such as "-x" (YAML reads an indicator followed
		// by a blank as the indicator).
	case isIndicator(c):
		return "", false, false
	}
	start, i, end := p.pos, p.pos, p.pos
	for i < p.eol {
		switch p.src[i] {
		case ':':
			if i+1 == p.eol || p.src[i+1] == ' ' {
				return "", false, false // "a: b" would be a mapping
			}
		case '#':
			if p.src[i-1] == ' ' {
				p.pos = end
				return p.src[start:end], true, true
			}
		case ' ':
			i++
			continue
		}
		i++
		end = i
	}
	p.pos = end
	return p.src[start:end], true, true
}

// flowScalar reads a plain or quoted scalar at pos inside a flow
// collection; a plain one ends before ",", "]" or "}".
func (p *fastParser) flowScalar() (s string, plain, ok bool) {
	switch c := p.src[p.pos]; {
	case c == '\'' || c == '"':
		s, ok = p.quoted(true)
		return s, false, ok
	case isIndicator(c):
		return "", false, false
	}
	start, i, end := p.pos, p.pos, p.pos
loop:
	for i < p.eol {
		switch p.src[i] {
		case ',', ']', '}':
			break loop
		case ':', '?', '[', '{':
			return "", false, false
		case '#':
			if p.src[i-1] == ' ' {
				return "", false, false // a comment inside a flow collection
			}
		case ' ':
			i++
			continue
		}
		i++
		end = i
	}
	p.pos = end
	return p.src[start:end], true, true
}

// quoted reads a single- or double-quoted scalar at pos. In block
// context (flow false) it may span lines, folded as YAML folds them: a
// line break between text becomes a space, each blank line a line feed,
// blanks around a break are dropped, and an escaped break ("\\" at the
// end of a line) joins the lines. A line that starts with a document
// marker ends nothing: it is an error, left to the full decoder. The
// common case — one line, no escape — is a substring of the document.
func (p *fastParser) quoted(flow bool) (string, bool) {
	q := p.src[p.pos]
	single := q == '\''
	start := p.pos + 1
	if j := strings.IndexByte(p.src[start:p.eol], q); j >= 0 {
		j += start
		if (single && (j+1 >= p.eol || p.src[j+1] != '\'')) ||
			(!single && strings.IndexByte(p.src[start:j], '\\') < 0) {
			p.pos = j + 1
			return p.src[start:j], true
		}
	}
	line := p.line
	s, ok := p.quotedSlow(single)
	if !ok || (flow && p.line != line) {
		return "", false
	}
	return s, true
}

// quotedSlow is quoted for a scalar with escapes or line breaks; it
// follows yaml_parser_scan_flow_scalar step by step.
func (p *fastParser) quotedSlow(single bool) (string, bool) {
	q := byte('"')
	if single {
		q = '\''
	}
	i := p.pos + 1
	b := make([]byte, 0, 64)
	for {
		// A document marker at the start of a line, or the end of the
		// document, inside a quoted scalar is an error.
		if i == p.bol && isDocMarker(p.src[p.bol:p.eol]) || i >= len(p.src) {
			return "", false
		}
		leadingBlanks := false
		// The text up to a blank, the closing quote or an escaped break.
	run:
		for i < p.eol && p.src[i] != ' ' {
			c := p.src[i]
			switch {
			case single && c == '\'' && i+1 < p.eol && p.src[i+1] == '\'':
				b = append(b, '\'')
				i += 2
			case c == q:
				break run
			case !single && c == '\\' && i+1 == p.eol && p.eol < len(p.src):
				p.nextRaw()
				i = p.bol
				leadingBlanks = true
				break run
			case !single && c == '\\':
				var ok bool
				if b, i, ok = p.escape(b, i); !ok {
					return "", false
				}
			default:
				b = append(b, c)
				i++
			}
		}
		if i < p.eol && p.src[i] == q {
			p.pos = i + 1
			return string(b), true
		}
		// Blanks and line breaks, folded.
		spaces, leadingBreak, trailingBreaks := 0, false, 0
		for {
			if i < p.eol && p.src[i] == ' ' {
				if !leadingBlanks {
					spaces++
				}
				i++
				continue
			}
			if i == p.eol && p.eol < len(p.src) {
				if !leadingBlanks {
					spaces, leadingBreak, leadingBlanks = 0, true, true
				} else {
					trailingBreaks++
				}
				p.nextRaw()
				i = p.bol
				continue
			}
			break
		}
		switch {
		case leadingBlanks && leadingBreak && trailingBreaks == 0:
			b = append(b, ' ')
		case leadingBlanks:
			for range trailingBreaks {
				b = append(b, '\n')
			}
		default:
			for range spaces {
				b = append(b, ' ')
			}
		}
	}
}

// isDocMarker reports whether a line starts with "---" or "..." followed
// by a blank or its end.
func isDocMarker(line string) bool {
	return len(line) >= 3 && (line[:3] == "---" || line[:3] == "...") && (len(line) == 3 || line[3] == ' ')
}

// nextRaw makes the line after the current one current, blank or not.
func (p *fastParser) nextRaw() {
	p.bol = p.eol + 1
	p.line++
	if e := strings.IndexByte(p.src[p.bol:], '\n'); e >= 0 {
		p.eol = p.bol + e
	} else {
		p.eol = len(p.src)
	}
	p.pos = p.bol
}

// escape decodes the double-quote escape at i, which is on the current
// line, appending it to b.
func (p *fastParser) escape(b []byte, i int) ([]byte, int, bool) {
	if i+1 >= p.eol {
		return b, i, false
	}
	e := p.src[i+1]
	i += 2
	n := 0
	switch e {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\a')
	case 'b':
		b = append(b, '\b')
	case 't':
		b = append(b, '\t')
	case 'n':
		b = append(b, '\n')
	case 'v':
		b = append(b, '\v')
	case 'f':
		b = append(b, '\f')
	case 'r':
		b = append(b, '\r')
	case 'e':
		b = append(b, 0x1b)
	case ' ', '"', '\\', '\'':
		// Not "\/": YAML 1.2 has it, but yaml.v3 refuses it, and the fast
		// path must accept only what the full decoder does.
		b = append(b, e)
	case 'N':
		b = append(b, "\u0085"...)
	case '_':
		b = append(b, "\u00a0"...)
	case 'L':
		b = append(b, "\u2028"...)
	case 'P':
		b = append(b, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		return b, i, false
	}
	if n == 0 {
		return b, i, true
	}
	if i+n > p.eol {
		return b, i, false
	}
	v := 0
	for _, h := range []byte(p.src[i : i+n]) {
		switch {
		case isDigit(h):
			v = v<<4 | int(h-'0')
		case h|0x20 >= 'a' && h|0x20 <= 'f':
			v = v<<4 | int(h|0x20-'a'+10)
		default:
			return b, i, false
		}
	}
	if (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff {
		return b, i, false
	}
	if v < 0x80 {
		b = append(b, byte(v))
	} else {
		b = utf8.AppendRune(b, rune(v))
	}
	return b, i + n, true
}

// literal reads a literal block scalar ("|" with optional chomping and
// indentation indicators) that is the value of a key of the mapping at
// column col, pos at the "|". It follows yaml_parser_scan_block_scalar:
// the indentation is the indicator's, or that of the first non-blank
// line; blank lines are line breaks; chomping strips, clips or keeps the
// final ones. It declines a comment on the header line and a scalar with
// no content line where one is expected.
func (p *fastParser) literal(col int) (string, bool) {
	i := p.pos + 1
	chomp, inc := 0, 0
	for k := 0; k < 2 && i < p.eol; k++ {
		switch c := p.src[i]; {
		case (c == '-' || c == '+') && chomp == 0:
			chomp = 1
			if c == '-' {
				chomp = -1
			}
		case c >= '1' && c <= '9' && inc == 0:
			inc = int(c - '0')
		default:
			k = 2
			continue
		}
		i++
	}
	for i < p.eol && p.src[i] == ' ' {
		i++
	}
	if i != p.eol || p.eol == len(p.src) {
		return "", false
	}
	indent := 0
	if inc > 0 {
		indent = col + inc
	}
	src := p.src
	pos, bol, line := p.eol+1, p.eol+1, p.line+1 // the line after the header
	breaks, maxIndent := 0, 0
	// scanBreaks skips indentation and blank lines, counting their
	// breaks, and stops at the first other character (or the end).
	scanBreaks := func() {
		for {
			for pos < len(src) && src[pos] == ' ' && (indent == 0 || pos-bol < indent) {
				pos++
			}
			maxIndent = max(maxIndent, pos-bol)
			if pos == len(src) || src[pos] != '\n' {
				return
			}
			breaks++
			pos++
			bol, line = pos, line+1
		}
	}
	scanBreaks()
	if indent == 0 {
		indent = max(maxIndent, col+1, 1)
	}
	if pos == len(src) || pos-bol != indent {
		return "", false // no content: left to the full decoder
	}
	var b strings.Builder
	leadingBreak := false
	for pos < len(src) && pos-bol == indent {
		if leadingBreak {
			b.WriteByte('\n')
		}
		for range breaks {
			b.WriteByte('\n')
		}
		breaks = 0
		eol := strings.IndexByte(src[pos:], '\n')
		if eol < 0 {
			b.WriteString(src[pos:])
			pos, bol, leadingBreak = len(src), len(src), false
			break
		}
		b.WriteString(src[pos : pos+eol])
		pos += eol + 1
		bol, line, leadingBreak = pos, line+1, true
		scanBreaks()
	}
	if chomp != -1 && leadingBreak {
		b.WriteByte('\n')
	}
	if chomp == 1 {
		for range breaks {
			b.WriteByte('\n')
		}
	}
	if b.Len() > p.lim.MaxStringBytes {
		return "", false
	}
	// Go on with the line the scalar stopped in.
	p.line = line - 1
	p.seek(bol)
	if p.ind > col {
		return "", false
	}
	return b.String(), true
}

// blockNode finds the node that is the value of a key of the mapping at
// column col when nothing follows the colon on its line. It returns
// 'n' (no value: null), '-' (a block sequence at column c) or 'm' (a
// block mapping at column c).
func (p *fastParser) blockNode(col int) (kind byte, c int) {
	p.next()
	switch {
	case p.ind < col:
		return 'n', 0
	case p.isDash():
		return '-', p.ind
	case p.ind == col:
		return 'n', 0
	}
	return 'm', p.ind
}

// isDash reports whether pos is at a block sequence entry: "-" followed
// by a blank or the end of the line.
func (p *fastParser) isDash() bool {
	return p.pos < p.eol && p.src[p.pos] == '-' && (p.pos+1 == p.eol || p.src[p.pos+1] == ' ')
}

// blockSeq reads the block sequence at column c, held by a key of the
// mapping at column col, calling item with pos at each entry's content.
// An entry that is empty on its dash's line is declined.
func (p *fastParser) blockSeq(col, c int, item func() bool) bool {
	for {
		if p.ind != c || !p.isDash() {
			return false
		}
		p.pos++
		if !p.inline() || !item() {
			return false
		}
		switch {
		case p.ind < c:
			return true
		case p.ind > c:
			return false
		case c == col && !p.isDash():
			return true // the end of a sequence as indented as its key
		}
	}
}

// flowSeq reads a flow sequence on this line, pos at its "[", calling
// item with pos at each entry; then checks the end of the line for a
// value of the mapping at column col.
func (p *fastParser) flowSeq(col int, item func() bool) bool {
	p.pos++
	p.blanks()
	if p.pos < p.eol && p.src[p.pos] == ']' {
		p.pos++
		return p.endLine(col)
	}
	for {
		if p.pos == p.eol || !item() {
			return false
		}
		p.blanks()
		if p.pos == p.eol {
			return false
		}
		switch p.src[p.pos] {
		case ']':
			p.pos++
			return p.endLine(col)
		case ',':
			p.pos++
			p.blanks()
			if p.pos == p.eol || p.src[p.pos] == ']' || p.src[p.pos] == ',' {
				return false // a trailing or empty entry
			}
		default:
			return false
		}
	}
}

// blanks skips spaces on the current line.
func (p *fastParser) blanks() {
	for p.pos < p.eol && p.src[p.pos] == ' ' {
		p.pos++
	}
}

// flowMap reads a flow mapping of scalars on this line, pos at its "{",
// calling entry with each key and value. It does not check the end of
// the line.
func (p *fastParser) flowMap(entry func(key, val string, plain bool) bool) bool {
	p.pos++
	p.blanks()
	if p.pos < p.eol && p.src[p.pos] == '}' {
		p.pos++
		return true
	}
	var scratch [8]string
	unknown := scratch[:0]
	var seen uint32
	for {
		j := p.keyEnd(p.pos, p.eol)
		if j < 0 || j+1 >= p.eol || p.src[j] != ':' || p.src[j+1] != ' ' {
			return false
		}
		key := p.src[p.pos:j]
		dup := false
		if i := keyIndex(key); i >= 0 {
			dup = seen&(1<<i) != 0
			seen |= 1 << i
		} else {
			for _, k := range unknown {
				dup = dup || k == key
			}
			unknown = append(unknown, key)
		}
		if dup {
			return false
		}
		p.pos = j + 1
		p.blanks()
		if p.pos == p.eol {
			return false
		}
		val, plain, ok := p.flowScalar()
		if !ok || !entry(key, val, plain) {
			return false
		}
		p.blanks()
		if p.pos == p.eol {
			return false
		}
		switch p.src[p.pos] {
		case '}':
			p.pos++
			return true
		case ',':
			p.pos++
			p.blanks()
			if p.pos == p.eol || p.src[p.pos] == '}' || p.src[p.pos] == ',' {
				return false
			}
		default:
			return false
		}
	}
}

// skills reads the skills sequence, the value of a key of the root
// mapping.
func (p *fastParser) skills(col int) ([]*Skill, bool) {
	out := []*Skill{}
	if p.inline() {
		if p.src[p.pos] != '[' {
			return nil, false
		}
		return out, p.flowSeq(col, func() bool { return false })
	}
	if kind, c := p.blockNode(col); kind != '-' || !p.blockSeq(col, c, func() bool {
		if len(out) == p.lim.MaxSkills || !p.isKeyAt() {
			return false
		}
		s, ok := p.skill()
		out = append(out, s)
		return ok
	}) {
		return nil, false
	}
	return out, true
}

// newSkill returns a zero Skill from the slab.
func (p *fastParser) newSkill() *Skill {
	if len(p.skillSlab) == 0 {
		p.skillSlab = make([]Skill, 256)
	}
	s := &p.skillSlab[0]
	p.skillSlab = p.skillSlab[1:]
	return s
}

// newVersion returns a zero Version from the slab.
func (p *fastParser) newVersion() *Version {
	if len(p.versionSlab) == 0 {
		p.versionSlab = make([]Version, 512)
	}
	v := &p.versionSlab[0]
	p.versionSlab = p.versionSlab[1:]
	return v
}

// skill reads one skill: a block mapping at pos.
func (p *fastParser) skill() (*Skill, bool) {
	col := p.col()
	s := p.newSkill()
	s.pos = pos{int32(p.line), int32(col + 1)}
	ok := p.mapping(col, func(key string) bool {
		switch key {
		case "name":
			return p.strValue(col, &s.Name)
		case "description":
			return p.strValue(col, &s.Description)
		case "latest":
			return p.strValue(col, &s.Latest)
		case "keywords":
			var ok bool
			s.Keywords, ok = p.keywords(col)
			return ok
		case "versions":
			var ok bool
			s.Versions, ok = p.versions(col)
			return ok
		}
		return p.skipValue(col)
	})
	return s, ok
}

// keywords reads a list of strings, flow or block.
func (p *fastParser) keywords(col int) ([]string, bool) {
	out := p.keywordScratch[:0]
	add := func(s string, plain bool) bool {
		if (plain && isNull(s)) || len(s) > p.lim.MaxStringBytes || len(out) == p.lim.MaxKeywords {
			return false
		}
		out = append(out, s)
		return true
	}
	var ok bool
	if p.inline() {
		if p.src[p.pos] != '[' {
			return nil, false
		}
		ok = p.flowSeq(col, func() bool {
			s, plain, ok := p.flowScalar()
			return ok && add(s, plain)
		})
	} else if kind, c := p.blockNode(col); kind == '-' {
		ok = p.blockSeq(col, c, func() bool {
			s, plain, ok := p.blockScalar()
			return ok && add(s, plain) && p.endLine(c)
		})
	}
	p.keywordScratch = out[:0]
	if !ok {
		return nil, false
	}
	if len(out) == 0 {
		return []string{}, true
	}
	// Keep the keywords in one shared backing array.
	if cap(p.keywordSlab)-len(p.keywordSlab) < len(out) {
		p.keywordSlab = make([]string, 0, max(1024, len(out)))
	}
	n := len(p.keywordSlab)
	p.keywordSlab = append(p.keywordSlab, out...)
	return p.keywordSlab[n : n+len(out) : n+len(out)], true
}

// versions reads a skill's versions: a block sequence of mappings (block
// or flow), or an empty flow sequence.
func (p *fastParser) versions(col int) ([]*Version, bool) {
	if cap(p.versionPtrs) < 64 {
		p.versionPtrs = make([]*Version, 0, 4096)
	}
	out := p.versionPtrs[:0]
	if p.inline() {
		if p.src[p.pos] != '[' || !p.flowSeq(col, func() bool { return false }) {
			return nil, false
		}
	} else if kind, c := p.blockNode(col); kind != '-' || !p.blockSeq(col, c, func() bool {
		if len(out) == p.lim.MaxVersionsPerSkill || p.nVersions == p.lim.MaxVersions {
			return false
		}
		p.nVersions++
		v := p.newVersion()
		out = append(out, v)
		if p.src[p.pos] == '{' {
			v.pos = p.here()
			return p.flowMap(func(key, val string, plain bool) bool { return p.setVersion(v, key, val, plain) }) && p.endLine(c)
		}
		if !p.isKeyAt() {
			return false
		}
		return p.version(v)
	}) {
		return nil, false
	}
	p.versionPtrs = out[len(out):]
	return out[:len(out):len(out)], true
}

// version reads one version: a block mapping at pos.
func (p *fastParser) version(v *Version) bool {
	col := p.col()
	v.pos = pos{int32(p.line), int32(col + 1)}
	return p.mapping(col, func(key string) bool {
		switch key {
		case "version", "path", "tarball", "manifest", "integrity", "publishedAt", "deprecationReason", "deprecated":
			s, plain, ok := p.scalarValue(col)
			return ok && p.setVersion(v, key, s, plain)
		case "signatures":
			var ok bool
			v.Signatures, ok = p.keywords(col)
			return ok
		}
		return p.skipValue(col)
	})
}

// setVersion stores one scalar field of a version; other keys are
// ignored.
func (p *fastParser) setVersion(v *Version, key, s string, plain bool) bool {
	var dst *string
	switch key {
	case "version":
		dst = &v.Version
	case "path":
		dst = &v.Path
	case "tarball":
		dst = &v.Tarball
	case "manifest":
		dst = &v.Manifest
	case "integrity":
		dst = &v.Integrity
	case "publishedAt":
		dst = &v.PublishedAt
	case "deprecationReason":
		dst = &v.DeprecationReason
	case "signatures":
		return false // a list: the block form only, or the full decoder
	case "deprecated":
		if !plain {
			return false
		}
		switch s {
		case "true", "True", "TRUE":
			v.Deprecated = true
		case "false", "False", "FALSE":
			v.Deprecated = false
		default:
			return false
		}
		return true
	default:
		return true
	}
	if (plain && isNull(s)) || len(s) > p.lim.MaxStringBytes {
		return false
	}
	*dst = s
	return true
}

// maxFastDepth bounds the nesting of skipped values.
const maxFastDepth = 32

// skipValue reads and discards the value of an unknown key of the
// mapping at column col.
func (p *fastParser) skipValue(col int) bool { return p.skip(col, 0) }

func (p *fastParser) skip(col, depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	if p.inline() {
		switch p.src[p.pos] {
		case '[', '{':
			return p.skipFlow(depth) && p.endLine(col)
		}
		_, _, ok := p.scalarValue(col)
		return ok
	}
	switch kind, c := p.blockNode(col); kind {
	case 'n':
		return true
	case 'm':
		return p.mapping(c, func(string) bool { return p.skip(c, depth+1) })
	default:
		return p.blockSeq(col, c, func() bool {
			switch {
			case p.src[p.pos] == '[' || p.src[p.pos] == '{':
				return p.skipFlow(depth) && p.endLine(c)
			case p.isKeyAt():
				mc := p.col()
				return p.mapping(mc, func(string) bool { return p.skip(mc, depth+1) })
			}
			_, _, ok := p.blockScalar()
			return ok && p.endLine(c)
		})
	}
}

// skipFlow reads and discards a flow collection on this line.
func (p *fastParser) skipFlow(depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	if p.src[p.pos] == '{' {
		// Values of a skipped flow mapping are scalars only.
		return p.flowMap(func(string, string, bool) bool { return true })
	}
	p.pos++
	p.blanks()
	if p.pos < p.eol && p.src[p.pos] == ']' {
		p.pos++
		return true
	}
	for {
		if p.pos == p.eol {
			return false
		}
		var ok bool
		if c := p.src[p.pos]; c == '[' || c == '{' {
			ok = p.skipFlow(depth + 1)
		} else {
			_, _, ok = p.flowScalar()
		}
		if !ok {
			return false
		}
		p.blanks()
		if p.pos == p.eol {
			return false
		}
		switch p.src[p.pos] {
		case ']':
			p.pos++
			return true
		case ',':
			p.pos++
			p.blanks()
			if p.pos == p.eol || p.src[p.pos] == ']' || p.src[p.pos] == ',' {
				return false
			}
		default:
			return false
		}
	}
}
