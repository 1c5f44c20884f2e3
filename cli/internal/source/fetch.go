package source

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/registry/gitrun"
	"github.com/agent-skills/agent-skills/validate"
)

// Options tunes Fetch and Restore.
type Options struct {
	// CacheDir holds the temporary work folders (clones, extracted
	// archives); they are removed before Fetch returns. Required.
	CacheDir string
	// Dir is where each chosen skill is materialised, as Dir/<name>.
	// Required unless List, or InPlace for Fetch.
	Dir string
	// Skills picks skills by name (--skill, repeatable); "*" picks every
	// skill the source offers.
	Skills []string
	// List stops after discovery: Result.Found is filled, nothing is
	// materialised (--list).
	List bool
	// Git is the git executable; "" means "git" on PATH.
	Git string
	// Getenv reads GITHUB_TOKEN, GH_TOKEN, GITLAB_TOKEN, HOME,
	// AGENT_SKILLS_GITHUB_URL and AGENT_SKILLS_GITLAB_URL; nil reads
	// nothing.
	Getenv func(string) string
	// Interactive allows Pick to be called when a source offers several
	// skills and none was named.
	Interactive bool
	// Pick asks the user to choose among several skills.
	Pick func([]Found) ([]Found, error)
	// HTTPTimeouts bounds each archive download; zero fields take
	// registry.DefaultHTTPTimeouts.
	HTTPTimeouts registry.HTTPTimeouts
	// HTTPTransport sends archive downloads; nil means agent-skills' own
	// transport (see registry.HTTPOptions.Transport).
	HTTPTransport http.RoundTripper
	// Notify receives one-line notices, such as a download redirected to
	// another host; nil drops them.
	Notify func(string)
	// MaxBytes caps what a clone or an archive download may take on disk;
	// zero means DefaultMaxBytes.
	MaxBytes int64
	// MaxSkills caps the skill folders discovery reads from the source;
	// one offering more is refused (ASK_SOURCE_TOO_MANY_SKILLS), never cut
	// short. Zero means DefaultMaxSkills.
	MaxSkills int
	// OverrideKeys is the agentOverrides allowlist passed to validation
	// (see validate.Options); nil skips that check.
	OverrideKeys map[string][]string
	// Offline forbids the network (--offline, AGENT_SKILLS_OFFLINE=1): a
	// source that needs it — a git URL other than file://, GitHub and
	// GitLab shorthands, an archive URL — is ASK_SOURCE_UNAVAILABLE
	// before anything is contacted; folders, local archives and file://
	// repositories are read as usual.
	Offline bool
	// Gate is the rule set each skill is validated at: GateDefault unless
	// set; install uses GateInstall (see validate.Rules).
	Gate validate.Gate
	// Check, when set, adds the problems of the agents a skill is for
	// (their adapters' Validate); its errors refuse the skill like the
	// gate's.
	Check func(*format.Package) format.Diagnostics
	// AllOrNothing makes a skill that "*" chose and the gate refuses fail
	// Fetch, as a named one does, instead of being skipped
	// (install --strict).
	AllOrNothing bool
	// InPlace verifies each skill over a snapshot in memory instead of a
	// copy under Dir, and gives packages (Package.Dir "") whose Pkg.FS
	// reads the source in place, handing out only the verified bytes (see
	// pinnedFS). The source stays open until Result.Close (Fetch) or
	// Package.Close (Restore) is called.
	InPlace bool
}

