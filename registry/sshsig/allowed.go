package sshsig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// MaxAllowedSignersSize bounds an allowed_signers file.
const MaxAllowedSignersSize = 256 << 10

// maxLine bounds one line of an allowed_signers file (an RSA-16384 key is
// under 3 KiB in base64).
const maxLine = 8 << 10

// AllowedSigner is one line of an allowed_signers file (ssh-keygen(1),
// "ALLOWED SIGNERS"): the principals the key stands for, the namespaces
// it may sign for and the window in which it is valid.
type AllowedSigner struct {
	// Line is the 1-based line of the file, for messages.
	Line int
	// Principals are the comma-separated principal patterns of the first
	// field, in order.
	Principals []string
	// Namespaces is the namespaces="…" pattern list; empty means any.
	Namespaces []string
	// ValidAfter and ValidBefore bound when the key is valid; zero means
	// unbounded.
	ValidAfter, ValidBefore time.Time
	// Key is the public key.
	Key ssh.PublicKey
}

// Problem is one fault in an allowed_signers file.
type Problem struct {
	// Line is the 1-based line number.
	Line int
	// Message says what is wrong.
	Message string
}

// ParseError lists every problem ParseAllowedSigners found.
type ParseError struct {
	// Problems are in line order.
	Problems []Problem
}

// Error returns the first problem and how many more there are.
func (e *ParseError) Error() string {
	if len(e.Problems) == 0 {
		return "allowed_signers: invalid"
	}
	p := e.Problems[0]
	msg := fmt.Sprintf("allowed_signers line %d: %s", p.Line, p.Message)
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// Lines returns every problem as "line N: message".
func (e *ParseError) Lines() []string {
	out := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		out = append(out, fmt.Sprintf("line %d: %s", p.Line, p.Message))
	}
	return out
}

// ParseAllowedSigners reads an allowed_signers file: one signer a line,
// "principals [options] keytype base64-key [comment]", with blank lines
// and "#" comments ignored. Principals may be double-quoted. The options
// understood are namespaces="pattern-list", valid-after="time" and
// valid-before="time" (YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, UTC when
// suffixed with Z and local time otherwise, as ssh-keygen reads them);
// cert-authority, and any unknown option, is refused. Every problem is
// reported, each with its line, in a *ParseError; a file over
// MaxAllowedSignersSize or without any signer is an error too.
func ParseAllowedSigners(data []byte) ([]AllowedSigner, error) {
	if len(data) > MaxAllowedSignersSize {
		return nil, &ParseError{Problems: []Problem{{Line: 0, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(data), MaxAllowedSignersSize)}}}
	}
	var out []AllowedSigner
	var problems []Problem
	for i, raw := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		line := strings.TrimSpace(strings.TrimSuffix(string(raw), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) > maxLine {
			problems = append(problems, Problem{n, fmt.Sprintf("line is %d bytes, over the %d-byte limit", len(line), maxLine)})
			continue
		}
		a, err := parseLine(line)
		if err != nil {
			problems = append(problems, Problem{n, err.Error()})
			continue
		}
		a.Line = n
		out = append(out, a)
	}
	if len(problems) == 0 && len(out) == 0 {
		problems = append(problems, Problem{0, "no signer: every line is blank or a comment"})
	}
	if len(problems) > 0 {
		return nil, &ParseError{Problems: problems}
	}
	return out, nil
}

