package source

import (
	"net/url"
	"path/filepath"
	"strings"
)

// Identity returns the canonical source id of r: the string the lock
// records as `source` and the key by which two references to the same
// repository are recognised as one. getenv (may be nil) supplies
// AGENT_SKILLS_GITHUB_URL and AGENT_SKILLS_GITLAB_URL, so that a clone URL
// under an overridden host maps to the same id as the shorthand.
//
//   - GitHub: "github:owner/repo", lower-cased; owner/repo, github:owner/repo,
//     https://github.com/Owner/Repo(.git), git@github.com:owner/repo.git and
//     ssh://git@github.com/owner/repo all give the same id.
//   - GitLab: "gitlab:group/sub/repo", lower-cased.
//   - other git URLs: "https://host[:port]/path" with the host lower-cased,
//     user information, a trailing ".git" and slashes removed, whatever
//     the scheme (https, http, ssh, git, scp-like user@host:path);
//     file:// URLs keep their path as written (minus trailing slashes).
//   - a local folder or archive: its absolute path; an archive URL: the
//     URL without user information or fragment.
//   - an MCP server: "mcp:" and its command's words, each quoted only
//     when it must be (see joinWords), or "mcp+https://host[:port]/path"
//     with the host lower-cased (see mcpIdentity).
func Identity(r Ref, getenv func(string) string) string {
	switch r.Kind {
	case KindGitHub:
		return "github:" + strings.ToLower(r.Repo)
	case KindGitLab:
		return "gitlab:" + strings.ToLower(r.Repo)
	case KindLocal:
		return r.URL
	case KindMCP:
		return mcpIdentity(r)
	case KindArchive:
		if u, err := url.Parse(r.URL); err == nil && u.Scheme != "" {
			u.User, u.Fragment = nil, ""
			return u.String()
		}
		return r.URL
	}
	return gitIdentity(r.URL, getenv)
}

// Record returns the source of r as skills.lock records it, and as a
// restore and update reach it again: Identity, except that a reference
// over ssh keeps its transport and user, so that a teammate restores
// git@host:owner/repo over ssh, as it was installed, and not over https
// (which a private repository may refuse without a token).
//
//   - scp-like user@host:path: "user@host:path", the host lower-cased and
//     the path as written (relative to the ssh user's home) minus
//     trailing slashes and ".git";
//   - ssh://user@host[:port]/path (and git+ssh, ssh+git):
//     "ssh://user@host[:port]/path", the same way;
//   - GitHub and GitLab paths are lower-cased, as in Identity.
//
// A password in an ssh URL is never recorded. Two records of one
// repository, whatever their transport, are one source (SameSource).
func Record(r Ref, getenv func(string) string) string {
	if r.Kind == KindGit {
		if rec, ok := sshRecord(r.URL); ok {
			return rec
		}
	}
	return Identity(r, getenv)
}

// sshRecord is Record of a git URL over ssh; ok is false for any other.
func sshRecord(raw string) (string, bool) {
	raw, _, _ = strings.Cut(raw, "#")
	fold := func(host, p string) string {
		if host == "github.com" || host == "www.github.com" || host == "gitlab.com" {
			return strings.ToLower(p)
		}
		return p
	}
	if !strings.Contains(raw, "://") {
		m := scpRE.FindStringSubmatch(raw)
		if m == nil {
			return "", false
		}
		user, _, _ := strings.Cut(raw, "@")
		if !strings.Contains(raw[:strings.Index(raw, ":")], "@") {
			user = ""
		}
		host := strings.ToLower(m[1])
		p := fold(host, trimGit(strings.TrimRight(m[2], "/")))
		if user == "" {
			return host + ":" + p, true
		}
		return user + "@" + host + ":" + p, true
	}
	u, ok := parseGitURL(raw)
	if !ok || u.Scheme != "ssh" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && port != "22" {
		host += ":" + port
	}
	auth := ""
	if u.User != nil && u.User.Username() != "" {
		auth = u.User.Username() + "@"
	}
	return "ssh://" + auth + host + "/" + fold(strings.ToLower(u.Hostname()), trimGit(strings.Trim(u.Path, "/"))), true
}

