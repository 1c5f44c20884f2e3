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
	for _, s := range f.secrets[f.firstSecretEndingAfter(a):] {
		if s.off >= b {
			break
		}
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

// The keyword index: one pass over a file's lowered text finds the lines
// that hold a word one of the rule families looks for, so that the
// families' patterns run on those lines only and no regexp reads the whole
// file.
type family uint16

const (
	famOverride family = 1 << iota
	famSecrecy
	famPersona
	famSystemPrompt
	famExec
	famExfil
	famAssign
	famChmod
	famSecret

	famInjection = famOverride | famSecrecy | famPersona | famSystemPrompt
)

// keywords maps each word of the index to the families that look for it.
var keywords = func() map[string]family {
	m := map[string]family{}
	add := func(fam family, words ...string) {
		for _, w := range words {
			m[w] |= fam
			keywordShapes[shape(w)/64] |= 1 << (shape(w) % 64)
		}
	}
	add(famOverride, "ignore", "disregard", "forget")
	add(famSecrecy, "user")
	add(famPersona, "now", "pretend", "act", "mode")
	add(famSystemPrompt, "prompt", "prompts", "preprompt", "pre-prompt", "instructions", "message", "rules", "above")
	add(famExec, "curl", "wget", "iex", "invoke-expression", "exec", "eval", "base64", "b64decode",
		"b32decode", "b16decode", "decodebytes", "urlsafe_b64decode", "codecs", "zlib", "marshal", "atob", "buffer",
		"fromhex", "__import__", "powershell", "pwsh", "frombase64string", "compile")
	add(famExfil, "curl", "wget", "nc", "ncat", "netcat", "socat", "tcp", "requests", "httpx", "urlopen",
		"urllib", "fetch", "axios", "invoke-webrequest", "invoke-restmethod", "iwr", "irm", "post")
	add(famChmod, "chmod")
	return m
}()

// keywordShapes is a bitset of the shapes (length, first and last byte)
// of the keywords: a word whose shape is not in it is not looked up.
var keywordShapes [16 * 256 * 256 / 64]uint64

func shape(w string) uint32 {
	return uint32(len(w)&15)<<16 | uint32(w[0])<<8 | uint32(w[len(w)-1])
}

func shapeOf(w []byte) uint32 {
	return uint32(len(w)&15)<<16 | uint32(w[0])<<8 | uint32(w[len(w)-1])
}

// assignSuffixes end the names secret-assignment looks at.
var assignSuffixes = []string{"_token", "_key", "_secret", "_password", "_passwd"}

func keywordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '_' || b == '-'
}

// secretPrefix reports a lowered word that starts like one of the token
// formats.
func secretPrefix(w []byte) bool {
	for _, p := range secretPrefixes {
		if bytes.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

var secretPrefixes = func() [][]byte {
	var out [][]byte
	for _, p := range secretPatterns {
		for _, pre := range p.prefixes {
			out = append(out, bytes.ToLower([]byte(pre)))
		}
	}
	return out
}()

// hit is a line of the keyword index and the families it interests.
type hit struct {
	line span
	fams family
}

// index builds the keyword index of the lowered text: each logical line
// (continuations are blanked in lower, so a line ends at a newline) that
// holds a keyword, with its families.
func (f *file) index() []hit {
	if f.indexed {
		return f.hits
	}
	f.indexed = true
	low := f.lower()
	lineStart := 0
	var fams family
	flush := func(end int) {
		if fams != 0 {
			f.hits = append(f.hits, hit{span{lineStart, end}, fams})
		}
		fams = 0
		lineStart = end + 1
	}
	for i := 0; i < len(low); {
		b := low[i]
		if b == '\n' {
			flush(i)
			i++
			continue
		}
		if !keywordByte(b) {
			i++
			continue
		}
		j := i + 1
		under := b == '_'
		for j < len(low) && keywordByte(low[j]) {
			under = under || low[j] == '_'
			j++
		}
		w := low[i:j]
		if sh := shapeOf(w); keywordShapes[sh/64]&(1<<(sh%64)) != 0 {
			fams |= keywords[string(w)]
		}
		if len(w) >= 16 && secretPrefix(w) {
			fams |= famSecret
		}
		if under && len(w) > 4 && w[len(w)-1] != '-' {
			for _, suf := range assignSuffixes {
				if bytes.HasSuffix(w, []byte(suf)) {
					fams |= famAssign
					break
				}
			}
		}
		i = j
	}
	flush(len(low))
	return f.hits
}

// candidates calls fn with each logical line of f the keyword index
// marks for the family, in file order.
func (f *file) candidates(fam family, fn func(line span, fams family)) {
	for _, h := range f.index() {
		if h.fams&fam != 0 {
			fn(h.line, h.fams)
		}
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

// pattern is one phrasing a rule looks for: need lists groups of
// lowercase words, and a line is tried only when it holds a word of every
// group (bytes.Contains, no regexp); re then decides, on the lowered line.
// The first group is the keyword index that picks candidate lines.
type pattern struct {
	rule string
	need [][]string
	re   *regexp.Regexp
	what string
}

// match returns the first match of p in text (lowered), or nil.
func (p *pattern) match(text []byte) []int {
	for _, group := range p.need {
		found := false
		for _, w := range group {
			if bytes.Contains(text, []byte(w)) {
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return p.re.FindIndex(text)
}
