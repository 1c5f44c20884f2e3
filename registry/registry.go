package registry

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// The registry kinds.
const (
	KindLocal   = "local"
	KindGit     = "git"
	KindHTTP    = "http"
	KindBundled = "bundled"
	// KindOCI is declared in oci.go.
)

// Registry is one configured registry, whatever its kind. Every method
// that may touch the disk or the network takes a context first.
type Registry interface {
	// Name returns the configured name, used in "name:skill" references.
	Name() string
	// Kind returns KindLocal, KindGit, KindHTTP, KindOCI or KindBundled.
	Kind() string
	// Spec returns the configuration the registry was opened with.
	Spec() Spec
	// Index returns the registry's index, loading it on first use and
	// keeping it for the life of the value; git and http registries serve
	// a cached copy when the network fails, with a notice.
	Index(ctx context.Context) (*Index, error)
	// ReleaseIndex drops the index Index keeps, for a caller that has read
	// all it needs of it; the next Index loads it again.
	ReleaseIndex()
	// Package returns the verified package name@version, read in place
	// (local, git, bundled) or from the payload cache (tarballs): its
	// digest equals the index integrity and its manifest names name and
	// version, else ASK_INTEGRITY_MISMATCH.
	Package(ctx context.Context, name, version string) (*format.Package, error)
	// Snapshot returns the verified package name@version held in memory,
	// and its integrity: its bytes are read once, and loaded and digested
	// once over the copy, so what is installed from it is what was
	// verified. Over MaxSnapshotSize is ASK_PACKAGE_TOO_LARGE.
	Snapshot(ctx context.Context, name, version string) (*format.Package, string, error)
	// Resolved says where the payload of name@version comes from, for the
	// lock file, e.g. "https://host/org/repo.git#main:skills/x".
	Resolved(ctx context.Context, name, version string) (string, error)
	// Fetch writes the verified payload of name@version to dest, which
	// must not exist. The payload is copied or extracted into a temporary
	// directory beside dest, verified there, and renamed to dest only
	// when its digest equals the index integrity and its manifest names
	// name and version; on any failure nothing is left at dest.
	Fetch(ctx context.Context, name, version, dest string) (*Fetched, error)
}

// Spec is the configuration of one registry, as the CLI reads it from
// config.json.
type Spec struct {
	// Name is the registry's configured name.
	Name string `json:"name"`
	// URL locates the registry: a path or file:// URL (local), a git URL
	// with an optional "#ref" (git), or an index URL (http).
	URL string `json:"url"`
	// Kind is KindLocal, KindGit, KindHTTP, KindOCI or KindBundled; empty means
	// inferred from URL by InferKind.
	Kind string `json:"kind,omitempty"`
	// Ref is the git branch, tag or commit; a "#ref" in URL wins.
	Ref string `json:"ref,omitempty"`
	// Untrusted marks a registry that never owns a name by precedence:
	// it is searched, but its skills resolve only through a qualified
	// "registry:name" reference. The zero value is trusted, matching the
	// config default ("trusted": true).
	Untrusted bool `json:"untrusted,omitempty"`
	// AllowInsecure permits plain http:// to a host other than loopback.
	AllowInsecure bool `json:"allowInsecure,omitempty"`
	// TrustedSigners is the registry's allowed_signers text (ssh-keygen(1)
	// "ALLOWED SIGNERS"). When set, the index is used only with a valid
	// detached signature (the index file or URL + SignatureSuffix; for
	// an OCI registry, a signature referrer of the index manifest) and
	// every version only with a valid package signature; empty means
	// signatures are neither fetched nor checked.
	TrustedSigners string `json:"trustedSigners,omitempty"`
}