// SameSource reports whether two recorded sources (Record, or Identity
// as older locks and receipts hold it) are one repository, folder or
// archive: git@github.com:o/r, ssh://git@github.com/o/r and github:o/r
// are one, as are git@host:team/x and https://host/team/x.
func SameSource(a, b string) bool {
	return a == b || sourceKey(a) == sourceKey(b)
}

// sourceKey is the transport-free identity of a recorded source.
func sourceKey(s string) string {
	switch {
	case strings.HasPrefix(s, "github:"), strings.HasPrefix(s, "gitlab:"), isMCPSyntax(s):
		return s
	case filepath.IsAbs(s):
		return filepath.Clean(s)
	case isArchiveName(s) && (strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")):
		return s
	}
	return gitIdentity(s, nil)
}

// gitIdentity canonicalises a git URL.
func gitIdentity(raw string, getenv func(string) string) string {
	for _, h := range []struct {
		env, prefix, def string
	}{{"AGENT_SKILLS_GITHUB_URL", "github:", defaultGitHub}, {"AGENT_SKILLS_GITLAB_URL", "gitlab:", defaultGitLab}} {
		base := h.def
		if getenv != nil && getenv(h.env) != "" {
			base = getenv(h.env)
		}
		if rest, ok := underBase(raw, base); ok {
			return h.prefix + strings.ToLower(rest)
		}
		if rest, ok := underBase(raw, h.def); ok {
			return h.prefix + strings.ToLower(rest)
		}
	}
	u, ok := parseGitURL(raw)
	if !ok {
		return strings.TrimRight(raw, "/")
	}
	if u.Scheme == "file" {
		return "file://" + strings.TrimRight(u.Path, "/")
	}
	host := strings.ToLower(u.Hostname())
	switch host {
	case "github.com", "www.github.com":
		return "github:" + strings.ToLower(trimGit(strings.Trim(u.Path, "/")))
	case "gitlab.com":
		return "gitlab:" + strings.ToLower(trimGit(strings.Trim(u.Path, "/")))
	}
	if p := u.Port(); p != "" && (u.Scheme == "https" || u.Scheme == "http") && p != "443" && p != "80" {
		host += ":" + p
	}
	return "https://" + host + "/" + trimGit(strings.Trim(u.Path, "/"))
}

// underBase reports whether the git URL raw is a repository under base
// (compared without scheme case, user information or a trailing slash)
// and returns the repository path without ".git".
func underBase(raw, base string) (string, bool) {
	bu, ok1 := parseGitURL(base)
	ru, ok2 := parseGitURL(raw)
	if !ok1 || !ok2 {
		return "", false
	}
	sameScheme := bu.Scheme == ru.Scheme || (bu.Scheme != "file" && ru.Scheme != "file")
	if !sameScheme || !strings.EqualFold(bu.Hostname(), ru.Hostname()) {
		return "", false
	}
	bp := strings.TrimRight(bu.Path, "/") + "/"
	if bu.Scheme == "file" && ru.Scheme == "file" {
		bp = filepath.ToSlash(filepath.Clean(bu.Path)) + "/"
	}
	if !strings.HasPrefix(ru.Path, bp) {
		return "", false
	}
	rest := trimGit(strings.Trim(strings.TrimPrefix(ru.Path, bp), "/"))
	if rest == "" || !strings.Contains(rest, "/") {
		return "", false
	}
	return rest, true
}

// parseGitURL parses a git URL, turning the scp-like user@host:path form
// into ssh://user@host/path.
func parseGitURL(raw string) (*url.URL, bool) {
	raw, _, _ = strings.Cut(raw, "#")
	if !strings.Contains(raw, "://") {
		if m := scpRE.FindStringSubmatch(raw); m != nil {
			raw = "ssh://" + strings.Replace(raw, ":", "/", 1)
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil, false
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme == "git+ssh" || u.Scheme == "ssh+git" {
		u.Scheme = "ssh"
	}
	return u, true
}
