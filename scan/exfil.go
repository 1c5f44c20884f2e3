package scan

import (
	"bytes"
	"regexp"
)

// Exfiltration: a network command on a logical line that also carries the
// environment or credentials as its data.

// exfilMaterial are the words one of the material patterns needs: a line
// without any is not read further.
var exfilMaterial = []string{"env", "$", "set |", "export -p", "/.", "id_", "git "}

var (
	// a network command that sends data
	reSender = regexp.MustCompile(
		`\bcurl\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode|-ascii)?|-f|--form(?:-string)?|-t|--upload-file|--json)(?:\s|=|@|'|"|$)` +
			`|\bwget\b[^\n]*--(?:post-data|post-file|body-data|body-file)\b` +
			`|\|\s*(?:nc|ncat|netcat|socat)\b|\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*[\w.-]+\s+\d+\s*<` +
			`|>\s*/dev/tcp/` +
			`|\b(?:requests|httpx|session|client|http)\.(?:post|put|patch)\s*\(` +
			`|\burlopen\s*\([^)]*data\s*=|\burllib\.request\.request\s*\([^)]*data\s*=` +
			`|\bfetch\s*\([^)]*method\s*:\s*['"](?:post|put|patch)|\baxios\.(?:post|put|patch)\s*\(` +
			`|\b(?:invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n]*-(?:body|infile)\b`)
	// a pipe into a network command: what is before it is sent
	rePipeSender = regexp.MustCompile(`\|\s*(?:curl|wget|nc|ncat|netcat|socat|invoke-webrequest|invoke-restmethod|iwr|irm)\b`)
	// the parts of a request that authenticate it: a token there is used,
	// not sent away
	// (curl -H with an authentication header's name, -u, --oauth2-bearer;
	// a Python or JavaScript Authorization entry, auth= tuple)
	reAuthPart = regexp.MustCompile(`(?:-h|--header)(?:\s+|=)["']?` + authHeader + `\s*:[^"'\n]*["']?|(?:--oauth2-bearer|-u|--user|--proxy-user)(?:\s+|=)(?:"[^"\n]*"|'[^'\n]*'|\S+)|["']?` + authHeader + `["']?\s*:\s*(?:f?"[^"\n]*"|f?'[^'\n]*'|` + "`[^`\n]*`" + `|[^,}\n]*)|\bauth\s*=\s*\([^)\n]*\)`)
	// a network command of any kind: the whole environment on its line is
	// never a request's authentication
	reAnySender = regexp.MustCompile(`\b(?:curl|wget|nc|ncat|netcat|socat|invoke-webrequest|invoke-restmethod|iwr|irm)\b|/dev/tcp/|\b(?:requests|httpx|axios)\.\w+\s*\(|\burlopen\s*\(|\bfetch\s*\(`)

	authHeader = `(?:authorization|proxy-authorization|x-api-key|api-key|x-auth-token|private-token|job-token|x-[a-z-]*(?:token|key)|[a-z-]*-token|cookie)`

	reEnvDump    = regexp.MustCompile(`\$\(\s*(?:env|printenv|set|export\s+-p)\s*\)|` + "`" + `\s*(?:env|printenv)\s*` + "`" + `|\b(?:env|printenv|set|export\s+-p)\s*\||\bprintenv\b|/proc/\S*/environ|\bos\.environ\b\s*(?:[),]|\.copy|\.items|$)|\bdict\s*\(\s*os\.environ\s*\)|\bprocess\.env\b\s*(?:[),]|$)|\bget-childitem\s+env:|\bgci\s+env:|\bdir\s+env:`)
	reEnvSecret  = regexp.MustCompile(`\$\{?\w*(?:token|secret|password|passwd|api_?key|access_?key|private_?key|credentials?|_key)\b\}?|\$env:\w*(?:token|secret|password|key)\b|\b(?:os\.environ\s*\[|os\.environ\.get\s*\(|os\.getenv\s*\(|process\.env\.|process\.env\s*\[|environ\s*\[)\s*['"]?\w*(?:token|secret|password|passwd|key|credentials?)`)
	reCredential = regexp.MustCompile(`(?:~|\$home|\$\{home\}|%userprofile%|\$env:userprofile|expanduser\(\s*['"]~|/home/\w+|/root)/\.(?:ssh|aws|gnupg|kube|docker/config\.json|netrc|npmrc|git-credentials|pypirc|config/gh|config/gcloud|azure)\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws/credentials\b|(?:^|[\s@'"=(<])\.env(?:\.local|\.production|\.prod)?(?:$|[\s'")>;|])|\bgit\s+(?:bundle|archive)\b|\btar\s[^|\n]*\s\.git\b`)
	reAssignFrom = regexp.MustCompile(`^\s*(?:export\s+|const\s+|let\s+|var\s+|\$)?([a-z_][a-z0-9_]*)\s*:?=\s*`)
)