func (o *Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

func (o *Options) maxBytes() int64 {
	if o.MaxBytes > 0 {
		return o.MaxBytes
	}
	return DefaultMaxBytes
}

// Result is what a source offered and what Fetch materialised.
type Result struct {
	// Source is the source as skills.lock records it (see Record).
	Source string
	// URL is where the source was read: the clone URL, the archive URL or
	// the path, without credentials.
	URL string
	// Commit is the resolved commit SHA; "" for folders and archives.
	Commit string
	// Registry reports a source holding registry/skills.yaml: it is a
	// registry, and nothing was discovered or materialised. The caller
	// opens RegistryURL as a git (or local) registry.
	Registry bool
	// RegistryURL is "<clone URL>#<commit>" for a git source, or the
	// folder for a local one, when Registry is set; "" for an archive.
	RegistryURL string
	// close releases the source the packages read in place; nil when
	// there is nothing to release.
	close func()
	// Found lists every skill the source offers, sorted by name.
	Found []Found
	// Packages lists the materialised skills, in the order of Found.
	Packages []Package
	// Skipped lists the skills a "*" selection covered but Fetch did not
	// materialise, each with every reason, sorted by name then path: the
	// folders that offer one name with different contents
	// (CodeSourceDuplicateSkill; Found.Conflicts) and the skills
	// Options.Gate refused (askerr.CodeValidationFailed, or
	// format.CodePackageUnsafeFile or CodePackageTooLarge for a skill that
	// cannot be copied safely). A skill named explicitly is never skipped:
	// it is materialised or Fetch fails. The caller reports them; Fetch
	// prints nothing.
	Skipped []Skipped
}

// Close releases the source that the packages of an Options.InPlace fetch
// read: their Pkg.FS may not be read after it. It does nothing otherwise,
// and may be called more than once.
func (r *Result) Close() {
	if r != nil && r.close != nil {
		r.close()
		r.close = nil
	}
}

// Package is one skill materialised as a verified package folder.
type Package struct {
	// Name and Version are the package's.
	Name, Version string
	// Dir is the package folder: Options.Dir/<Name>; "" for a package
	// read in place (Options.InPlace).
	Dir string
	// Subpath is the skill's folder inside the source ("" = the root).
	Subpath string
	// Source is the source as skills.lock records it (see Record).
	Source string
	// Ref is the ref that was asked for ("" = the default branch).
	Ref string
	// Commit is the commit SHA; "" for folders and archives.
	Commit string
	// Integrity is format.Digest of the package, synthesised skill.yaml
	// included.
	Integrity string
	// Resolved is "<url>#<commit>:<subpath>", for skills.lock's
	// `resolved`; without credentials.
	Resolved string
	// Synthesised reports a bare skill whose skill.yaml was written here.
	Synthesised bool
	// Pkg is the loaded package in Dir.
	Pkg *format.Package
	// Diagnostics are the warnings the gate gave the package: what it
	// breaks that does not keep it from being installed.
	Diagnostics format.Diagnostics
	// close releases the source a package restored in place reads.
	close func()
}

// Close releases the source that a package restored with Options.InPlace
// reads: its Pkg.FS may not be read after it. It does nothing otherwise,
// and may be called more than once.
func (p *Package) Close() {
	if p != nil && p.close != nil {
		p.close()
		p.close = nil
	}
}

// Pin is what a lock entry records about a skill installed from a source.
type Pin struct {
	// Name and Version are the locked package's.
	Name, Version string
	// Source is the canonical source id.
	Source string
	// Resolved is the recorded "<url>#<commit>:<subpath>"; its URL is used
	// to fetch non-GitHub, non-GitLab git sources (so that an ssh URL
	// stays ssh).
	Resolved string
	// Commit is the locked commit SHA ("" for folders and archives).
	Commit string
	// Subpath is the skill's folder inside the source.
	Subpath string
	// Integrity is the digest the package must have.
	Integrity string
}

// tree is a source's files on disk, ready for discovery.
type tree struct {
	root   string  // the source's root folder
	fsys   *treeFS // root, read without following links; see openTree
	src    *onceFS // fsys read once: what discovery and materialisation read
	url    string  // where it was read, without credentials
	commit string
	co     *checkout
	local  bool // a folder on this machine, read in place
	clean  func()
	// names are the packages materialised in place from the tree so far,
	// under mu: materialiseChosen materialises them in parallel.
	mu    sync.Mutex
	names map[string]bool
	// spare are digesters for materialise, one per goroutine at a time.
	spare sync.Pool
	// kept is how many bytes of verified files its packages keep in
	// memory, of pinnedBudget.
	kept atomic.Int64
}

// keep spends n bytes of pinnedBudget, reporting whether they fit. The
// budget is the process's, shared by every source open at once (a
// restore opens one per locked skill); the tree gives its bytes back when
// it is cleaned.
func (t *tree) keep(n int64) bool {
	if held.Add(n) > budget.Load() {
		held.Add(-n)
		return false
	}
	t.kept.Add(n)
	return true
}

// release gives the tree's bytes back to pinnedBudget.
func (t *tree) release() {
	held.Add(-t.kept.Swap(0))
}

// claim records that the package name is materialised in place from t,
// reporting false when one of that name already was.
func (t *tree) claim(name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.names[name] {
		return false
	}
	if t.names == nil {
		t.names = map[string]bool{}
	}
	t.names[name] = true
	return true
}

// borrowDigester returns a digester for one materialise, to be given back
// with returnDigester: materialise runs on several goroutines at once.
func (t *tree) borrowDigester() *format.Digester {
	if dg, ok := t.spare.Get().(*format.Digester); ok {
		return dg
	}
	return format.NewDigester()
}

// returnDigester gives back a digester borrowDigester returned.
func (t *tree) returnDigester(dg *format.Digester) { t.spare.Put(dg) }

// openTree is open followed by opening the tree's files as a treeFS, so
// that discovery and materialisation never follow a link inside the
// source. The returned tree's clean closes it too.
func openTree(ctx context.Context, r Ref, ref, subpath string, opts *Options) (*tree, error) {
	t, err := open(ctx, r, ref, subpath, opts)
	if err != nil {
		return nil, err
	}
	fsys, err := openTreeFS(t.root)
	if err != nil {
		t.clean()
		return nil, notFound("cannot read the source "+t.url+": "+err.Error(), nil, "check the path")
	}
	clean := t.clean
	t.fsys, t.src = fsys, newOnceFS(fsys)
	t.clean = func() { fsys.Close(); clean(); t.release() }
	return t, nil
}

// Fetch resolves r (a git ref to its commit SHA), discovers the skills it
// offers and materialises each chosen one as a verified package folder
// under opts.Dir. With opts.Offline, a source that needs the network is
// ASK_SOURCE_UNAVAILABLE before anything is contacted.
//
// Skills are chosen by r.Skill and opts.Skills ("*" for all); with none
// named, a source offering one skill gives it, and one offering several
// calls opts.Pick when opts.Interactive, else fails with
// ASK_SOURCE_AMBIGUOUS listing them. A source holding
// registry/skills.yaml returns Result.Registry instead.
//
// A bare skill gets a synthesised skill.yaml whose version is, in order,
// the front matter's `version`, the ref when it is a semver tag (v1.2.3 or
// 1.2.3), or PseudoVersion of the commit (0.0.0-<kind>-<content hash> for
// folders and archives). Each package is loaded, validated at opts.Gate
// and by opts.Check (ASK_VALIDATION_FAILED, exit 3, with the diagnostics;
// unsafe files are ASK_PACKAGE_UNSAFE_FILE and oversized ones
// ASK_PACKAGE_TOO_LARGE) and digested. Skills named explicitly are all or
// nothing: if any is refused, Fetch fails naming every refused one. The
// others that "*" chose are materialised when they pass, and listed in
// Result.Skipped with their reasons when they do not.
func Fetch(ctx context.Context, r Ref, opts Options) (*Result, error) {
	if opts.Dir == "" && !opts.List && !opts.InPlace {
		return nil, errors.New("source.Fetch: Options.Dir is required")
	}
	t, err := openTree(ctx, r, r.Ref, r.Subpath, &opts)
	if err != nil {
		return nil, err
	}
	kept := false // the packages read t in place: Result.Close cleans it
	defer func() {
		if !kept {
			t.clean()
		}
	}()
	res := &Result{Source: Record(r, opts.Getenv), URL: t.url, Commit: t.commit}
	if r.Kind == KindLocal {
		res.Source = t.root // ~ expanded
	}
	// The folder named may itself be a command or workflow package, which
	// discovery (of skills) does not look for.
	d := discovery{}
	if f, ok := packageAt(t.src, r.Subpath); ok {
		d.found = []Found{f}
	} else if d, err = discover(t.src, r.Subpath, opts.MaxSkills); err != nil {
		return nil, err
	}
	if d.registry {
		res.Registry = true
		switch r.Kind {
		case KindLocal:
			res.RegistryURL = t.root
		case KindGitHub, KindGitLab, KindGit:
			res.RegistryURL = t.url + "#" + t.commit
		}
		return res, nil
	}
	res.Found = d.found
	if len(d.found) == 0 {
		where := "the source"
		if r.Subpath != "" {
			where = quote(r.Subpath)
		}
		return nil, notFound("no skill found in "+where+" of "+t.url, nil,
			"a skill is a folder with a SKILL.md; name its folder: owner/repo/path/to/skill")
	}
	if opts.List {
		return res, nil
	}
	chosen, skipped, err := choose(d.found, r, &opts)
	if err != nil {
		return nil, err
	}
	version := func(b bareSkill, fsys fs.FS, files []string) (string, error) {
		switch {
		case b.version != "":
			return b.version, nil
		case tagVersion(r.Ref) != "":
			return tagVersion(r.Ref), nil
		case t.co != nil:
			return PseudoVersion(t.co.time, t.commit), nil
		}
		dg := t.borrowDigester() // materialise calls it on several goroutines
		defer t.returnDigester(dg)
		return contentVersion(r.Kind, fsys, files, dg)
	}
	pkgs, refused, err := materialiseChosen(ctx, t, chosen, namedSkills(r, &opts), version, &opts)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		p.Source, p.Ref = res.Source, r.Ref
		if _, net := networkURL(r, &opts); net {
			keepVerified(p, &opts) // for an offline restore of the lock
		}
		res.Packages = append(res.Packages, *p)
	}
	res.Skipped = append(skipped, refused...)
	slices.SortFunc(res.Skipped, func(a, b Skipped) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Path, b.Path))
	})
	if opts.InPlace && len(pkgs) > 0 {
		res.close, kept = t.clean, true
	}
	return res, nil
}