func parseLine(line string) (AllowedSigner, error) {
	var a AllowedSigner
	var principals, rest string
	if strings.HasPrefix(line, `"`) {
		end := strings.IndexByte(line[1:], '"')
		if end < 0 {
			return a, errors.New("unterminated quoted principals")
		}
		principals, rest = line[1:1+end], line[2+end:]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return a, errors.New("no space after the quoted principals")
		}
	} else {
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return a, errors.New("no key after the principals")
		}
		principals, rest = line[:i], line[i:]
	}
	for _, p := range strings.Split(principals, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return a, errors.New("empty principal")
		}
		a.Principals = append(a.Principals, p)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return a, errors.New("no key after the principals")
	}
	key, _, options, _, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return a, fmt.Errorf("cannot read the key: %v", strings.TrimPrefix(err.Error(), "ssh: "))
	}
	a.Key = key
	if err := checkKey(key); err != nil {
		return a, err
	}
	for _, opt := range options {
		name, value, hasValue := strings.Cut(opt, "=")
		name = strings.ToLower(name)
		if hasValue {
			v, err := unquote(value)
			if err != nil {
				return a, fmt.Errorf("option %s: %v", name, err)
			}
			value = v
		}
		switch name {
		case "cert-authority":
			return a, errors.New("cert-authority is not supported: list the signing keys themselves")
		case "namespaces":
			if !hasValue || value == "" {
				return a, errors.New(`namespaces needs a value, e.g. namespaces="agent-skills"`)
			}
			a.Namespaces = strings.Split(value, ",")
		case "valid-after", "valid-before":
			if !hasValue {
				return a, fmt.Errorf("%s needs a time, e.g. %s=\"20260101\"", name, name)
			}
			t, err := parseTime(value)
			if err != nil {
				return a, fmt.Errorf("%s: %v", name, err)
			}
			if name == "valid-after" {
				a.ValidAfter = t
			} else {
				a.ValidBefore = t
			}
		default:
			return a, fmt.Errorf("unknown option %q", name)
		}
	}
	if !a.ValidAfter.IsZero() && !a.ValidBefore.IsZero() && !a.ValidBefore.After(a.ValidAfter) {
		return a, errors.New("valid-before is not after valid-after")
	}
	return a, nil
}

func unquote(v string) (string, error) {
	if !strings.HasPrefix(v, `"`) {
		return v, nil
	}
	if len(v) < 2 || !strings.HasSuffix(v, `"`) {
		return "", errors.New("unterminated quote")
	}
	return strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`), nil
}

// parseTime reads ssh-keygen's absolute times.
func parseTime(v string) (time.Time, error) {
	loc := time.Local
	if s, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = s, time.UTC
	}
	var layout string
	switch len(v) {
	case 8:
		layout = "20060102"
	case 12:
		layout = "200601021504"
	case 14:
		layout = "20060102150405"
	default:
		return time.Time{}, fmt.Errorf("%q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	return t, nil
}

// refuses says why a is not valid for namespace at now, or "".
func (a AllowedSigner) refuses(namespace string, now time.Time) string {
	if len(a.Namespaces) > 0 && !matchList(namespace, a.Namespaces) {
		return fmt.Sprintf("namespaces=%q does not include %q", strings.Join(a.Namespaces, ","), namespace)
	}
	if !a.ValidAfter.IsZero() && now.Before(a.ValidAfter) {
		return "not valid before " + a.ValidAfter.UTC().Format(time.RFC3339)
	}
	if !a.ValidBefore.IsZero() && !now.Before(a.ValidBefore) {
		return "expired at " + a.ValidBefore.UTC().Format(time.RFC3339)
	}
	return ""
}

// Allows reports whether the line admits its key for namespace at now.
func (a AllowedSigner) Allows(namespace string, now time.Time) bool {
	return a.refuses(namespace, now) == ""
}

// Fingerprint returns the key's SHA256 fingerprint.
func (a AllowedSigner) Fingerprint() string {
	if a.Key == nil {
		return ""
	}
	return ssh.FingerprintSHA256(a.Key)
}

// matchList is OpenSSH's match_pattern_list: the patterns are tried in
// order, a "!pattern" that matches refuses outright, and otherwise any
// matching pattern admits.
func matchList(s string, patterns []string) bool {
	ok := false
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if neg, found := strings.CutPrefix(p, "!"); found {
			if match(s, neg) {
				return false
			}
			continue
		}
		if match(s, p) {
			ok = true
		}
	}
	return ok
}

// match is a glob with "*" (any run) and "?" (one byte).
func match(s, p string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if match(s[i:], p) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		s, p = s[1:], p[1:]
	}
	return s == ""
}
