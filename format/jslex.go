package format

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsKind classifies a JavaScript token.
type jsKind int

const (
	jsEOF jsKind = iota
	jsPunct
	jsIdent
	jsString
	jsNumber
	jsTemplate
	jsRegexp
)

// jsTok is one JavaScript token.
type jsTok struct {
	kind jsKind
	// text is the punctuator, the identifier name or the number lexeme.
	text string
	// str is the decoded value of a string literal.
	str string
	pos Pos
	// sameLine reports that no line break separates the token from the
	// previous one.
	sameLine bool
}

// describe names a token for messages.
func (t jsTok) describe() string {
	switch t.kind {
	case jsEOF:
		return "the end of the file"
	case jsIdent:
		return fmt.Sprintf("the identifier %s", t.text)
	case jsString:
		return fmt.Sprintf("the string %q", t.str)
	case jsNumber:
		return fmt.Sprintf("the number %s", t.text)
	case jsTemplate:
		return "a template string"
	case jsRegexp:
		return "a regular expression"
	}
	return fmt.Sprintf("%q", t.text)
}

// jsError is a lexical or syntax problem at a position.
type jsError struct {
	pos Pos
	msg string
}

// Error renders the problem with its line and column.
func (e *jsError) Error() string { return fmt.Sprintf("%d:%d: %s", e.pos.Line, e.pos.Col, e.msg) }

// jsLexer tokenizes enough JavaScript to skip any module code correctly:
// comments, strings, template literals (with nested ${…} code) and regular
// expression literals, and to read a literal precisely.
type jsLexer struct {
	src       []byte
	off       int
	line      int
	lineStart int
	// prev is the previous significant token, used to tell a regular
	// expression from a division.
	prev jsTok
	// depth counts nested template interpolations, bounding recursion.
	depth int
	// colOff and col cache the column of one offset on the current line,
	// so that computing positions stays linear on very long lines.
	colOff, col int
}

func newJSLexer(src []byte) *jsLexer {
	l := &jsLexer{src: src, line: 1, col: 1, prev: jsTok{kind: jsPunct, text: ";"}}
	if strings.HasPrefix(string(src[:min(2, len(src))]), "#!") {
		// A hashbang line ("#!/usr/bin/env node") is a comment.
		for l.off < len(src) && src[l.off] != '\n' && src[l.off] != '\r' {
			l.off++
		}
	}
	return l
}

func (l *jsLexer) pos() Pos {
	if l.colOff < l.lineStart || l.colOff > l.off {
		l.colOff, l.col = l.lineStart, 1
	}
	l.col += utf8.RuneCount(l.src[l.colOff:l.off])
	l.colOff = l.off
	return Pos{Line: l.line, Col: l.col}
}

func (l *jsLexer) errorf(p Pos, format string, args ...any) *jsError {
	return &jsError{pos: p, msg: fmt.Sprintf(format, args...)}
}

func (l *jsLexer) peekByte(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

// newline consumes one line terminator at l.off, if any, and reports
// whether it did.
func (l *jsLexer) newline() bool {
	switch {
	case l.peekByte(0) == '\r' && l.peekByte(1) == '\n':
		l.off += 2
	case l.peekByte(0) == '\n', l.peekByte(0) == '\r':
		l.off++
	case strings.HasPrefix(string(l.src[l.off:min(l.off+3, len(l.src))]), "\u2028"),
		strings.HasPrefix(string(l.src[l.off:min(l.off+3, len(l.src))]), "\u2029"):
		l.off += 3
	default:
		return false
	}
	l.line++
	l.lineStart = l.off
	return true
}

// skipSpace skips white space and comments and reports whether it crossed
// a line break.
func (l *jsLexer) skipSpace() (bool, error) {
	crossed := false
	for l.off < len(l.src) {
		if l.newline() {
			crossed = true
			continue
		}
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			l.off++
		case c == '/' && l.peekByte(1) == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' && l.src[l.off] != '\r' {
				l.off++
			}
		case c == '/' && l.peekByte(1) == '*':
			start := l.pos()
			l.off += 2
			for {
				if l.off >= len(l.src) {
					return crossed, l.errorf(start, "the comment starting here is never closed with */")
				}
				if l.src[l.off] == '*' && l.peekByte(1) == '/' {
					l.off += 2
					break
				}
				if l.newline() {
					crossed = true
					continue
				}
				l.off++
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(l.src[l.off:])
			if r != '\ufeff' && r != '\u00a0' && !unicode.Is(unicode.Zs, r) {
				return crossed, nil
			}
			l.off += size
		default:
			return crossed, nil
		}
	}
	return crossed, nil
}

