package scan

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// checkEscapedHidden reports hidden characters that the entrypoint's front
// matter writes as YAML escapes ("Review \u202e code"): the file's bytes
// hold only ASCII, so checkHidden sees nothing, but the value an agent
// reads holds the character. A character the file also holds as itself is
// left to checkHidden, which already reported it.
func checkEscapedHidden(s *scanner) {
	e := s.pkg.Entrypoint
	if e == nil {
		return
	}
	f := s.fileNamed(e.File)
	if f == nil {
		return
	}
	for _, k := range e.Keys {
		v, ok := e.String(k.Name)
		if !ok {
			continue
		}
		var prev rune
		for i := 0; i < len(v); {
			r, size := utf8.DecodeRuneInString(v[i:])
			i += size
			rule := hiddenRule(r)
			if rule == "" || bytes.ContainsRune(f.data, r) {
				prev = r
				continue
			}
			next, _ := utf8.DecodeRuneInString(v[i:])
			if legitimateHidden(rule, []rune{r}, prev, next, -1) {
				prev = r
				continue
			}
			s.addAt(rule, f, e.Pos(k.Name).Line, e.Pos(k.Name).Col,
				fmt.Sprintf("the front matter's %s holds U+%04X written as an escape: agents read the character itself", Visible(k.Name), r))
			break // one finding per field
		}
	}
}

// addAt records a finding of rule at a line and column of f, with the
// whole line as its excerpt.
func (s *scanner) addAt(rule string, f *file, line, col int, message string) {
	if line < 1 {
		s.addFile(rule, f.name, message)
		return
	}
	f.pos(0) // builds the line index
	if line > len(f.lines) {
		s.addFile(rule, f.name, message)
		return
	}
	start := f.lines[line-1]
	end := len(f.data)
	if i := bytes.IndexByte(f.data[start:], '\n'); i >= 0 {
		end = start + i
	}
	n := len(s.report.Findings)
	s.add(rule, f, start, end, message)
	if len(s.report.Findings) > n {
		s.report.Findings[n].Col = max(col, 1)
	}
}
