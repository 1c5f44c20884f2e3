package scan

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strings"
)

// secretPattern is one token format: the prefixes it starts with (the
// keyword index: the regexp runs only where one occurs), the pattern,
// anchored at the prefix, and how many bytes of a match may be shown.
type secretPattern struct {
	rule     string
	prefixes []string
	re       *regexp.Regexp
	max      int  // the longest match, bounding the window the regexp sees
	exact    bool // the format has a fixed length: a longer word is not it
	show     int  // bytes of the match kept in excerpts
	what     string
}

// The token formats, written from each vendor's published prefix and
// length.
var secretPatterns = []secretPattern{
	{RuleSecretGitHub, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`^gh[pousr]_[A-Za-z0-9]{36}`), 40, true, 8, "a GitHub token"},
	{RuleSecretGitHub, []string{"github_pat_"}, regexp.MustCompile(`^github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}`), 93, true, 15, "a GitHub fine-grained token"},
	{RuleSecretGitLab, []string{"glpat-"}, regexp.MustCompile(`^glpat-[A-Za-z0-9_\-]{20,}`), 120, false, 10, "a GitLab access token"},
	{RuleSecretSlack, []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"}, regexp.MustCompile(`^xox[abprs]-[0-9]{6,}-[A-Za-z0-9-]{6,}`), 160, false, 9, "a Slack token"},
	{RuleSecretAWS, []string{"AKIA", "ASIA"}, regexp.MustCompile(`^(?:AKIA|ASIA)[A-Z0-9]{16}`), 20, true, 8, "an AWS access key id"},
	{RuleSecretGCP, []string{"AIza"}, regexp.MustCompile(`^AIza[0-9A-Za-z_\-]{35}`), 39, true, 8, "a Google API key"},
	{RuleSecretAnthropic, []string{"sk-ant-"}, regexp.MustCompile(`^sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_\-]{32,}`), 200, false, 14, "an Anthropic API key"},
	{RuleSecretOpenAI, []string{"sk-"}, regexp.MustCompile(`^sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}`), 200, false, 7, "an OpenAI API key"},
}

// wordByte reports the bytes a token is made of, which may not come right
// before or after it.
func wordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '-'
}

// tokens calls fn with each match of p in the lines of data: at a
// prefix, not inside a longer word.
func (p secretPattern) tokens(data []byte, lines []span, fn func(off, end int)) {
	for _, l := range lines {
		p.tokensIn(data, l, fn)
	}
}

func (p secretPattern) tokensIn(data []byte, l span, fn func(off, end int)) {
	for _, pre := range p.prefixes {
		k := []byte(pre)
		for at := l.off; at < l.end; {
			i := bytes.Index(data[at:l.end], k)
			if i < 0 {
				break
			}
			off := at + i
			at = off + len(k)
			if off > 0 && wordByte(data[off-1]) {
				continue
			}
			w := data[off:min(len(data), off+p.max+1)]
			m := p.re.FindIndex(w)
			if m == nil {
				continue
			}
			end := off + m[1]
			if p.exact && end < len(data) && wordByte(data[end]) {
				continue // a longer word than the fixed-length format
			}
			fn(off, end)
			at = end
		}
	}
}