// regexpAllowed reports whether a "/" after the previous token starts a
// regular expression rather than a division.
func (l *jsLexer) regexpAllowed() bool {
	switch l.prev.kind {
	case jsIdent:
		switch l.prev.text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
			"throw", "case", "do", "else", "yield", "await":
			return true
		}
		return false
	case jsPunct:
		return l.prev.text != ")" && l.prev.text != "]"
	}
	return false
}

// next returns the next token.
func (l *jsLexer) next() (jsTok, error) {
	crossed, err := l.skipSpace()
	if err != nil {
		return jsTok{}, err
	}
	tok, err := l.scan()
	tok.sameLine = !crossed
	if err == nil && tok.kind != jsEOF {
		l.prev = tok
	}
	return tok, err
}

func (l *jsLexer) scan() (jsTok, error) {
	p := l.pos()
	if l.off >= len(l.src) {
		return jsTok{kind: jsEOF, pos: p}, nil
	}
	c := l.src[l.off]
	switch {
	case c == '"' || c == '\'':
		s, err := l.scanString(c)
		return jsTok{kind: jsString, str: s, pos: p}, err
	case c == '`':
		return jsTok{kind: jsTemplate, pos: p}, l.skipTemplate()
	case isDecimal(c) || (c == '.' && isDecimal(l.peekByte(1))):
		text, err := l.scanNumber()
		return jsTok{kind: jsNumber, text: text, pos: p}, err
	case c == '/' && l.regexpAllowed():
		return jsTok{kind: jsRegexp, pos: p}, l.skipRegexp()
	case isIdentStart(l.src[l.off:]):
		start := l.off
		for l.off < len(l.src) && isIdentPart(l.src[l.off:]) {
			_, size := utf8.DecodeRune(l.src[l.off:])
			l.off += size
		}
		return jsTok{kind: jsIdent, text: string(l.src[start:l.off]), pos: p}, nil
	}
	for _, punct := range []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
		"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
		"&=", "|=", "^=", "**", "<<", ">>"} {
		if strings.HasPrefix(string(l.src[l.off:min(l.off+4, len(l.src))]), punct) {
			l.off += len(punct)
			return jsTok{kind: jsPunct, text: punct, pos: p}, nil
		}
	}
	r, size := utf8.DecodeRune(l.src[l.off:])
	if r == utf8.RuneError && size <= 1 {
		l.off++
		return jsTok{}, l.errorf(p, "the file is not valid UTF-8")
	}
	l.off += size
	return jsTok{kind: jsPunct, text: string(r), pos: p}, nil
}

// scanString reads a quoted string literal and decodes its escapes.
func (l *jsLexer) scanString(quote byte) (string, error) {
	start := l.pos()
	l.off++
	var b strings.Builder
	for {
		if l.off >= len(l.src) {
			return "", l.errorf(start, "the string starting here is never closed")
		}
		c := l.src[l.off]
		switch {
		case c == quote:
			l.off++
			return b.String(), nil
		case c == '\n' || c == '\r':
			return "", l.errorf(start, "the string starting here is never closed on its line")
		case c == '\\':
			if err := l.scanEscape(&b); err != nil {
				return "", err
			}
		default:
			r, size := utf8.DecodeRune(l.src[l.off:])
			if r == utf8.RuneError && size <= 1 {
				return "", l.errorf(l.pos(), "the string holds bytes that are not valid UTF-8")
			}
			b.WriteRune(r)
			l.off += size
		}
	}
}

