package gitrun

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// URLError is a remote that git must not be given.
type URLError struct {
	// URL is the refused remote, without user information, quoted with Go
	// escapes.
	URL string
	// Reason says which rule it breaks.
	Reason string
}

// Error returns "git remote", the remote and why it is refused.
func (e *URLError) Error() string { return "git remote " + e.URL + " " + e.Reason }

var (
	// transportRE matches git's "<transport>::<address>" syntax, which
	// runs the remote helper git-remote-<transport> (ext:: runs any
	// command).
	transportRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9+.-]*::`)
	// scpLikeRE matches git's scp-like syntax: [user@]host:path, with no
	// '/' before the first ':'.
	scpLikeRE = regexp.MustCompile(`^(?:([^@/:]+)@)?([^@/:]+):(.*)$`)
)

// protocols maps the URL schemes a remote may use to git's protocol names
// (those of protocol.<name>.allow).
var protocols = map[string]string{
	"https": "https", "http": "http", "ssh": "ssh", "git+ssh": "ssh", "ssh+git": "ssh", "git": "git", "file": "file",
}

// CheckURL reports whether git may be given raw as a remote, and the
// protocol git will use for it: "https", "http", "ssh", "git" or "file".
// It refuses an empty remote, one starting with '-' (it would read as an
// option), one holding control characters or a line break (which git's
// credential protocol once let through), the transport::address form
// (ext:: runs a command), a scheme other than https, http, ssh, git and
// file, and a host or user starting with '-' (which ssh would read as an
// option). A scp-like user@host:path is ssh; an absolute path is file.
func CheckURL(raw string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", &URLError{URL: Quote(Scrub(raw, nil)), Reason: why}
	}
	switch {
	case raw == "":
		return refuse("is empty")
	case strings.HasPrefix(raw, "-"):
		return refuse("must not start with '-'")
	case strings.ContainsFunc(raw, func(c rune) bool { return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) }):
		return refuse("contains a control character or a line break")
	case transportRE.MatchString(raw):
		return refuse("uses a remote helper (transport::address); only https, ssh, git and file URLs are allowed")
	}
	if scheme, _, ok := strings.Cut(raw, "://"); ok && !strings.ContainsAny(scheme, "/@:") {
		proto, known := protocols[strings.ToLower(scheme)]
		if !known {
			return refuse("has the unsupported scheme " + Quote(scheme) + "; use https, ssh, git or file")
		}
		u, err := url.Parse(raw)
		if err != nil {
			return refuse("is not a valid URL")
		}
		if proto != "file" && u.Host == "" {
			return refuse("has no host")
		}
		if strings.HasPrefix(u.Hostname(), "-") || strings.HasPrefix(u.User.Username(), "-") {
			return refuse("has a host or user starting with '-'")
		}
		return proto, nil
	}
	if filepath.IsAbs(raw) || strings.HasPrefix(raw, "/") {
		return "file", nil
	}
	if m := scpLikeRE.FindStringSubmatch(raw); m != nil {
		if strings.HasPrefix(m[1], "-") || strings.HasPrefix(m[2], "-") {
			return refuse("has a host or user starting with '-'")
		}
		return "ssh", nil
	}
	return refuse("is neither a URL nor an absolute path")
}
