package readhook

import (
	"encoding/json"
	"strconv"
	"strings"
)

// maxCommand bounds the shell command Codex reports: a literal read of one
// file is short.
const maxCommand = 8 << 10

// cmdRead is what a bounded literal read command reads.
type cmdRead struct {
	path  string
	lines [2]int // sed -n 'A,Bp': A..B; zero for cat
}

// commandRead recognises the only commands Codex reads a skill with that
// this package accepts: `cat PATH`, `sed -n 'A,Bp' PATH` and `sed -n Ap
// PATH`, as a string for the shell or as an argument vector (possibly
// ["bash", "-lc", "…"]). Anything else — a pipe, a list, a redirection, a
// glob, a variable, a command substitution, an escape, a quote that does
// not cover a whole word — is ErrNotRead. Nothing is ever executed.
func commandRead(raw json.RawMessage) (cmdRead, error) {
	if len(raw) > 4*maxCommand {
		return cmdRead{}, notRead("command too long")
	}
	var argv []string
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		words, ok := shellWords(s)
		if !ok {
			return cmdRead{}, notRead("not a literal read command")
		}
		argv = words
	} else if err := json.Unmarshal(raw, &argv); err != nil {
		return cmdRead{}, notRead("command is neither a string nor an argument list")
	} else {
		if len(argv) == 3 && isShell(argv[0]) && (argv[1] == "-c" || argv[1] == "-lc") {
			words, ok := shellWords(argv[2])
			if !ok {
				return cmdRead{}, notRead("not a literal read command")
			}
			argv = words
		}
		for _, a := range argv {
			if len(a) > maxPathLen || strings.ContainsAny(a, "\x00\n\r") {
				return cmdRead{}, notRead("not a literal read command")
			}
		}
	}
	switch {
	case len(argv) == 2 && argv[0] == "cat":
		return literalPath(argv[1], [2]int{})
	case len(argv) == 4 && argv[0] == "sed" && argv[1] == "-n":
		a, b, ok := sedRange(argv[2])
		if !ok {
			return cmdRead{}, notRead("not a literal sed print")
		}
		return literalPath(argv[3], [2]int{a, b})
	}
	return cmdRead{}, notRead("not cat PATH or sed -n 'A,Bp' PATH")
}

// literalPath accepts p as the file operand: not an option, not empty.
func literalPath(p string, lines [2]int) (cmdRead, error) {
	if p == "" || strings.HasPrefix(p, "-") {
		return cmdRead{}, notRead("not a file operand")
	}
	return cmdRead{path: p, lines: lines}, nil
}

// sedRange parses "A,Bp" or "Ap" with 1 <= A <= B <= 9,999,999.
func sedRange(s string) (int, int, bool) {
	body, ok := strings.CutSuffix(s, "p")
	if !ok {
		return 0, 0, false
	}
	as, bs, comma := strings.Cut(body, ",")
	if !comma {
		bs = as
	}
	a, ok1 := lineNumber(as)
	b, ok2 := lineNumber(bs)
	if !ok1 || !ok2 || a > b {
		return 0, 0, false
	}
	return a, b, true
}

func lineNumber(s string) (int, bool) {
	if s == "" || len(s) > 7 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 1
}

// shellWords splits a command into words when it is nothing but literal
// words separated by spaces or tabs. A word is either bare — letters,
// digits and . _ / , + = : @ % - only — or wholly inside one pair of
// single quotes (no quote inside) or double quotes (no $ ` \ ! or " inside).
// Every other character, a quote that covers part of a word, and an empty
// command refuse the whole command.
func shellWords(s string) ([]string, bool) {
	if len(s) > maxCommand {
		return nil, false
	}
	var words []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		var w string
		switch s[i] {
		case '\'', '"':
			q := s[i]
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				return nil, false
			}
			w = s[i+1 : i+1+end]
			if q == '"' && strings.ContainsAny(w, "$`\\!") {
				return nil, false
			}
			if strings.ContainsAny(w, "\x00\n\r") {
				return nil, false
			}
			i += end + 2
		default:
			j := i
			for j < len(s) && bareByte(s[j]) {
				j++
			}
			if j == i {
				return nil, false // a shell metacharacter
			}
			w = s[i:j]
			i = j
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' {
			return nil, false // a quote joined to more of the word
		}
		words = append(words, w)
	}
	return words, len(words) > 0
}

func bareByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("._/,+=:@%-", c) >= 0
}