// scanEscape decodes one backslash escape inside a string literal.
func (l *jsLexer) scanEscape(b *strings.Builder) error {
	p := l.pos()
	l.off++ // the backslash
	if l.off >= len(l.src) {
		return l.errorf(p, "the escape sequence is cut off by the end of the file")
	}
	if l.newline() {
		return nil // line continuation
	}
	c := l.src[l.off]
	if i := strings.IndexByte("ntrbfv", c); i >= 0 {
		b.WriteByte("\n\t\r\b\f\v"[i])
		l.off++
		return nil
	}
	switch {
	case c == '0' && !isDecimal(l.peekByte(1)):
		b.WriteByte(0)
		l.off++
	case isDecimal(c):
		return l.errorf(p, "octal escape sequences such as \\%c are not allowed in modules", c)
	case c == 'x':
		h1, h2 := l.peekByte(1), l.peekByte(2)
		if !isHex(h1) || !isHex(h2) {
			return l.errorf(p, "\\x must be followed by two hexadecimal digits")
		}
		v, _ := strconv.ParseUint(string([]byte{h1, h2}), 16, 8)
		b.WriteRune(rune(v))
		l.off += 3
	case c == 'u':
		r, err := l.scanUnicodeEscape(p)
		if err != nil {
			return err
		}
		if utf16IsHigh(r) && l.peekByte(0) == '\\' && l.peekByte(1) == 'u' {
			save := l.off
			l.off++
			if lo, err := l.scanUnicodeEscape(l.pos()); err == nil && utf16IsLow(lo) {
				r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
			} else {
				l.off = save
			}
		}
		b.WriteRune(r) // a lone surrogate becomes U+FFFD
	default:
		r, size := utf8.DecodeRune(l.src[l.off:])
		if strings.ContainsRune("\u2028\u2029", r) {
			l.newline()
			return nil
		}
		b.WriteRune(r) // identity escape: \' \" \\ and any other character
		l.off += size
	}
	return nil
}

// scanUnicodeEscape reads uXXXX or u{X…} with l.off at the "u".
func (l *jsLexer) scanUnicodeEscape(p Pos) (rune, error) {
	l.off++ // the u
	if l.peekByte(0) == '{' {
		end := l.off + 1
		for end < len(l.src) && isHex(l.src[end]) && end-l.off <= 8 {
			end++
		}
		if end == l.off+1 || end >= len(l.src) || l.src[end] != '}' {
			return 0, l.errorf(p, "\\u{…} must hold hexadecimal digits and end with }")
		}
		v, err := strconv.ParseUint(string(l.src[l.off+1:end]), 16, 32)
		if err != nil || v > unicode.MaxRune {
			return 0, l.errorf(p, "\\u{%s} is beyond the last Unicode code point", l.src[l.off+1:end])
		}
		l.off = end + 1
		return rune(v), nil
	}
	if l.off+4 > len(l.src) {
		return 0, l.errorf(p, "\\u must be followed by four hexadecimal digits")
	}
	digits := l.src[l.off : l.off+4]
	for _, d := range digits {
		if !isHex(d) {
			return 0, l.errorf(p, "\\u must be followed by four hexadecimal digits")
		}
	}
	v, _ := strconv.ParseUint(string(digits), 16, 32)
	l.off += 4
	return rune(v), nil
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r < 0xDC00 }
func utf16IsLow(r rune) bool  { return r >= 0xDC00 && r < 0xE000 }

// skipTemplate skips a template literal, including the code of its ${…}
// substitutions, with l.off at the opening backquote.
func (l *jsLexer) skipTemplate() error {
	start := l.pos()
	l.off++
	for {
		if l.off >= len(l.src) {
			return l.errorf(start, "the template string starting here is never closed")
		}
		switch c := l.src[l.off]; {
		case c == '`':
			l.off++
			return nil
		case c == '\\':
			l.off++
			if !l.newline() && l.off < len(l.src) {
				l.off++
			}
		case c == '$' && l.peekByte(1) == '{':
			l.off += 2
			if err := l.skipCode("}"); err != nil {
				return err
			}
		default:
			if !l.newline() {
				l.off++
			}
		}
	}
}

// skipCode skips tokens up to and including the closer that balances the
// already consumed opener, tracking nested brackets.
func (l *jsLexer) skipCode(closer string) error {
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > maxJSDepth {
		return l.errorf(l.pos(), "the code nests deeper than %d levels", maxJSDepth)
	}
	saved := l.prev
	l.prev = jsTok{kind: jsPunct, text: "("}
	defer func() { l.prev = saved }()
	stack := []string{closer}
	for len(stack) > 0 {
		tok, err := l.next()
		if err != nil {
			return err
		}
		switch {
		case tok.kind == jsEOF:
			return l.errorf(tok.pos, "a template substitution ${ is never closed")
		case tok.kind != jsPunct:
		case tok.text == "{":
			stack = append(stack, "}")
		case tok.text == "(":
			stack = append(stack, ")")
		case tok.text == "[":
			stack = append(stack, "]")
		case tok.text == stack[len(stack)-1]:
			stack = stack[:len(stack)-1]
		}
		if len(stack) > maxJSDepth {
			return l.errorf(tok.pos, "the code nests deeper than %d levels", maxJSDepth)
		}
	}
	return nil
}

