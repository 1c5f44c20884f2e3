package scan

import (
	"bytes"
	"regexp"
	"strconv"
)

// shells and interpreters that run what they read on standard input.
const (
	shellCmd  = `(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\w+=\S*\s+)*)?(?:\S*/)?(?:ba|z|da|k|fi|c|tc)?sh\b(?:\s+-[a-z]*s)?(?:\s+-\s|\s*$|\s*[;&|)'"` + "`" + `]|\s+-s\b|\s+--?\s|\s+[^-\s])`
	interpCmd = `(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:python[0-9.]*|perl|ruby|node|php|deno|bun|pwsh|powershell)(?:\.exe)?(?:\s+-)?(?:\s*$|\s*[;&|)'"` + "`" + `])`
)

// shellWords are the words a pipe into a shell or interpreter needs.
var shellWords = []string{"sh", "python", "perl", "ruby", "node", "php", "deno", "bun", "pwsh", "powershell"}

// execPatterns are the ways of running code a reader cannot see.
var execPatterns = []pattern{
	{RuleExecPipeShell, [][]string{{"curl", "wget"}, {"|"}, shellWords}, regexp.MustCompile(
		`\b(?:curl|wget)\b[^|\n]*\|(?:[^|\n]*\|)*\s*(?:` + shellCmd + `|` + interpCmd + `)`),
		"downloaded content is piped straight into an interpreter"},
	{RuleExecPipeShell, [][]string{{"curl", "wget"}, {"<(", "$(", "`"}}, regexp.MustCompile(
		`\b(?:(?:ba|z|da|k)?sh|source|\.)\s+(?:-s\s+)?<\(\s*(?:curl|wget)\b` +
			`|\b(?:(?:ba|z|da|k)?sh\s+-c|eval|source)\s+["']?(?:\$\(|` + "`" + `)\s*(?:curl|wget)\b` +
			`|\b(?:python[0-9.]*|node|perl|ruby)\s+(?:-\s+)?<\(\s*(?:curl|wget)\b`),
		"downloaded content is run by a shell"},
	{RuleExecPipeShell, [][]string{{"iex", "invoke-expression"}}, regexp.MustCompile(
		`\b(?:iex|invoke-expression)\b\s*(?:-command\s+)?["']?\s*(?:&\s*)?\{?\s*[($]*\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|(?:new-object\s+)?(?:system\.)?net\.webclient|\[system\.net\.webclient\]|curl|wget|start-bitstransfer)\b` +
			`|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^|\n]*\|\s*(?:iex|invoke-expression)\b`),
		"downloaded content is run by PowerShell's Invoke-Expression"},
	{RuleExecPipeShell, [][]string{{"exec", "eval"}, {"urlopen", "requests.get", "httpx.get", "fetch"}}, regexp.MustCompile(
		`\b(?:exec|eval)\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|urllib2\.urlopen|httpx\.get|fetch|await\s+fetch)\s*\(`),
		"downloaded content is run by exec or eval"},

	{RuleExecBase64, [][]string{{"base64"}, {"-d", "--decode", "-id"}}, regexp.MustCompile(
		`\bbase64\s+(?:-\w+\s+)*(?:-d|--decode|-di|-id)\b[^|\n]*\|(?:[^|\n]*\|)*\s*(?:` + shellCmd + `|` + interpCmd + `)` +
			`|\b(?:eval|(?:ba|z|da|k)?sh\s+-c|source|exec)\s+["']?(?:\$\(|` + "`" + `)[^)\n]*\bbase64\s+(?:-\w+\s+)*(?:-d|--decode)\b` +
			`|\b(?:(?:ba|z|da|k)?sh|source|\.)\s+<\([^)\n]*\bbase64\s+(?:-\w+\s+)*(?:-d|--decode)\b`),
		"base64-decoded text is run by a shell"},
	{RuleExecBase64, [][]string{{"b64decode", "b32decode", "b16decode", "decodebytes", "codecs.decode", "zlib.decompress", "marshal.loads", "atob", "buffer.from", "fromhex", "__import__"}, {"exec", "eval", "compile"}}, regexp.MustCompile(
		`\b(?:exec|eval|compile)\s*\(\s*(?:base64\.(?:b64decode|b32decode|b16decode|decodebytes|urlsafe_b64decode)|codecs\.decode|zlib\.decompress|marshal\.loads|bytes\.fromhex|atob|buffer\.from|__import__\(\s*['"]base64['"]\s*\))\s*\(`),
		"decoded text is run by exec or eval"},
	{RuleExecBase64, [][]string{{"powershell", "pwsh", "frombase64string"}}, regexp.MustCompile(
		`\b(?:powershell|pwsh)(?:\.exe)?\b[^|\n]*\s-(?:e|ec|en|enc|enco|encodedcommand)\s+[a-z0-9+/=]{16,}` +
			`|\b(?:iex|invoke-expression)\b.*frombase64string|frombase64string.*\|\s*(?:iex|invoke-expression)\b`),
		"an encoded PowerShell command is run"},
}

