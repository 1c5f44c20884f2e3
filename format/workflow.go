package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxJSDepth caps the nesting of the meta literal and of skipped template
// substitutions.
const maxJSDepth = 64

// ReadWorkflowMeta reads the identity of a WORKFLOW.js — the object literal
// of `export const meta = { … }` — statically: the script is never run.
// file names it in diagnostics.
//
// The literal must be pure: objects with identifier, string or number
// keys; arrays; single- or double-quoted strings with escapes (\n \t \\ \'
// \" \uXXXX \u{…} \xHH and line continuations); numbers (decimal, float,
// exponent, hex, octal, binary, numeric separators, a leading minus);
// true, false and null; comments; trailing commas. Anything else — template
// strings, identifiers as values, calls, operators, spread, computed keys,
// methods, shorthand properties — is ASK_WORKFLOW_META_INVALID naming what
// was found and its line:column, and so is a file without `export const
// meta`. Code before the declaration is skipped token by token, so strings,
// comments, template literals and regular expressions there cannot fool
// the reader. On any such error the returned Entrypoint is nil; a duplicate
// key is reported but the Entrypoint is still returned. Nesting is limited
// to 64 levels and the input to 1 MiB (ASK_PACKAGE_TOO_LARGE).
//
// The Entrypoint's Fields hold the literal's keys with values of type
// string, int64 (integers that fit), float64, bool, nil, []any and
// map[string]any; Text returns numbers as written.
func ReadWorkflowMeta(data []byte, file string) (*Entrypoint, Diagnostics) {
	if int64(len(data)) > DefaultMaxEntrypointSize {
		return nil, Diagnostics{tooLarge(file, "the entrypoint", DefaultMaxEntrypointSize, "bytes")}
	}
	data = []byte(strings.TrimPrefix(string(data), "\ufeff"))
	p := &metaParser{lex: newJSLexer(data), e: newEntrypoint(file, KindWorkflow)}
	if err := p.parse(); err != nil {
		return nil, Diagnostics{metaDiag(file, err.pos, err.msg)}
	}
	return p.e, p.diags
}

func metaDiag(file string, p Pos, msg string) Diagnostic {
	return Diagnostic{File: file, Pos: p, Severity: SeverityError, Code: CodeWorkflowMetaInvalid,
		Message: msg,
		Fix:     "write `export const meta = { name: '…', description: '…' }` as a pure literal: quoted strings, numbers, true/false/null, arrays and objects only"}
}

// metaParser finds `export const meta =` and parses the literal after it.
type metaParser struct {
	lex   *jsLexer
	e     *Entrypoint
	diags Diagnostics
	tok   jsTok
}

func (p *metaParser) advance() *jsError {
	tok, err := p.lex.next()
	if err != nil {
		return err.(*jsError)
	}
	p.tok = tok
	return nil
}

func (p *metaParser) parse() *jsError {
	if err := p.findDeclaration(); err != nil {
		return err
	}
	if p.tok.kind != jsPunct || p.tok.text != "{" {
		return &jsError{p.tok.pos, fmt.Sprintf("meta must be an object literal { … }, found %s", p.tok.describe())}
	}
	p.e.HasMeta, p.e.MetaLine = true, p.tok.pos.Line
	v, err := p.object("", 1)
	if err != nil {
		return err
	}
	p.e.Fields = v
	// What follows the literal must not make it part of an expression.
	if err := p.advance(); err != nil {
		return err
	}
	if p.tok.kind == jsPunct {
		switch p.tok.text {
		case ";", ",", "}":
			return nil
		}
		return &jsError{p.tok.pos, fmt.Sprintf("meta must be a pure literal, but the object is followed by %s", p.tok.describe())}
	}
	if p.tok.kind == jsIdent && p.tok.sameLine {
		return &jsError{p.tok.pos, fmt.Sprintf("meta must be a pure literal, but the object is followed by %s", p.tok.describe())}
	}
	if p.tok.kind == jsTemplate || p.tok.kind == jsString && p.tok.sameLine {
		return &jsError{p.tok.pos, fmt.Sprintf("meta must be a pure literal, but the object is followed by %s", p.tok.describe())}
	}
	return nil
}

