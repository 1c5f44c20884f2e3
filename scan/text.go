package scan

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// span is a byte range [off, end) of a file.
type span struct{ off, end int }

// secretSpan is a secret at [off, end) of which [off, keep) may be shown.
type secretSpan struct{ off, keep, end int }

// lower returns the file's data with ASCII letters lowered and a line
// continuation (a backslash before the end of a line) blanked, so that a
// command continued over lines reads as one line: same length and offsets
// as data.
func (f *file) lower() []byte {
	if f.low == nil {
		f.low = make([]byte, len(f.data))
		for i, b := range f.data {
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			f.low[i] = b
		}
		for i := bytes.IndexByte(f.low, '\\'); i >= 0 && i+1 < len(f.low); {
			j := i + 1
			if f.low[j] == '\r' && j+1 < len(f.low) {
				j++
			}
			if f.low[j] == '\n' {
				for k := i; k <= j; k++ {
					f.low[k] = ' '
				}
			}
			next := bytes.IndexByte(f.low[i+1:], '\\')
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return f.low
}

// masked returns data[a:b] with the part of every secret past its kept
// prefix replaced by asterisks.
func (f *file) masked(a, b int) string {
	if len(f.secrets) == 0 {
		return string(f.data[a:b])
	}
	var out strings.Builder
	at := a
	for _, s := range f.secrets {
		if s.end <= at || s.keep >= b {
			continue
		}
		from := max(s.keep, at)
		out.Write(f.data[at:from])
		out.WriteString("********")
		at = min(s.end, b)
	}
	out.Write(f.data[at:b])
	return out.String()
}

// lineAt returns the logical line holding off: the physical line, joined
// with the lines a trailing backslash continues onto (at most 8 lines).
func (f *file) lineAt(off int) span {
	data := f.data
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	// a line continued from the lines before it
	for n := 0; n < 8 && start >= 2; n++ {
		prev := start - 1 // the '\n'
		j := prev
		if j > 0 && data[j-1] == '\r' {
			j--
		}
		if j == 0 || data[j-1] != '\\' {
			break
		}
		start = bytes.LastIndexByte(data[:prev], '\n') + 1
	}
	end := off
	for n := 0; n < 8; n++ {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return span{start, len(data)}
		}
		end += i
		j := end
		if j > start && data[j-1] == '\r' {
			j--
		}
		if j == start || data[j-1] != '\\' {
			break
		}
		end++
	}
	return span{start, end}
}

// candidates calls fn once for each logical line of f that holds one of the
// keywords (lowercase), in file order. fn gets the line's span.
func (f *file) candidates(keywords []string, fn func(line span)) {
	low := f.lower()
	var lines []span
	for _, kw := range keywords {
		k := []byte(kw)
		for at := 0; at < len(low); {
			i := bytes.Index(low[at:], k)
			if i < 0 {
				break
			}
			l := f.lineAt(at + i)
			lines = append(lines, l)
			at = l.end + 1
		}
	}
	if len(lines) == 0 {
		return
	}
	slices.SortFunc(lines, func(a, b span) int { return a.off - b.off })
	last := -1
	for _, l := range lines {
		if l.off <= last {
			continue
		}
		last = l.end
		fn(l)
	}
}

// fenceSpans returns the fenced code blocks of a Markdown file: ``` or ~~~
// fences indented at most three spaces, to the closing fence or the end.
func (f *file) fenceSpans() []span {
	if f.fenced {
		return f.fences
	}
	f.fenced = true
	if f.kind != kindMarkdown {
		return nil
	}
	data := f.data
	open := -1
	var marker byte
	var width int
	for at := 0; at < len(data); {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		line := data[at:end]
		trimmed := bytes.TrimLeft(line, " ")
		if len(line)-len(trimmed) <= 3 && len(trimmed) >= 3 && (trimmed[0] == '`' || trimmed[0] == '~') {
			c := trimmed[0]
			n := 0
			for n < len(trimmed) && trimmed[n] == c {
				n++
			}
			if n >= 3 {
				switch {
				case open < 0:
					open, marker, width = at, c, n
				case c == marker && n >= width && len(bytes.TrimSpace(trimmed[n:])) == 0:
					f.fences = append(f.fences, span{open, end})
					open = -1
				}
			}
		}
		at = end + 1
	}
	if open >= 0 {
		f.fences = append(f.fences, span{open, len(data)})
	}
	return f.fences
}

// inFence reports whether off is inside a fenced code block.
func (f *file) inFence(off int) bool {
	fences := f.fenceSpans()
	i, _ := slices.BinarySearchFunc(fences, off, func(s span, off int) int {
		if s.end <= off {
			return -1
		}
		if s.off > off {
			return 1
		}
		return 0
	})
	return i < len(fences) && fences[i].off <= off && off < fences[i].end
}

// inCodeSpan reports whether off is inside an inline code span on its line:
// an odd number of backticks before it on the line.
func (f *file) inCodeSpan(line span, off int) bool {
	return bytes.Count(f.data[line.off:off], []byte("`"))%2 == 1
}

// find runs re over the line and returns the first match's offsets in the
// file, or ok false.
func (f *file) find(re *regexp.Regexp, text []byte, line span) (off, end int, ok bool) {
	m := re.FindIndex(text[line.off:line.end])
	if m == nil {
		return 0, 0, false
	}
	return line.off + m[0], line.off + m[1], true
}
