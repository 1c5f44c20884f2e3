package policy

import (
	"net"
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// Subject returns what host patterns are matched against for a URL or a
// path: "host[:port]/path" for a URL with a host (https, http, ssh, git,
// and scp-like user@host:path), without the scheme, user information,
// query, fragment, a trailing ".git" or trailing slashes, the host
// lower-cased; "file:///abs/path" for a file:// URL or an absolute path
// (a folder or an archive on this machine). Other strings are returned
// as they are ("bundled:").
func Subject(raw string) string {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return ""
	case strings.HasPrefix(raw, "file://"):
		p, _, _ := strings.Cut(strings.TrimPrefix(raw, "file://"), "#")
		return "file://" + cleanAbs(p)
	case filepath.IsAbs(raw) || strings.HasPrefix(raw, "/"):
		return "file://" + cleanAbs(filepath.ToSlash(raw))
	case strings.Contains(raw, "://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return raw
		}
		return hostPath(u.Host, u.Path)
	}
	// scp-like git: [user@]host:path
	if i := strings.Index(raw, ":"); i > 0 && !strings.Contains(raw[:i], "/") && raw[i+1:] != "" {
		host := raw[:i]
		if at := strings.LastIndex(host, "@"); at >= 0 {
			host = host[at+1:]
		}
		p, _, _ := strings.Cut(raw[i+1:], "#")
		return hostPath(host, p)
	}
	return raw
}

func cleanAbs(p string) string {
	p = path.Clean("/" + p)
	return p
}

func hostPath(host, p string) string {
	p = strings.Trim(p, "/")
	p = strings.TrimSuffix(p, ".git")
	p = strings.TrimRight(p, "/")
	host = strings.ToLower(host)
	if p == "" {
		return host
	}
	return host + "/" + p
}

// candidates returns the strings a host pattern may match for subject:
// the subject and each of its leading parts that ends before a "/", so
// that "github.com" and "github.com/acme" both match
// "github.com/acme/skills"; and the same without the port, so that a host
// pattern also matches the host on any port. Lower-cased: a pattern
// matches case-insensitively.
func candidates(subject string) []string {
	s := strings.ToLower(subject)
	var out []string
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			if s[i] == '/' && i > 0 {
				out = append(out, s[:i])
			}
		}
		out = append(out, s)
	}
	add(s)
	first, rest, _ := strings.Cut(s, "/")
	if h, port, err := net.SplitHostPort(first); err == nil && h != "" && port != "" {
		if rest != "" {
			add(h + "/" + rest)
		} else {
			add(h)
		}
	}
	return out
}

// matchSubject reports whether the host pattern glob matches subject.
func matchSubject(glob, subject string) bool {
	if subject == "" {
		return false
	}
	g := strings.ToLower(glob)
	for _, c := range candidates(subject) {
		if ok, _ := path.Match(g, c); ok {
			return true
		}
	}
	return false
}

// matchName reports whether glob matches a name exactly (registry names,
// capabilities, skills).
func matchName(glob, name string) bool {
	ok, _ := path.Match(glob, name)
	return ok
}