// Restore fetches exactly what a lock entry records — the commit and
// sub-path of a git source, or the folder or archive — materialises the
// skill under opts.Dir and checks its digest against p.Integrity
// (ASK_INTEGRITY_MISMATCH, exit 5, on any difference; nothing is left in
// opts.Dir then). A bare skill's manifest is synthesised with p.Version,
// so the bytes are those that were locked. With opts.Offline, a source
// that needs the network is restored from the cache of verified packages
// (see keepVerified), or refused with ASK_SOURCE_UNAVAILABLE.
func Restore(ctx context.Context, p Pin, opts Options) (*Package, error) {
	if opts.Dir == "" {
		return nil, errors.New("source.Restore: Options.Dir is required")
	}
	r, err := pinRef(p)
	if err != nil {
		return nil, err
	}
	if r.Kind != KindLocal && r.Kind != KindArchive && r.Kind != KindMCP {
		if p.Commit == "" {
			return nil, invalid(p.Source, "the lock entry records no commit")
		}
		// skills.lock comes with the project: a commit that is not a full
		// id (a branch, or "--upload-pack=…") is refused before git runs.
		if !gitrun.IsCommitID(p.Commit) {
			return nil, lockInvalid(p, "its commit "+gitrun.Quote(p.Commit)+" is not a full commit id")
		}
	}
	_, net := networkURL(r, &opts)
	if opts.Offline && net {
		// The lock names the exact bytes: a cached copy that digests to
		// them is what the network would give.
		if pkg, ok := restoreVerified(p, &opts); ok {
			return pkg, nil
		}
		return nil, offlineRefusal(r, p.Name, &opts)
	}
	t, err := openTree(ctx, r, p.Commit, p.Subpath, &opts)
	if err != nil {
		return nil, err
	}
	kept := false // the package reads t in place: Package.Close cleans it
	defer func() {
		if !kept {
			t.clean()
		}
	}()
	// Asked of the tree itself: the onceFS would list the folder holding
	// the skill's, hundreds of skills beside it, for one Stat.
	if err := refuseLink(t.fsys, p.Subpath); err != nil {
		return nil, err
	}
	f, ok := packageFolderAt(t.src, p.Subpath)
	if !ok {
		return nil, notFound(fmt.Sprintf("%s has no skill at %q", t.url, p.Subpath), nil,
			"agent-skills update "+p.Name+"   (to install it afresh)")
	}
	version := func(bareSkill, fs.FS, []string) (string, error) { return p.Version, nil }
	// A restore reads one skill of the folder at a time: listing the
	// skills beside it for each would make restoring a collection
	// quadratic, so they are listed only for a skill with a link out of its
	// folder.
	siblings := func() []string {
		// Of the tree itself: each sibling is restored through a tree of
		// its own, so listing their folders here would list them twice.
		return siblingsOf(t.fsys, f.Path)
	}
	pkg, err := materialise(ctx, t, f, version, p.Integrity, siblings, &opts)
	if err != nil {
		return nil, err
	}
	pkg.Source, pkg.Ref = p.Source, ""
	if net {
		keepVerified(pkg, &opts)
	}
	if opts.InPlace {
		// The folder is reopened for each file the install reads (see
		// detach); only a checkout or an extracted archive must stay.
		if pinned, ok := pkg.Pkg.FS.(*pinnedFS); ok {
			pinned.detach(t.root)
			t.fsys.Close()
		}
		pkg.close, kept = t.clean, true
	}
	return pkg, nil
}

