package source

import (
	"errors"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agent-skills/agent-skills/registry/gitrun"
)

// Kind says what a source reference points at.
type Kind string

// The kinds of source.
const (
	// KindGitHub is a repository on GitHub (or on the host
	// AGENT_SKILLS_GITHUB_URL names).
	KindGitHub Kind = "github"
	// KindGitLab is a repository on GitLab (or on the host
	// AGENT_SKILLS_GITLAB_URL names).
	KindGitLab Kind = "gitlab"
	// KindGit is any other git repository, by URL.
	KindGit Kind = "git"
	// KindLocal is a folder on this machine.
	KindLocal Kind = "local"
	// KindArchive is a .zip, .tar.gz, .tgz or .skill file, by path or URL.
	KindArchive Kind = "archive"
	// KindMCP is an MCP server that serves skills (SEP-2640): a command
	// run over stdio (mcp:<command…>) or a streamable HTTP endpoint
	// (mcp+https://host/path).
	KindMCP Kind = "mcp"
)

// Ref is a parsed source reference.
type Ref struct {
	// Kind is what the reference points at.
	Kind Kind
	// Repo is the repository path on the host for KindGitHub and
	// KindGitLab ("owner/repo", "group/sub/repo"); "" otherwise.
	Repo string
	// URL is the clone URL (git kinds, with the default host for GitHub
	// and GitLab), the archive URL or path, or the folder's path. Local
	// paths are absolute unless they start with "~".
	URL string
	// Ref is the branch, tag or commit SHA asked for; "" means the
	// remote's default branch.
	Ref string
	// Subpath narrows discovery to a folder inside the source
	// (slash-separated, no "." or ".." elements); "" is the root.
	Subpath string
	// Skill is the skill name of an owner/repo@skill reference; "" when
	// none was named.
	Skill string
	// Input is the reference as written.
	Input string
	// Command is the command of an MCP server run over stdio (KindMCP
	// with an empty URL): the words of mcp:<command…>, split without a
	// shell and joined again with joinWords, so that two spellings of one
	// command are one string (splitWords gives the argument array back).
	Command string
	// Locked reports a reference read back from skills.lock (pinRef)
	// rather than typed by the user: skills.lock comes with the project, so
	// an mcp: command it names is run only when the user allows it (see
	// mcpCommandEnv).
	Locked bool
}

// Default hosts of the shorthands; AGENT_SKILLS_GITHUB_URL and
// AGENT_SKILLS_GITLAB_URL override them (see cloneURL).
const (
	defaultGitHub = "https://github.com"
	defaultGitLab = "https://gitlab.com"
)

// archiveExts are the file endings of the archives a source may be.
var archiveExts = []string{".tar.gz", ".tgz", ".zip", ".skill"}

// isArchiveName reports whether p ends in an archive extension.
func isArchiveName(p string) bool {
	low := strings.ToLower(p)
	for _, e := range archiveExts {
		if strings.HasSuffix(low, e) {
			return true
		}
	}
	return false
}