// findDeclaration skips code until the tokens `export const meta =` at
// the top level and leaves p.tok on the token after "=".
func (p *metaParser) findDeclaration() *jsError {
	var depth int
	var last [3]string // the previous three significant tokens at depth 0
	for {
		if err := p.advance(); err != nil {
			return err
		}
		t := p.tok
		switch {
		case t.kind == jsEOF:
			return &jsError{Pos{}, "WORKFLOW.js has no `export const meta = { … }` declaration"}
		case t.kind == jsPunct && (t.text == "{" || t.text == "(" || t.text == "["):
			depth++
		case t.kind == jsPunct && (t.text == "}" || t.text == ")" || t.text == "]"):
			depth = max(depth-1, 0)
		case depth == 0 && t.kind == jsPunct && t.text == "=" &&
			last == [3]string{"export", "const", "meta"}:
			return p.advance()
		}
		text := ""
		if t.kind == jsIdent {
			text = t.text
		}
		last = [3]string{last[1], last[2], text}
	}
}

// value parses one literal value at path.
func (p *metaParser) value(path string, depth int) (any, *jsError) {
	if depth > maxJSDepth {
		return nil, &jsError{p.tok.pos, fmt.Sprintf("meta nests deeper than %d levels", maxJSDepth)}
	}
	t := p.tok
	if path != "" {
		p.e.positions[path] = t.pos
	}
	switch t.kind {
	case jsString:
		p.e.texts[path] = t.str
		return t.str, nil
	case jsNumber:
		p.e.texts[path] = t.text
		return numberValue(t.text), nil
	case jsTemplate:
		return nil, &jsError{t.pos, "template strings (`…`) are not allowed in meta; use a quoted string"}
	case jsRegexp:
		return nil, &jsError{t.pos, "regular expressions are not allowed in meta"}
	case jsIdent:
		switch t.text {
		case "true", "false":
			p.e.texts[path] = t.text
			return t.text == "true", nil
		case "null":
			p.e.texts[path] = t.text
			return nil, nil
		}
		return nil, p.identifierError(t)
	case jsPunct:
		switch t.text {
		case "{":
			return p.object(path, depth+1)
		case "[":
			return p.array(path, depth+1)
		case "-":
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.tok.kind != jsNumber {
				return nil, &jsError{t.pos, fmt.Sprintf("the operator - may only precede a number in meta, found %s", p.tok.describe())}
			}
			text := "-" + p.tok.text
			p.e.texts[path] = text
			return negate(numberValue(p.tok.text)), nil
		case "...":
			return nil, &jsError{t.pos, "spread (...) is not allowed in meta"}
		}
		return nil, &jsError{t.pos, fmt.Sprintf("the operator %q is not allowed in meta; write a literal value", t.text)}
	}
	return nil, &jsError{t.pos, fmt.Sprintf("meta ends early: expected a value, found %s", t.describe())}
}

// identifierError explains why an identifier cannot be a value.
func (p *metaParser) identifierError(t jsTok) *jsError {
	if err := p.advance(); err == nil && p.tok.kind == jsPunct && p.tok.text == "(" {
		return &jsError{t.pos, fmt.Sprintf("the function call %s(…) is not allowed in meta; meta must be a pure literal", t.text)}
	}
	switch t.text {
	case "undefined", "NaN", "Infinity":
		return &jsError{t.pos, fmt.Sprintf("%s is not allowed in meta; use null or a number", t.text)}
	case "new", "function", "class", "async", "await", "typeof", "void", "delete":
		return &jsError{t.pos, fmt.Sprintf("the expression starting with %s is not allowed in meta; meta must be a pure literal", t.text)}
	}
	return &jsError{t.pos, fmt.Sprintf("the identifier %s is not a literal value; meta must not refer to variables, quote the text instead", t.text)}
}

// after checks the token after a value: a comma or the closer, never an
// operator, a call or a member access.
func (p *metaParser) after(closer string) (bool, *jsError) {
	if err := p.advance(); err != nil {
		return false, err
	}
	t := p.tok
	if t.kind == jsPunct {
		switch t.text {
		case ",":
			return false, nil
		case closer:
			return true, nil
		case "(":
			return false, &jsError{t.pos, "a function call is not allowed in meta; meta must be a pure literal"}
		case ".", "?.", "[":
			return false, &jsError{t.pos, fmt.Sprintf("member access (%s) is not allowed in meta; meta must be a pure literal", t.text)}
		case "}", "]", ")":
		default:
			return false, &jsError{t.pos, fmt.Sprintf("the operator %q is not allowed in meta; write a single literal value", t.text)}
		}
	}
	return false, &jsError{t.pos, fmt.Sprintf("expected \",\" or %q in meta, found %s", closer, t.describe())}
}