// skipRegexp skips a regular expression literal with l.off at its "/".
func (l *jsLexer) skipRegexp() error {
	start := l.pos()
	l.off++
	inClass := false
	for {
		if l.off >= len(l.src) || l.src[l.off] == '\n' || l.src[l.off] == '\r' {
			return l.errorf(start, "the regular expression starting here is never closed")
		}
		c := l.src[l.off]
		l.off++
		switch {
		case c == '\\':
			if l.off < len(l.src) && l.src[l.off] != '\n' && l.src[l.off] != '\r' {
				l.off++
			}
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			for l.off < len(l.src) && isIdentPart(l.src[l.off:]) {
				_, size := utf8.DecodeRune(l.src[l.off:])
				l.off += size
			}
			return nil
		}
	}
}

// scanNumber reads a numeric literal and checks its syntax.
func (l *jsLexer) scanNumber() (string, error) {
	p := l.pos()
	start := l.off
	digit := isDecimal
	if l.src[l.off] == '0' && strings.ContainsRune("xXoObB", rune(l.peekByte(1))) {
		switch l.peekByte(1) {
		case 'x', 'X':
			digit = isHex
		case 'o', 'O':
			digit = func(c byte) bool { return c >= '0' && c <= '7' }
		default:
			digit = func(c byte) bool { return c == '0' || c == '1' }
		}
		l.off += 2
		l.digits(digit)
	} else {
		l.digits(isDecimal)
		if l.peekByte(0) == '.' {
			l.off++
			l.digits(isDecimal)
		}
		if c := l.peekByte(0); c == 'e' || c == 'E' {
			l.off++
			if c := l.peekByte(0); c == '+' || c == '-' {
				l.off++
			}
			l.digits(isDecimal)
		}
	}
	text := string(l.src[start:l.off])
	if l.off < len(l.src) && (isIdentPart(l.src[l.off:]) || l.src[l.off] == '.') {
		if l.src[l.off] == 'n' {
			return "", l.errorf(p, "BigInt literals such as %sn are not supported", text)
		}
		return "", l.errorf(p, "%s%c is not a valid number", text, l.src[l.off])
	}
	if !validNumber(text, digit) {
		return "", l.errorf(p, "%s is not a valid number", text)
	}
	return text, nil
}

// digits consumes digits and numeric separators.
func (l *jsLexer) digits(digit func(byte) bool) {
	for l.off < len(l.src) && (digit(l.src[l.off]) || l.src[l.off] == '_') {
		l.off++
	}
}

// validNumber checks what the scanner's greedy loops cannot: that a prefix
// or exponent is followed by digits, that separators sit between two
// digits, and that a decimal does not start with a leading zero (a legacy
// octal, forbidden in modules).
func validNumber(text string, digit func(byte) bool) bool {
	body := text
	if len(text) > 1 && text[0] == '0' && strings.ContainsRune("xXoObB", rune(text[1])) {
		body = text[2:]
		if body == "" {
			return false
		}
	} else {
		mant, exp, hasExp := strings.Cut(strings.ToLower(text), "e")
		if hasExp {
			exp = strings.TrimLeft(exp, "+-")
			if exp == "" || !isDecimal(exp[0]) {
				return false
			}
		}
		intPart, _, _ := strings.Cut(mant, ".")
		if len(intPart) > 1 && intPart[0] == '0' {
			return false
		}
		if mant == "." {
			return false
		}
	}
	for i := 0; i < len(body); i++ {
		if body[i] == '_' && (i == 0 || i == len(body)-1 || !digit(body[i-1]) || !digit(body[i+1])) {
			return false
		}
	}
	return true
}

func isDecimal(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return isDecimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isIdentStart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return r == '$' || r == '_' || unicode.IsLetter(r)
}

func isIdentPart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return r == '$' || r == '_' || r == '\u200c' || r == '\u200d' ||
		unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}