// Options are the environment a registry runs in, supplied by the CLI.
type Options struct {
	// CacheDir holds git clones, HTTP index copies and extracted
	// tarball payloads (the CLI passes $AGENT_SKILLS_HOME/cache).
	CacheDir string
	// TTL is how long a git clone or an HTTP index is used without
	// asking the network again; zero means always revalidate.
	TTL time.Duration
	// HTTPTimeouts bounds every request of http registries; zero fields
	// take the DefaultHTTPTimeouts values.
	HTTPTimeouts HTTPTimeouts
	// HTTPTransport sends the requests of http registries; nil means
	// agent-skills' own transport (see HTTPOptions.Transport). Tests pass
	// the transport of an httptest TLS server.
	HTTPTransport http.RoundTripper
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Offline forbids network use: cached copies only.
	Offline bool
	// Notify receives one-line notices (stale cache used, registry
	// refreshed); nil drops them. Nothing is ever printed.
	Notify func(string)
	// GitPath is the git executable; empty means "git" on PATH.
	GitPath string
	// GitEnv is the environment git starts from, scrubbed by gitrun; nil
	// means the process's environment.
	GitEnv []string
	// Sleep waits between HTTP retries; nil means a timer honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Bundled is the file system of the bundled registry (KindBundled).
	Bundled fs.FS
	// Getenv reads the environment (the OCI token variables); nil means
	// os.Getenv.
	Getenv func(string) string
	// BundledIndex is the committed index of the bundled registry; nil
	// means build it from Bundled with BuildIndex.
	BundledIndex []byte
}

// now returns the current time from the options' clock.
func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// notify sends a notice when a callback is set.
func (o *Options) notify(format string, args ...any) {
	if o.Notify != nil {
		o.Notify(fmt.Sprintf(format, args...))
	}
}

// Fetched describes a payload Fetch wrote.
type Fetched struct {
	// Registry is the registry it came from.
	Registry string
	// Name and Version identify the package.
	Name, Version string
	// Integrity is the verified digest.
	Integrity string
	// Resolved says where the payload came from, for the lock file,
	// e.g. "https://host/org/repo.git#main:skills/x".
	Resolved string
	// Files are the package's files written under dest, sorted.
	Files []string
}

// InferKind guesses a registry kind from its URL: "git@…", ssh://,
// git://, a ".git" suffix, or any http(s) URL not ending in .json, .yaml
// or .yml is git; an http(s) URL of an index document is http; a
// file:// URL or a plain path is local, unless it carries a "#ref", which
// makes it git.
func InferKind(url string) string {
	base, ref, hasRef := strings.Cut(url, "#")
	lower := strings.ToLower(base)
	switch {
	case strings.HasPrefix(lower, "oci://"):
		return KindOCI
	case strings.HasPrefix(lower, "git@"), strings.HasPrefix(lower, "ssh://"),
		strings.HasPrefix(lower, "git://"), strings.HasSuffix(lower, ".git"),
		strings.HasSuffix(lower, ".git/"):
		return KindGit
	case strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "http://"):
		for _, ext := range []string{".json", ".yaml", ".yml"} {
			if strings.HasSuffix(lower, ext) {
				return KindHTTP
			}
		}
		return KindGit
	case hasRef && ref != "":
		return KindGit
	}
	return KindLocal
}