var (
	reIdentPath      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$`)
	reServiceAccount = regexp.MustCompile(`"type"\s*:\s*"service_account"`)
	rePrivateKeyID   = regexp.MustCompile(`"private_key_id"\s*:\s*"([0-9a-f]{40})"`)
	rePrivateKey     = regexp.MustCompile(`-----BEGIN ((?:RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP|SSH2) )?PRIVATE KEY( BLOCK)?-----`)
	// a name ending in _TOKEN, _KEY, _SECRET or _PASSWORD (any case),
	// optionally quoted, then = or :, then a literal.
	reAssignment = regexp.MustCompile(`(?i)\b([A-Za-z0-9_]*(?:_token|_key|_secret|_password|_passwd))["']?\s*(?::=|=|:)\s*["']?([A-Za-z0-9+/=_\-.]{16,200})(["'\s,;]|$)`)
)

// checkSecrets finds token formats, private keys and secret-looking
// assignments. It runs first among the text checks: every excerpt of the
// file masks what it found.
func checkSecrets(s *scanner, f *file) {
	data := f.data
	var lines []span
	f.candidates(famSecret, func(l span, _ family) { lines = append(lines, l) })
	for _, p := range secretPatterns {
		p.tokens(data, lines, func(off, end int) {
			tok := data[off:end]
			if p.rule == RuleSecretOpenAI && bytes.HasPrefix(tok, []byte("sk-ant-")) {
				return
			}
			if placeholder(string(tok[min(p.show, len(tok)):])) || placeholder(string(tok)) {
				return
			}
			s.addSecret(p.rule, f, off, off+min(p.show, len(tok)), end, p.what+" in clear text")
		})
	}
	if bytes.Contains(data, []byte("service_account")) && reServiceAccount.Match(data) {
		if m := rePrivateKeyID.FindSubmatchIndex(data); m != nil && !placeholder(string(data[m[2]:m[3]])) {
			s.addSecret(RuleSecretGCP, f, m[2], m[2]+4, m[3], "a Google Cloud service-account key file (private_key_id and its private key)")
		}
	}
	if bytes.Contains(data, []byte("PRIVATE KEY-----")) {
		for _, m := range rePrivateKey.FindAllIndex(data, -1) {
			body, ok := keyBody(data, m[1])
			if !ok {
				continue
			}
			// the header may be shown; the body is masked
			s.addSecret(RuleSecretPrivateKey, f, m[0], body.off, body.end, "a private key block with its key material")
		}
	}
	checkAssignments(s, f)
}

// keyBody returns the key material after a BEGIN line: at least 64
// base64 characters before the END line (or 8 lines), so that a header
// shown with "..." or "<key>" under it is not a key.
func keyBody(data []byte, at int) (span, bool) {
	rest := data[at:]
	stop := bytes.Index(rest, []byte("-----END"))
	if stop < 0 {
		stop = min(len(rest), 8*80)
	}
	n := 0
	for _, b := range rest[:stop] {
		switch {
		case 'A' <= b && b <= 'Z', 'a' <= b && b <= 'z', '0' <= b && b <= '9', b == '+', b == '/', b == '=':
			n++
		case b == '.', b == '<', b == '>', b == '*':
			return span{}, false
		}
	}
	if n < 64 {
		return span{}, false
	}
	start := at
skip:
	for start < at+stop {
		switch {
		case data[start] == '\n' || data[start] == '\r' || data[start] == ' ' || data[start] == '"':
			start++
			continue
		case data[start] == '\\' && start+1 < at+stop && data[start+1] == 'n':
			start += 2
			continue
		}
		break skip
	}
	return span{start, at + stop}, true
}

func checkAssignments(s *scanner, f *file) {
	f.candidates(famAssign, func(l span, _ family) {
		line := f.data[l.off:l.end]
		for _, m := range reAssignment.FindAllSubmatchIndex(line, -1) {
			val := string(line[m[4]:m[5]])
			if publicName(line[m[2]:m[3]]) || !randomLooking(val) {
				continue
			}
			off, end := l.off+m[4], l.off+m[5]
			if f.overlapsSecret(off, end) {
				continue
			}
			s.addSecret(RuleSecretAssignment, f, off, off+min(4, end-off), end,
				"a random-looking literal assigned to "+strings.ToUpper(string(line[m[2]:m[3]])))
		}
	})
}

// publicName reports a name whose value is public by nature: a public
// key, a GPG fingerprint, a checksum (GPG_KEY=7169605F… in Dockerfiles).
func publicName(name []byte) bool {
	low := bytes.ToLower(name)
	for _, w := range []string{"public", "pub_", "gpg", "pgp", "fingerprint", "checksum", "hash", "sha", "_id_key", "primary_key", "foreign_key", "sort_key", "partition_key", "cache_key"} {
		if bytes.Contains(low, []byte(w)) {
			return true
		}
	}
	return false
}

func (f *file) overlapsSecret(off, end int) bool {
	i := f.firstSecretEndingAfter(off)
	return i < len(f.secrets) && f.secrets[i].off < end
}

// firstSecretEndingAfter returns the index of the first secret (sorted by
// offset; secrets do not overlap) that ends after off.
func (f *file) firstSecretEndingAfter(off int) int {
	i, _ := slices.BinarySearchFunc(f.secrets, off, func(s secretSpan, off int) int {
		if s.end <= off {
			return -1
		}
		return 1
	})
	return i
}

// addSecret records a secret finding and the span later excerpts mask.
func (s *scanner) addSecret(rule string, f *file, off, keep, end int, message string) {
	f.addSecretSpan(secretSpan{off, keep, end})
	s.add(rule, f, off, end, message)
}

// addSecretSpan inserts a span into the file's sorted, disjoint secret
// spans, merging it with the spans it overlaps (a token inside a key
// block).
func (f *file) addSecretSpan(n secretSpan) {
	i := f.firstSecretEndingAfter(n.off)
	j := i
	for j < len(f.secrets) && f.secrets[j].off < n.end {
		o := f.secrets[j]
		n = secretSpan{min(n.off, o.off), min(n.keep, o.keep), max(n.end, o.end)}
		j++
	}
	f.secrets = slices.Replace(f.secrets, i, j, n)
}

// placeholder reports text that stands for a secret rather than being one:
// documented examples, "xxxx", "<your-token>", "${VAR}", one repeated
// character, or too few distinct characters to be random.
func placeholder(v string) bool {
	low := strings.ToLower(v)
	for _, w := range []string{"example", "xxxx", "your", "placeholder", "dummy", "sample", "fake", "redacted", "changeme", "replace", "0000", "1234", "abcd", "...", "…", "<", ">", "${", "{{", "****"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	distinct := map[rune]bool{}
	for _, r := range low {
		distinct[r] = true
	}
	return len(distinct) < 6 || (len(v) >= 20 && len(distinct) < 10)
}

// randomLooking reports a literal that looks like a generated secret: not
// a placeholder, letters and digits mixed, and at least 3.5 bits of
// entropy per character (a word, a path or a version has less).
func randomLooking(v string) bool {
	if placeholder(v) {
		return false
	}
	var upper, lower, digit bool
	for _, c := range v {
		switch {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z':
			lower = true
		case '0' <= c && c <= '9':
			digit = true
		}
	}
	if !digit || !(upper || lower) {
		return false
	}
	// a dotted or slashed name (a.b.c, path/to/x, a domain, a type such
	// as ed25519.Ed25519PublicKey) is not a secret; a JWT (eyJ…) is
	if !strings.HasPrefix(v, "eyJ") && (strings.Count(v, ".") >= 2 || strings.HasPrefix(v, "/") || reIdentPath.MatchString(v)) {
		return false
	}
	return entropy(v) >= 3.5
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	h := 0.0
	for _, c := range n {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