var (
	ownerRE = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$`)
	repoRE  = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	skillRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	scpRE   = regexp.MustCompile(`^(?:[A-Za-z0-9._~-]+@)?([A-Za-z0-9.-]+):([^/].*)$`)
	shaRE   = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)
)

// Parse reads a source reference. cwd is the folder relative local paths
// are read against; isDir reports whether a path names an existing folder
// (the CLI passes an os.Stat check; nil means "nothing exists").
//
// ok=false with a nil error means the reference is not a source and should
// be read as a registry reference: a bare name, name@version, or
// registry:name. An error is always an *Error with code ASK_SOURCE_INVALID,
// or ASK_SOURCE_AMBIGUOUS when owner/repo also names a folder in cwd.
// docs/sources.md states the grammar.
func Parse(ref string, cwd string, isDir func(string) bool) (Ref, bool, error) {
	if isDir == nil {
		isDir = func(string) bool { return false }
	}
	s := strings.TrimSpace(ref)
	out := Ref{Input: ref}
	switch {
	case s == "", strings.HasPrefix(s, "@"):
		return Ref{}, false, nil // nothing, or a scoped registry name (@org/skill)
	case strings.HasPrefix(s, "-"):
		return Ref{}, false, invalid(ref, "a source must not start with '-'")
	case strings.HasPrefix(s, "github:"):
		r, err := parseShorthand(ref, strings.TrimPrefix(s, "github:"), KindGitHub)
		return r, err == nil, err
	case strings.HasPrefix(s, "gitlab:"):
		r, err := parseShorthand(ref, strings.TrimPrefix(s, "gitlab:"), KindGitLab)
		return r, err == nil, err
	case isMCPSyntax(s):
		r, err := parseMCP(ref, s)
		return r, err == nil, err
	case isLocalSyntax(s):
		return parseLocal(ref, s, cwd)
	case strings.Contains(s, "://"):
		r, err := parseURL(ref, s)
		return r, err == nil, err
	}
	if m := scpRE.FindStringSubmatch(s); m != nil && (strings.Contains(s[:strings.Index(s, ":")], "@") || strings.Contains(m[1], ".")) {
		// git@host:org/repo.git, or host.tld:org/repo
		u, frag, _ := strings.Cut(s, "#")
		if strings.Contains(u, " ") {
			return Ref{}, false, invalid(ref, "a git URL cannot contain spaces")
		}
		out.Kind, out.URL = KindGit, u
		if err := setRef(&out, frag); err != nil {
			return Ref{}, false, err
		}
		if host := strings.ToLower(m[1]); host == "github.com" || host == "gitlab.com" {
			out.Repo = trimGit(strings.Trim(m[2], "/"))
		}
		return out, true, nil
	}
	if isArchiveName(strings.SplitN(s, "#", 2)[0]) && !strings.Contains(strings.SplitN(s, "/", 2)[0], ":") {
		// x.zip, dist/x.tgz: an archive file, read as a local path.
		return parseLocal(ref, s, cwd)
	}
	if !strings.Contains(s, "/") {
		return Ref{}, false, nil // name, name@1.2, reg:name
	}
	if host := strings.ToLower(strings.SplitN(s, "/", 2)[0]); host == "github.com" || host == "gitlab.com" || host == "www.github.com" {
		r, err := parseURL(ref, "https://"+s)
		return r, err == nil, err
	}
	if strings.Contains(strings.SplitN(s, "/", 2)[0], ":") {
		return Ref{}, false, nil // reg:name/…: not a source; the registry parser explains
	}
	r, err := parseShorthand(ref, s, KindGitHub)
	if err != nil {
		return Ref{}, false, err
	}
	if owner, repo, _ := strings.Cut(r.Repo, "/"); isDir(filepath.Join(cwd, owner, repo)) {
		return Ref{}, false, &Error{
			Code:    CodeSourceAmbiguous,
			Message: quote(s) + " could be the GitHub repository " + r.Repo + " or the folder ./" + r.Repo,
			Try: []string{
				"write ./" + s + " for the folder",
				"write github:" + s + " for the GitHub repository",
			},
		}
	}
	return r, true, nil
}

// isLocalSyntax reports whether s is written as a local path.
func isLocalSyntax(s string) bool {
	return s == "." || s == ".." || s == "~" ||
		strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")
}

// parseLocal reads a local folder or archive path.
func parseLocal(ref, s, cwd string) (Ref, bool, error) {
	p := s
	if !strings.HasPrefix(p, "~") && !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	k := KindLocal
	if isArchiveName(p) {
		k = KindArchive
	}
	return Ref{Kind: k, URL: p, Input: ref}, true, nil
}

// parseShorthand reads owner/repo[/path][@skill][#ref] for GitHub, and
// group/repo[/path][@skill][#ref] for GitLab.
func parseShorthand(ref, s string, k Kind) (Ref, error) {
	out := Ref{Kind: k, Input: ref}
	s, frag, _ := strings.Cut(s, "#")
	if at := strings.LastIndex(s, "@"); at >= 0 {
		out.Skill = s[at+1:]
		s = s[:at]
		if !skillRE.MatchString(out.Skill) {
			return Ref{}, invalid(ref, "the skill name after '@' must be letters, digits, '.', '_' or '-'")
		}
	}
	s = strings.Trim(s, "/")
	parts := strings.Split(s, "/")
	if len(parts) < 2 {
		return Ref{}, invalid(ref, "write owner/repo")
	}
	owner, repo := parts[0], trimGit(parts[1])
	if !ownerRE.MatchString(owner) {
		return Ref{}, invalid(ref, "the owner "+quote(owner)+" is not a valid account name")
	}
	if !repoRE.MatchString(repo) || repo == "." || repo == ".." {
		return Ref{}, invalid(ref, "the repository "+quote(repo)+" is not a valid repository name")
	}
	out.Repo = owner + "/" + repo
	if err := setSubpath(&out, strings.Join(parts[2:], "/")); err != nil {
		return Ref{}, err
	}
	out.URL = shorthandURL(k, "", out.Repo)
	return out, setRef(&out, frag)
}

// parseURL reads a URL: a GitHub or GitLab web URL, an archive URL, or
// any other git URL.
func parseURL(ref, s string) (Ref, error) {
	raw, frag, _ := strings.Cut(s, "#")
	u, err := url.Parse(raw)
	if err != nil {
		return Ref{}, invalid(ref, "not a URL")
	}
	out := Ref{Input: ref}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "https", "http", "ssh", "git", "file", "git+ssh", "ssh+git":
	default:
		return Ref{}, invalid(ref, "unsupported URL scheme "+quote(u.Scheme))
	}
	if scheme != "file" && u.Host == "" {
		return Ref{}, invalid(ref, "the URL has no host")
	}
	if isArchiveName(u.Path) {
		switch scheme {
		case "https", "http":
			out.Kind, out.URL = KindArchive, raw
		case "file":
			out.Kind, out.URL = KindArchive, filepath.Clean(filepath.FromSlash(u.Path))
		default:
			return Ref{}, invalid(ref, "archives are fetched over https (or from a local path)")
		}
		return out, setSubpath(&out, frag)
	}
	host := strings.ToLower(u.Hostname())
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	if (scheme == "https" || scheme == "http") && (host == "github.com" || host == "www.github.com") && len(segs) >= 2 {
		out.Kind = KindGitHub
		out.Repo = segs[0] + "/" + trimGit(segs[1])
		rest := segs[2:]
		if len(rest) >= 2 && (rest[0] == "tree" || rest[0] == "blob") {
			frag = firstNonEmpty(frag, rest[1])
			sub := strings.Join(rest[2:], "/")
			if rest[0] == "blob" {
				sub = path.Dir(sub) // a link to SKILL.md names its folder
			}
			if err := setSubpath(&out, sub); err != nil {
				return Ref{}, err
			}
		} else if len(rest) > 0 {
			return Ref{}, invalid(ref, "write the repository URL, or a /tree/<ref>/<path> URL")
		}
		return checkRepo(ref, out, frag)
	}
	if (scheme == "https" || scheme == "http") && host == "gitlab.com" && len(segs) >= 2 {
		out.Kind = KindGitLab
		i := indexOf(segs, "-")
		repoSegs := segs
		if i >= 0 {
			repoSegs = segs[:i]
			rest := segs[i+1:]
			if len(rest) >= 2 && (rest[0] == "tree" || rest[0] == "blob") {
				frag = firstNonEmpty(frag, rest[1])
				sub := strings.Join(rest[2:], "/")
				if rest[0] == "blob" {
					sub = path.Dir(sub)
				}
				if err := setSubpath(&out, sub); err != nil {
					return Ref{}, err
				}
			}
		}
		if len(repoSegs) < 2 {
			return Ref{}, invalid(ref, "write group/repo")
		}
		repoSegs[len(repoSegs)-1] = trimGit(repoSegs[len(repoSegs)-1])
		out.Repo = strings.Join(repoSegs, "/")
		return checkRepo(ref, out, frag)
	}
	out.Kind, out.URL = KindGit, raw
	if host == "github.com" || host == "gitlab.com" {
		out.Repo = trimGit(strings.Trim(u.Path, "/"))
	}
	return out, setRef(&out, frag)
}

// checkRepo validates the repository path of a web URL and sets its
// clone URL and ref.
func checkRepo(ref string, out Ref, frag string) (Ref, error) {
	for _, p := range strings.Split(out.Repo, "/") {
		if !repoRE.MatchString(p) || p == "." || p == ".." {
			return Ref{}, invalid(ref, "the repository path "+quote(out.Repo)+" is not valid")
		}
	}
	out.URL = shorthandURL(out.Kind, "", out.Repo)
	return out, setRef(&out, frag)
}

// setRef validates and records a #ref fragment.
func setRef(r *Ref, frag string) error {
	if frag == "" {
		return nil
	}
	if why := checkRefName(frag); why != "" {
		return invalid(r.Input, "the ref "+gitrun.Quote(frag)+" "+why)
	}
	r.Ref = frag
	return nil
}

// checkRefName reports why name cannot be a branch, tag or commit, or "":
// the rules of gitrun.CheckRef, which every ref given to git passes,
// whether a user typed it, skills.lock recorded it or a server sent it.
func checkRefName(name string) string {
	var re *gitrun.RefError
	if errors.As(gitrun.CheckRef(name), &re) {
		return re.Reason
	}
	return ""
}

// setSubpath validates and records a sub-path.
func setSubpath(r *Ref, sub string) error {
	sub = strings.Trim(sub, "/")
	if sub == "" || sub == "." {
		return nil
	}
	for _, e := range strings.Split(sub, "/") {
		if e == "" || e == "." || e == ".." || strings.ContainsAny(e, "\\\x00") {
			return invalid(r.Input, "the path "+quote(sub)+" must be a plain relative folder path")
		}
	}
	r.Subpath = sub
	return nil
}

// shorthandURL returns the clone URL of a GitHub or GitLab repository on
// base (the default host when base is "").
func shorthandURL(k Kind, base, repo string) string {
	if base == "" {
		base = defaultGitHub
		if k == KindGitLab {
			base = defaultGitLab
		}
	}
	return strings.TrimRight(base, "/") + "/" + repo + ".git"
}

// trimGit removes a trailing ".git".
func trimGit(s string) string { return strings.TrimSuffix(s, ".git") }

// indexOf returns the index of s in ss, or -1.
func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// firstNonEmpty returns a when it is not empty, else b.
func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