// Open builds the registry spec describes. It does no I/O beyond
// checking the configuration; the index is read on first use.
func Open(spec Spec, opts Options) (Registry, error) {
	if spec.Name == "" || strings.ContainsAny(spec.Name, ": \t/") {
		return nil, configInvalid(spec, fmt.Sprintf("registry name %q must be non-empty without ':', '/' or blanks", spec.Name))
	}
	kind := spec.Kind
	if kind == "" {
		kind = InferKind(spec.URL)
	}
	spec.Kind = kind
	if spec.URL == "" && kind != KindBundled {
		return nil, configInvalid(spec, "the registry has no URL")
	}
	r := &registry{spec: spec, opts: opts}
	trust, err := ParseTrust(spec.TrustedSigners)
	if err != nil {
		e := configInvalid(spec, "its trusted signers do not parse")
		var pe interface{ Lines() []string }
		if errors.As(err, &pe) {
			e.Detail = pe.Lines()
		}
		e.Err = err
		e.Try = []string{"agent-skills registry trust " + spec.Name + " --trust-key <allowed_signers>"}
		return nil, e
	}
	r.trust = trust
	switch kind {
	case KindLocal:
		var l *local
		l, err = newLocal(spec, opts.CacheDir)
		if l != nil {
			l.trust, l.opts = trust, &r.opts
		}
		r.be = l
	case KindGit:
		var g *gitBackend
		g, err = newGit(spec, &r.opts)
		if g != nil {
			g.local.trust, g.local.opts = trust, &r.opts
		}
		r.be = g
	case KindHTTP:
		var h *httpBackend
		h, err = newHTTP(spec, &r.opts)
		if h != nil {
			h.trust = trust
		}
		r.be = h
	case KindOCI:
		var o *ociBackend
		o, err = newOCI(spec, &r.opts)
		if o != nil {
			o.trust = trust
		}
		r.be = o
	case KindBundled:
		if opts.Bundled == nil {
			return nil, configInvalid(spec, "the bundled registry needs its embedded file system")
		}
		r.be = &bundled{fsys: opts.Bundled, name: spec.Name, index: opts.BundledIndex}
	default:
		return nil, configInvalid(spec, fmt.Sprintf("unknown registry kind %q (want local, git, http, oci or bundled)", kind))
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// configInvalid builds the ASK_REGISTRY_CONFIG_INVALID error.
func configInvalid(spec Spec, msg string) *Error {
	return &Error{
		Code:    CodeRegistryConfigInvalid,
		Message: fmt.Sprintf("registry %q (%s): %s", spec.Name, spec.URL, msg),
		Try:     []string{"agent-skills registry list", "agent-skills registry remove " + spec.Name + " and add it again with a correct URL or --kind"},
	}
}

// backend is what each kind implements; registry adds the shared
// verification, copying and caching on top.
type backend interface {
	// loadIndex reads and decodes the index.
	loadIndex(ctx context.Context) (*Index, error)
	// payload loads and checks the package of v with verify, given a
	// read-only view of its directory (in place, or in the payload cache).
	payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error)
	// resolved says where v comes from, for the lock file.
	resolved(s *Skill, v *Version) string
}

// registry is the one Registry implementation, parameterised by backend.
type registry struct {
	spec Spec
	opts Options
	be   backend

	trust *Trust // nil: no trusted signers

	mu     sync.Mutex
	idx    *Index
	idxErr error
}

// Trust returns the registry's trusted signers, or nil when it has none.
func (r *registry) Trust() *Trust { return r.trust }

// Name returns the configured name.
func (r *registry) Name() string { return r.spec.Name }

// Kind returns the registry kind.
func (r *registry) Kind() string { return r.spec.Kind }

// Spec returns the configuration.
func (r *registry) Spec() Spec { return r.spec }

// Index loads the index once and keeps the result, success or failure,
// for the life of the value: a registry that cannot be reached is asked
// once per command, not once per skill name. A failure caused by the
// caller's context ending is not kept.
func (r *registry) Index(ctx context.Context) (*Index, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idx != nil || r.idxErr != nil {
		return r.idx, r.idxErr
	}
	idx, err := r.be.loadIndex(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.idxErr = err
		}
		return nil, err
	}
	r.idx = idx
	return idx, nil
}

// ReleaseIndex drops the index Index loaded, so that its memory can be
// reclaimed; a later Index loads it again. A failure is kept: a registry
// that could not be reached is still asked once per command.
func (r *registry) ReleaseIndex() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.idx = nil
}

// Resolved says where name@version's payload comes from.
func (r *registry) Resolved(ctx context.Context, name, version string) (string, error) {
	s, v, err := r.lookup(ctx, name, version)
	if err != nil {
		return "", err
	}
	return r.be.resolved(s, v), nil
}

// lookupSigned is lookup for reading a payload: when the registry has
// trusted signers, the version must carry a package signature that
// verifies, before a byte of the payload is read.
func (r *registry) lookupSigned(ctx context.Context, name, version string) (*Skill, *Version, error) {
	s, v, err := r.lookup(ctx, name, version)
	if err != nil || r.trust == nil {
		return s, v, err
	}
	if _, err := r.trust.VerifyPackage(r.spec.Name, name, v, r.opts.now()); err != nil {
		return nil, nil, err
	}
	return s, v, nil
}

// lookup finds name@version in the index.
func (r *registry) lookup(ctx context.Context, name, version string) (*Skill, *Version, error) {
	idx, err := r.Index(ctx)
	if err != nil {
		return nil, nil, err
	}
	s, ok := idx.Skill(name)
	if !ok {
		return nil, nil, notFound(name, "registry "+quote(r.spec.Name))
	}
	v, ok := s.Version(version)
	if !ok {
		var have []string
		for _, e := range s.Sorted() {
			have = append(have, e.Version)
		}
		return nil, nil, &Error{
			Code:    CodeVersionNotFound,
			Message: fmt.Sprintf("%s has no version %s in registry %q", name, version, r.spec.Name),
			Detail:  []string{"published: " + strings.Join(have, ", ")},
			Try:     []string{"agent-skills info " + name},
		}
	}
	return s, v, nil
}