// pinRef turns a lock entry back into a reference.
func pinRef(p Pin) (Ref, error) {
	r := Ref{Input: p.Source, Subpath: p.Subpath, Ref: p.Commit, Locked: true}
	resolvedURL, _, _ := strings.Cut(p.Resolved, "#")
	switch {
	case isMCPSyntax(p.Source):
		m, err := parseMCP(p.Source, p.Source)
		if err != nil {
			return Ref{}, err
		}
		r.Kind, r.URL, r.Command = KindMCP, m.URL, m.Command
	case strings.HasPrefix(p.Source, "github:"):
		r.Kind, r.Repo = KindGitHub, strings.TrimPrefix(p.Source, "github:")
	case strings.HasPrefix(p.Source, "gitlab:"):
		r.Kind, r.Repo = KindGitLab, strings.TrimPrefix(p.Source, "gitlab:")
	case filepath.IsAbs(p.Source):
		r.Kind, r.URL = KindLocal, p.Source
		if isArchiveName(p.Source) {
			r.Kind = KindArchive
		}
	case isArchiveName(p.Source) && (strings.HasPrefix(p.Source, "https://") || strings.HasPrefix(p.Source, "http://")):
		r.Kind, r.URL = KindArchive, p.Source
	case p.Source != "":
		r.Kind, r.URL = KindGit, firstNonEmpty(resolvedURL, p.Source)
	default:
		return Ref{}, invalid(p.Source, "the lock entry records no source")
	}
	if r.Subpath != "" {
		if err := setSubpath(&r, r.Subpath); err != nil {
			return Ref{}, err
		}
	}
	return r, nil
}