func (p *metaParser) object(path string, depth int) (map[string]any, *jsError) {
	if depth > maxJSDepth {
		return nil, &jsError{p.tok.pos, fmt.Sprintf("meta nests deeper than %d levels", maxJSDepth)}
	}
	if path != "" {
		p.e.positions[path] = p.tok.pos
	}
	out := map[string]any{}
	seen := map[string]Pos{}
	for {
		if err := p.advance(); err != nil {
			return nil, err
		}
		t := p.tok
		var key string
		switch {
		case t.kind == jsPunct && t.text == "}":
			return out, nil
		case t.kind == jsIdent:
			key = t.text
		case t.kind == jsString:
			key = t.str
		case t.kind == jsNumber:
			key = t.text
		case t.kind == jsPunct && t.text == "[":
			return nil, &jsError{t.pos, "computed keys ([…]: …) are not allowed in meta; write the key as a name or a quoted string"}
		case t.kind == jsPunct && t.text == "...":
			return nil, &jsError{t.pos, "spread (...) is not allowed in meta"}
		case t.kind == jsTemplate:
			return nil, &jsError{t.pos, "template strings (`…`) are not allowed in meta"}
		default:
			return nil, &jsError{t.pos, fmt.Sprintf("expected a key or \"}\" in meta, found %s", t.describe())}
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != jsPunct || p.tok.text != ":" {
			switch {
			case p.tok.kind == jsPunct && p.tok.text == "(":
				return nil, &jsError{t.pos, fmt.Sprintf("the method %s() is not allowed in meta; meta must be a pure literal", key)}
			case p.tok.kind == jsPunct && (p.tok.text == "," || p.tok.text == "}") && t.kind == jsIdent:
				return nil, &jsError{t.pos, fmt.Sprintf("the shorthand property %s refers to a variable; write %s: 'value'", key, key)}
			case t.kind == jsIdent && (key == "get" || key == "set" || key == "async") && p.tok.kind == jsIdent:
				return nil, &jsError{t.pos, fmt.Sprintf("the accessor or method %s %s is not allowed in meta", key, p.tok.text)}
			}
			return nil, &jsError{p.tok.pos, fmt.Sprintf("expected \":\" after the key %s in meta, found %s", key, p.tok.describe())}
		}
		kp := keyPath(path, key)
		if first, dup := seen[key]; dup {
			p.diags = append(p.diags, metaDiag(p.e.File, t.pos,
				fmt.Sprintf("key %q appears twice in meta (first at %d:%d)", key, first.Line, first.Col)))
		} else {
			seen[key] = t.pos
		}
		p.e.keys[kp] = t.pos
		if path == "" {
			p.e.Keys = append(p.e.Keys, Key{Name: key, Pos: t.pos})
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		v, err := p.value(kp, depth)
		if err != nil {
			return nil, err
		}
		out[key] = v
		done, err := p.after("}")
		if err != nil {
			return nil, err
		}
		if done {
			return out, nil
		}
	}
}

func (p *metaParser) array(path string, depth int) ([]any, *jsError) {
	if depth > maxJSDepth {
		return nil, &jsError{p.tok.pos, fmt.Sprintf("meta nests deeper than %d levels", maxJSDepth)}
	}
	p.e.positions[path] = p.tok.pos
	out := []any{}
	for {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind == jsPunct && p.tok.text == "]" {
			return out, nil
		}
		if p.tok.kind == jsPunct && p.tok.text == "," {
			return nil, &jsError{p.tok.pos, "array holes (, ,) are not allowed in meta; write null"}
		}
		v, err := p.value(indexPath(path, len(out)), depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		done, err := p.after("]")
		if err != nil {
			return nil, err
		}
		if done {
			return out, nil
		}
	}
}

// numberValue converts a checked number lexeme to int64 when it is an
// integer that fits, and to float64 otherwise.
func numberValue(text string) any {
	clean := strings.ReplaceAll(text, "_", "")
	lower := strings.ToLower(clean)
	base := 10
	switch {
	case strings.HasPrefix(lower, "0x"):
		base, clean = 16, clean[2:]
	case strings.HasPrefix(lower, "0o"):
		base, clean = 8, clean[2:]
	case strings.HasPrefix(lower, "0b"):
		base, clean = 2, clean[2:]
	}
	if base != 10 || !strings.ContainsAny(lower, ".e") {
		if n, err := strconv.ParseInt(clean, base, 64); err == nil {
			return n
		}
		if base != 10 {
			n, err := strconv.ParseUint(clean, base, 64)
			if err != nil {
				return math.Inf(1)
			}
			return float64(n)
		}
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil && f == 0 {
		return 0.0
	}
	return f
}

func negate(v any) any {
	switch n := v.(type) {
	case int64:
		if n == math.MinInt64 {
			return -float64(n)
		}
		return -n
	case float64:
		return -n
	}
	return v
}