var credentialKeywords = []string{"/.ssh", "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "/.aws", "/.gnupg", "/.kube", "/.docker", "/.netrc", "/.npmrc", "/.git-credentials", "/.pypirc", "/.config/gh", "/.config/gcloud", "/.azure", ".env", "git bundle", "git archive", ".git"}

// checkExfil reports a network command that sends the environment or
// credentials, on one logical line or from a variable a line just before
// it read them into.
func checkExfil(s *scanner, f *file) {
	low := f.lower()
	hasCred := false
	for _, k := range credentialKeywords {
		if bytes.Contains(low, []byte(k)) {
			hasCred = true
			break
		}
	}
	f.candidates(famExfil, func(l span, _ family) {
		line := low[l.off:l.end]
		material := false
		for _, w := range exfilMaterial {
			if bytes.Contains(line, []byte(w)) {
				material = true
				break
			}
		}
		if !material {
			return
		}
		at := func(m []int) (int, int) { return l.off + m[0], l.off + m[1] }
		// the whole environment with any network command, in a header or
		// a URL as much as in the data
		dump := reEnvDump.FindIndex(line)
		if dump != nil && reAnySender.Match(line) {
			off, end := at(dump)
			s.add(RuleExfilEnv, f, off, end, "the environment is sent over the network")
		}
		sender := reSender.FindIndex(line)
		piped := rePipeSender.FindIndex(line)
		if sender == nil && piped == nil {
			return
		}
		// blank the authentication parts, keeping offsets
		text := reAuthPart.ReplaceAllFunc(bytes.Clone(line), func(b []byte) []byte { return bytes.Repeat([]byte(" "), len(b)) })
		if dump != nil {
			// reported above
		} else if m := reEnvSecret.FindIndex(text); m != nil && (sender != nil || m[0] < piped[0]) {
			off, end := at(m)
			s.add(RuleExfilEnv, f, off, end, "a secret from the environment is sent over the network")
		}
		if !hasCred {
			return
		}
		if m := credentialIn(text); m != nil && (sender != nil || m[0] < piped[0]) {
			off, end := at(m)
			s.add(RuleExfilCredentials, f, off, end, "credentials or the repository are sent over the network")
			return
		}
		// a variable read from credentials a few lines before
		if sender == nil {
			return
		}
		prev := f.around(l, -5, 0)
		for _, pl := range splitLines(low, prev.off, l.off) {
			pline := low[pl.off:pl.end]
			cm := credentialIn(pline)
			am := reAssignFrom.FindSubmatchIndex(pline)
			if cm == nil || am == nil || am[1] > cm[0] {
				continue
			}
			name := pline[am[2]:am[3]]
			if len(name) < 2 || !containsWord(text, name) {
				continue
			}
			s.add(RuleExfilCredentials, f, pl.off+cm[0], pl.off+cm[1], "credentials or the repository are read into $"+string(name)+" and sent over the network")
			return
		}
	})
}

// credentialIn returns the first credential reference in text that is not
// a public key (~/.ssh/id_ed25519.pub is meant to be shared).
func credentialIn(text []byte) []int {
	for _, m := range reCredential.FindAllIndex(text, -1) {
		end := m[1]
		for end < len(text) && (identByte(text[end]) || text[end] == '.' || text[end] == '/' || text[end] == '-') {
			end++
		}
		if !bytes.HasSuffix(text[m[0]:end], []byte(".pub")) {
			return m
		}
	}
	return nil
}

// splitLines returns the lines of data[off:end].
func splitLines(data []byte, off, end int) []span {
	var out []span
	for off < end {
		i := bytes.IndexByte(data[off:end], '\n')
		if i < 0 {
			out = append(out, span{off, end})
			break
		}
		out = append(out, span{off, off + i})
		off += i + 1
	}
	return out
}

// containsWord reports whether w occurs in text as a whole identifier.
func containsWord(text, w []byte) bool {
	for at := 0; at < len(text); {
		i := bytes.Index(text[at:], w)
		if i < 0 {
			return false
		}
		i += at
		j := i + len(w)
		if (i == 0 || !identByte(text[i-1])) && (j == len(text) || !identByte(text[j])) {
			return true
		}
		at = j
	}
	return false
}

func identByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}