var (
	reDownloadToFile = regexp.MustCompile(`\b(?:curl\b[^\n]*\s(?:-[a-z]*o|--output|--remote-name)\b|curl\b[^|\n]*>\s*\S|wget\b|invoke-webrequest\b[^\n]*-outfile\b|iwr\b[^\n]*-outfile\b|urlretrieve\s*\(|start-bitstransfer\b)`)
	reChmodExec      = regexp.MustCompile(`\bchmod\s+(?:-\w+\s+)*(?:[ugoa]*\+[rws]*x\w*|[0-7]?([0-7]{3}))\b|\bos\.chmod\s*\([^)]*(?:0o?([0-7]{3})|s_ix|s_iexec)`)
	reRunFile        = regexp.MustCompile(`(?:^|\n|&&|;|\|\|)\s*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z)?sh\s+)?(?:\./|/tmp/|/var/tmp/|~/|\$\w+/|\$\{\w+\}/)\S|\bsubprocess\.|\bos\.(?:system|exec\w*|spawn\w*)\s*\(|\bstart-process\b`)
)

// checkExec reports remote and decoded execution.
func checkExec(s *scanner, f *file) {
	low := f.lower()
	f.candidates(famExec, func(l span, _ family) {
		seen := map[string]bool{}
		for i := range execPatterns {
			p := &execPatterns[i]
			if seen[p.rule] {
				continue
			}
			if m := p.match(low[l.off:l.end]); m != nil {
				off, end := l.off+m[0], l.off+m[1]
				if f.tableCells(l, off, end) {
					continue
				}
				seen[p.rule] = true
				if mention(low[l.off:off], low[off:end]) {
					s.addAs(p.rule, Low, f, off, end, p.what+" (a mention: nothing is downloaded or decoded)")
					continue
				}
				s.add(p.rule, f, off, end, p.what)
			}
		}
	})
	if bytes.Contains(low, []byte("chmod")) {
		checkDownloadRun(s, f)
	}
}

// mention reports a pipeline written without its operand — "`curl | sh`",
// "base64 -d | bash" in a sentence warning about them — which names the
// technique but runs nothing: no address, variable or path for curl or
// wget, no input fed to base64.
func mention(before, match []byte) bool {
	cmd, _, ok := bytes.Cut(match, []byte("|"))
	if !ok {
		return false
	}
	if bytes.HasPrefix(match, []byte("base64")) {
		// fed by a pipe or a here-string before it, or given a file
		if bytes.ContainsAny(before, "|<") {
			return false
		}
		fields := bytes.Fields(cmd)
		for _, w := range fields[1:] {
			if w[0] != '-' {
				return false
			}
		}
		return true
	}
	if !bytes.HasPrefix(match, []byte("curl")) && !bytes.HasPrefix(match, []byte("wget")) {
		return false
	}
	return !bytes.ContainsAny(cmd, "$./:")
}

// checkDownloadRun reports a download, a chmod that makes a file
// executable and a run of a file within a few lines of each other.
func checkDownloadRun(s *scanner, f *file) {
	low := f.lower()
	f.candidates(famChmod, func(l span, _ family) {
		m := reChmodExec.FindSubmatchIndex(low[l.off:l.end])
		if m == nil || !executableMode(low[l.off:l.end], m) {
			return
		}
		before := f.around(l, -3, 0)
		after := f.around(l, 0, 3)
		// what runs after the chmod command, not the chmod's own arguments
		rest := low[l.off+m[1] : after.end]
		if i := bytes.IndexAny(rest, "&;|\n"); i >= 0 {
			rest = rest[i:]
		} else {
			rest = nil
		}
		if !reDownloadToFile.Match(low[before.off:before.end]) || !reRunFile.Match(rest) {
			return
		}
		s.add(RuleExecDownloadRun, f, l.off+m[0], l.off+m[1], "a downloaded file is made executable and run")
	})
}

// executableMode checks a numeric chmod mode for an execute bit.
func executableMode(line []byte, m []int) bool {
	for g := 1; g <= 2; g++ {
		if m[2*g] >= 0 {
			mode, err := strconv.ParseUint(string(line[m[2*g]:m[2*g+1]]), 8, 32)
			return err == nil && mode&0o111 != 0
		}
	}
	return true
}

// around returns the span from n lines before l (n < 0) to k lines after
// it.
func (f *file) around(l span, before, after int) span {
	data := f.data
	off := l.off
	for ; before < 0 && off > 0; before++ {
		off = bytes.LastIndexByte(data[:off-1], '\n') + 1
	}
	end := l.end
	for ; after > 0 && end < len(data); after-- {
		i := bytes.IndexByte(data[end+1:], '\n')
		if i < 0 {
			end = len(data)
			break
		}
		end += 1 + i
	}
	return span{off, end}
}

// tableCells reports a match in a Markdown table row that spans cells: the
// row's pipes are not a pipeline unless the match is inside one code span.
func (f *file) tableCells(l span, off, end int) bool {
	if f.kind != kindMarkdown || f.inFence(off) {
		return false
	}
	if row := bytes.TrimLeft(f.data[l.off:l.end], " "); len(row) == 0 || row[0] != '|' {
		return false
	}
	return !f.inCodeSpan(l, off) || bytes.IndexByte(f.data[off:end], '`') >= 0
}
