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
func Identity(r Ref, getenv func(string) string) string {
	switch r.Kind {
	case KindGitHub:
		return "github:" + strings.ToLower(r.Repo)
	case KindGitLab:
		return "gitlab:" + strings.ToLower(r.Repo)
	case KindLocal:
		return r.URL
	case KindArchive:
		if u, err := url.Parse(r.URL); err == nil && u.Scheme != "" {
			u.User, u.Fragment = nil, ""
			return u.String()
		}
		return r.URL
	}
	return gitIdentity(r.URL, getenv)
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