// cloneURL returns the URL git is given for r, with the GitHub and GitLab
// hosts overridable through AGENT_SKILLS_GITHUB_URL and
// AGENT_SKILLS_GITLAB_URL.
func cloneURL(r Ref, opts *Options) string {
	switch r.Kind {
	case KindGitHub:
		return shorthandURL(r.Kind, opts.getenv("AGENT_SKILLS_GITHUB_URL"), r.Repo)
	case KindGitLab:
		return shorthandURL(r.Kind, opts.getenv("AGENT_SKILLS_GITLAB_URL"), r.Repo)
	}
	return r.URL
}

// open puts the source's files on disk: a shallow checkout of ref for
// git sources, the extracted archive, or the folder itself.
func open(ctx context.Context, r Ref, ref, subpath string, opts *Options) (*tree, error) {
	noop := func() {}
	switch r.Kind {
	case KindLocal:
		p := r.URL
		if p == "~" || strings.HasPrefix(p, "~/") {
			home := opts.getenv("HOME")
			if home == "" {
				return nil, invalid(r.Input, "~ cannot be expanded: HOME is not set")
			}
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			return nil, notFound("no folder "+p, nil, "check the path")
		}
		return &tree{root: p, url: p, local: true, clean: noop}, nil
	}
	if err := offlineRefusal(r, "", opts); err != nil {
		return nil, err
	}
	if opts.CacheDir == "" {
		return nil, errors.New("source: Options.CacheDir is required")
	}
	base := filepath.Join(opts.CacheDir, "sources")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(base, string(r.Kind)+"-")
	if err != nil {
		return nil, err
	}
	clean := func() { os.RemoveAll(work) }
	if r.Kind == KindMCP {
		root := filepath.Join(work, "tree")
		if err := os.Mkdir(root, 0o755); err != nil {
			clean()
			return nil, err
		}
		if err := openMCP(ctx, r, root, subpath, opts); err != nil {
			clean()
			return nil, err
		}
		return &tree{root: root, url: mcpShown(r), clean: clean}, nil
	}
	if r.Kind == KindArchive {
		root := filepath.Join(work, "tree")
		if err := os.Mkdir(root, 0o755); err != nil {
			clean()
			return nil, err
		}
		if err := openArchive(ctx, r.URL, root, opts); err != nil {
			clean()
			return nil, err
		}
		return &tree{root: root, url: scrub(r.URL, secretsOf(opts.getenv)), clean: clean}, nil
	}
	u := cloneURL(r, opts)
	if pu, err := url.Parse(u); err == nil && pu.Scheme == "http" && !isLoopback(pu.Hostname()) {
		clean()
		return nil, invalid(r.Input, "plain http is refused for git sources (use https or ssh)")
	}
	g, err := newGitRunner(u, work, opts)
	if err != nil {
		clean()
		return nil, err
	}
	co, err := g.fetchCommit(ctx, ref, subpath)
	if err != nil {
		clean()
		return nil, err
	}
	return &tree{root: work, url: g.shown, commit: co.commit, co: co, clean: clean}, nil
}

// choose picks the skills to materialise and, for a "*" selection, the
// skills it leaves out (see unambiguous).
func choose(found []Found, r Ref, opts *Options) ([]Found, []Skipped, error) {
	names := append([]string(nil), opts.Skills...)
	if r.Skill != "" {
		names = append(names, r.Skill)
	}
	all := slices.Contains(names, "*")
	if all || len(names) > 0 {
		var out []Found
		var skipped []Skipped
		if all {
			out, skipped = unambiguous(found)
		}
		for _, n := range names {
			if n == "*" {
				continue
			}
			f, err := lookup(found, n)
			if err != nil {
				return nil, nil, err
			}
			if !slices.ContainsFunc(out, func(o Found) bool { return o.Path == f.Path }) {
				out = append(out, f)
			}
			skipped = slices.DeleteFunc(skipped, func(s Skipped) bool { return s.Path == f.Path })
		}
		if err := oneFolderEach(out); err != nil {
			return nil, nil, err
		}
		return out, skipped, nil
	}
	if len(found) == 1 {
		return found, nil, nil
	}
	if opts.Interactive && opts.Pick != nil {
		picked, err := opts.Pick(found)
		if err == nil {
			err = oneFolderEach(picked)
		}
		return picked, nil, err
	}
	return nil, nil, &Error{Code: CodeSourceAmbiguous,
		Message: fmt.Sprintf("the source offers %d skills; name the ones to install", len(found)),
		Detail:  offered(found),
		Try:     []string{"--skill NAME (repeatable)", "--skill '*' for all of them", "owner/repo@NAME"}}
}

// lookup finds the skill n names: the skill whose folder is n (its Path
// in the source, "." for the root), else the skill called n, else the
// skill in a folder called n. A name that several folders with different
// contents answer to is CodeSourceDuplicateSkill, listing them; a name
// none answers to is ASK_SOURCE_NOT_FOUND, listing what the source offers.
func lookup(found []Found, n string) (Found, error) {
	for _, f := range found {
		if orDot(f.Path) == n {
			return f, nil
		}
	}
	for _, match := range []func(Found) bool{
		func(f Found) bool { return f.Name == n },
		func(f Found) bool { return path.Base(orDot(f.Path)) == n },
	} {
		var hits []Found
		for _, f := range found {
			if match(f) {
				hits = append(hits, f)
			}
		}
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			return Found{}, duplicateSkill(n, hits)
		}
	}
	return Found{}, notFound("the source offers no skill "+quote(n), offered(found),
		"pick one of the skills listed above with --skill NAME",
		"to pick a branch, tag or commit write owner/repo#REF, not owner/repo@REF")
}

// offered renders the skills of a source, one per line.
func offered(found []Found) []string {
	width := 0
	for _, f := range found {
		width = max(width, len(f.Name))
	}
	out := make([]string, 0, len(found))
	for _, f := range found {
		line := f.Name + strings.Repeat(" ", width-len(f.Name)) + "  (" + orDot(f.Path) + ")"
		if f.Description != "" {
			d := f.Description
			if len(d) > 72 {
				d = d[:69] + "..."
			}
			line += "  " + d
		}
		out = append(out, line)
	}
	return out
}

// Follow returns the reference that fetches the skill a lock entry records
// at another ref: ref is a branch, a tag or "" for the default branch.
// update uses it to move a skill installed from a source.
func (p Pin) Follow(ref string) (Ref, error) {
	r, err := pinRef(p)
	if err != nil {
		return Ref{}, err
	}
	r.Ref = ref
	if r.Kind == KindLocal || r.Kind == KindArchive || r.Kind == KindMCP {
		r.Ref = ""
	}
	if why := checkRefName(r.Ref); r.Ref != "" && why != "" {
		return Ref{}, lockInvalid(p, "its ref "+gitrun.Quote(r.Ref)+" "+why)
	}
	return r, nil
}

// lockInvalid is the ASK_SOURCE_INVALID error for a lock entry that
// cannot be fetched as it is: skills.lock comes with the project, so what
// it records is checked like anything else typed in.
func lockInvalid(p Pin, why string) *Error {
	return &Error{Code: CodeSourceInvalid,
		Message: "skills.lock entry " + gitrun.Quote(p.Name) + " (" + gitrun.Quote(scrub(p.Source, nil)) + "): " + why,
		Try:     []string{"restore skills.lock from version control, or install the skill again: agent-skills install <source>"}}
}
