package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry/sshsig"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
)

// KindOCI is a registry held in an OCI-distribution registry
// (oci://host[:port]/path).
const KindOCI = "oci"

// The media types and annotations of the OCI layout (docs/registry.md,
// "OCI registries").
const (
	// OCIPackageArtifactType is the artifactType of a skill version's
	// image manifest.
	OCIPackageArtifactType = "application/vnd.agent-skills.package.v1"
	// OCIPackageConfigMediaType is its config blob: OCIPackageConfig.
	OCIPackageConfigMediaType = "application/vnd.agent-skills.package.config.v1+json"
	// OCIPackageLayerMediaType is its one layer: the deterministic archive
	// Pack writes.
	OCIPackageLayerMediaType = "application/vnd.agent-skills.package.layer.v1.tar+gzip"
	// OCIIndexArtifactType is the artifactType of the registry's index.
	OCIIndexArtifactType = "application/vnd.agent-skills.index.v1"
	// OCIIndexLayerMediaType is the index's one layer: the index JSON.
	OCIIndexLayerMediaType = "application/vnd.agent-skills.index.v1+json"
	// OCISignatureArtifactType is the artifactType of an index
	// signature: a referrer (subject) of the index manifest.
	OCISignatureArtifactType = "application/vnd.agent-skills.signature.v1"
	// OCISignatureLayerMediaType is its one layer: the armoured SSHSIG
	// (ssh-keygen -Y sign, namespace agent-skills) of the exact bytes of
	// the index layer.
	OCISignatureLayerMediaType = "application/vnd.agent-skills.signature.v1+sshsig"
	// OCIIndexTag is the tag of the index in the registry's repository.
	OCIIndexTag = "index"
	// AnnotationIntegrity carries the canonical package digest.
	AnnotationIntegrity = "dev.agent-skills.integrity"
	// OCITokenEnv holds a registry token (a password or personal access
	// token), used for every OCI registry; OCIUsernameEnv names its user.
	OCITokenEnv    = "AGENT_SKILLS_OCI_TOKEN"
	OCIUsernameEnv = "AGENT_SKILLS_OCI_USERNAME"
)

// OCI size limits for what is read back from a registry.
const (
	maxOCIManifestBytes = 4 << 20
	maxOCIConfigBytes   = 1 << 20
)

// OCIPackageConfig is the config blob of a skill version.
type OCIPackageConfig struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Kind        string `json:"kind,omitempty"`
	Description string `json:"description,omitempty"`
	Integrity   string `json:"integrity"`
}

// OCILocation is a parsed oci://host[:port]/path URL.
type OCILocation struct {
	// Host is host[:port].
	Host string
	// Path is the repository path of the index; skills live below it.
	Path string
	// PlainHTTP is true for a loopback host (or an allowed insecure one).
	PlainHTTP bool
}

// ParseOCI parses an oci:// URL; plain HTTP is used only for loopback
// hosts, or any host with allowInsecure.
func ParseOCI(raw string, allowInsecure bool) (OCILocation, error) {
	rest, ok := strings.CutPrefix(raw, "oci://")
	if !ok {
		return OCILocation{}, fmt.Errorf("an OCI registry URL starts with oci://")
	}
	host, path, _ := strings.Cut(strings.TrimSuffix(rest, "/"), "/")
	if host == "" || path == "" || strings.ContainsAny(rest, "@?#") {
		return OCILocation{}, fmt.Errorf("want oci://host[:port]/path, without credentials, query or fragment")
	}
	ref := host + "/" + path
	if _, err := remote.NewRepository(ref); err != nil {
		return OCILocation{}, fmt.Errorf("%s is not an OCI repository name (lowercase letters, digits, '.', '_', '-' and '/')", ref)
	}
	hostname := host
	if i := strings.LastIndex(host, ":"); i >= 0 && !strings.HasSuffix(host, "]") {
		hostname = host[:i]
	}
	hostname = strings.Trim(hostname, "[]")
	return OCILocation{Host: host, Path: path, PlainHTTP: allowInsecure || IsLoopback(hostname)}, nil
}

// URL is the location as an oci:// URL.
func (l OCILocation) URL() string { return "oci://" + l.Host + "/" + l.Path }

// ociBackend reads a registry from an OCI-distribution registry.
type ociBackend struct {
	spec   Spec
	opts   *Options
	loc    OCILocation
	dir    string // CacheDir/oci/<hash>
	client *auth.Client
	trust  *Trust // nil: the index is not signed
}

// ociMeta is what is remembered about the cached index.
type ociMeta struct {
	URL       string    `json:"url"`
	Digest    string    `json:"digest"`
	FetchedAt time.Time `json:"fetchedAt"`
}

func newOCI(spec Spec, opts *Options) (*ociBackend, error) {
	loc, err := ParseOCI(spec.URL, spec.AllowInsecure)
	if err != nil {
		return nil, configInvalid(spec, err.Error())
	}
	if opts.CacheDir == "" {
		return nil, configInvalid(spec, "OCI registries need a cache directory")
	}
	sum := sha256.Sum256([]byte(loc.URL()))
	return &ociBackend{spec: spec, opts: opts, loc: loc,
		dir:    filepath.Join(opts.CacheDir, "oci", hex.EncodeToString(sum[:16])),
		client: ociClient(spec, opts),
	}, nil
}

// ociClient is the authenticating client over agent-skills' HTTP client
// (NewHTTPClient): the http kind's time limits and redirect policy —
// registries send blob downloads to a CDN — with the whole request bounded
// by the total limit. Its credential is the token environment variable
// when set, else the Docker credential store (DOCKER_CONFIG or
// ~/.docker/config.json, with credsStore and credHelpers).
func ociClient(spec Spec, opts *Options) *auth.Client {
	hc := NewHTTPClient(HTTPOptions{
		Timeouts:      opts.HTTPTimeouts,
		AllowInsecure: spec.AllowInsecure,
		Transport:     opts.HTTPTransport,
		Notify:        func(msg string) { opts.notify("registry %s: %s", spec.Name, msg) },
	})
	cl := *hc.client
	cl.Timeout = hc.timeouts.Total
	c := &auth.Client{Client: &cl, Cache: auth.NewCache()}
	c.SetUserAgent("agent-skills")
	c.Credential = ociCredential(opts)
	return c
}

// ociCredential finds the credential of a host; failures to read the
// credential store mean no credential (anonymous access), never an error
// that could print a secret.
func ociCredential(opts *Options) auth.CredentialFunc {
	getenv := os.Getenv
	if opts.Getenv != nil {
		getenv = opts.Getenv
	}
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if tok := getenv(OCITokenEnv); tok != "" {
			user := getenv(OCIUsernameEnv)
			if user == "" {
				user = "agent-skills"
			}
			return auth.Credential{Username: user, Password: tok}, nil
		}
		store, err := credentials.NewStoreFromDocker(credentials.StoreOptions{})
		if err != nil {
			return auth.EmptyCredential, nil
		}
		cred, err := credentials.Credential(store)(ctx, hostport)
		if err != nil {
			return auth.EmptyCredential, nil
		}
		return cred, nil
	}
}

// repo opens the repository path (the index's when name is empty).
func (o *ociBackend) repo(name string) (*remote.Repository, error) {
	return openOCIRepo(o.loc, name, o.client)
}

func openOCIRepo(loc OCILocation, name string, client *auth.Client) (*remote.Repository, error) {
	ref := loc.Host + "/" + loc.Path
	if name != "" {
		ref += "/" + name
	}
	r, err := remote.NewRepository(ref)
	if err != nil {
		return nil, err
	}
	r.PlainHTTP = loc.PlainHTTP
	r.Client = client
	r.SkipReferrersGC = true
	return r, nil
}

// loadIndex serves a fresh cached copy, else resolves the index tag and
// downloads the index when its digest changed, falling back to the
// cached copy with a notice when the registry cannot be reached.
func (o *ociBackend) loadIndex(ctx context.Context) (*Index, error) {
	if o.trust != nil {
		return o.loadSigned(ctx)
	}
	cached, meta := o.readCache()
	file := o.loc.URL() + ":" + OCIIndexTag
	if cached != nil && (o.opts.Offline || o.fresh(meta)) {
		idx, err := o.decodeCached(cached, file)
		if err == nil || o.opts.Offline {
			return idx, err
		}
		cached = nil
	}
	if o.opts.Offline {
		return nil, unavailable(o.spec.Name, "offline and no cached index", nil, "run the command once while online")
	}
	data, desc, err := FetchOCIIndex(ctx, o.loc, o.client, o.spec.Name, meta.Digest, cached != nil)
	switch {
	case err == nil && data == nil: // unchanged
		if idx, derr := o.decodeCached(cached, file); derr == nil {
			meta.FetchedAt = o.opts.now().UTC()
			o.writeMeta(meta)
			return idx, nil
		}
		data, desc, err = FetchOCIIndex(ctx, o.loc, o.client, o.spec.Name, "", false)
	}
	switch {
	case err == nil:
		idx, derr := decodeIndexCached(data, file, o.opts.CacheDir)
		if derr != nil {
			return nil, derr
		}
		if err := writeAtomic(filepath.Join(o.dir, "index"), data); err == nil {
			o.writeMeta(ociMeta{URL: o.loc.URL(), Digest: desc.Digest.String(), FetchedAt: o.opts.now().UTC()})
		}
		return idx, nil
	case cached != nil && !isIndexError(err) && !isIntegrity(err) && !errors.Is(err, context.Canceled):
		idx, derr := o.decodeCached(cached, file)
		if derr != nil {
			return nil, err
		}
		o.opts.notify("registry %s: %s unreachable (%s); using the index cached %s",
			o.spec.Name, o.loc.URL(), firstLine(err.Error()), meta.FetchedAt.Format(time.RFC3339))
		return idx, nil
	}
	return nil, err
}

// sigFile is the cached copy of the index signature that verified.
func (o *ociBackend) sigFile() string { return filepath.Join(o.dir, "index"+SignatureSuffix) }

// verifiedCache returns the cached index when it is there with a cached
// signature that verifies now, under today's trusted signers; otherwise
// nil and why not.
func (o *ociBackend) verifiedCache() ([]byte, ociMeta, error) {
	cached, meta := o.readCache()
	if cached == nil {
		return nil, meta, nil
	}
	sig, err := readCapped(o.sigFile(), sshsig.MaxSignatureSize)
	if err != nil {
		sig = nil
	}
	if _, err := o.trust.VerifyIndex(o.spec.Name, o.loc.URL()+":"+OCIIndexTag+" (cached)", cached, sig, o.opts.now()); err != nil {
		return nil, meta, ociSignatureError(err)
	}
	return cached, meta, nil
}

// loadSigned is loadIndex for a registry with trusted signers: the index
// is decoded only after one of its signature referrers verified over its
// exact bytes, from the network or from the cache (where the signature
// that verified is kept beside the index, and verified again on every
// use, --offline included). A cached index is reused when the tag still
// names it only if its cached signature verifies under today's trust;
// otherwise (a key rotated or revoked) the index and its referrers are
// fetched again. A signature that is missing or does not verify is never
// replaced by the cached copy.
func (o *ociBackend) loadSigned(ctx context.Context) (*Index, error) {
	file := o.loc.URL() + ":" + OCIIndexTag
	cached, meta, cacheErr := o.verifiedCache()
	if o.opts.Offline {
		switch {
		case cacheErr != nil:
			return nil, cacheErr
		case cached == nil:
			return nil, unavailable(o.spec.Name, "offline and no cached index", nil, "run the command once while online")
		}
		return o.decodeCached(cached, file)
	}
	if cached != nil && o.fresh(meta) {
		if idx, err := o.decodeCached(cached, file); err == nil {
			return idx, nil
		}
		cached = nil
	}
	data, desc, err := FetchOCIIndex(ctx, o.loc, o.client, o.spec.Name, meta.Digest, cached != nil)
	if err == nil && data == nil { // unchanged, and its cached signature verifies
		if idx, derr := o.decodeCached(cached, file); derr == nil {
			meta.FetchedAt = o.opts.now().UTC()
			o.writeMeta(meta)
			return idx, nil
		}
		cached = nil
		data, desc, err = FetchOCIIndex(ctx, o.loc, o.client, o.spec.Name, "", false)
	}
	var sigs [][]byte
	if err == nil {
		sigs, err = FetchOCIIndexSignatures(ctx, o.loc, o.client, o.spec.Name, desc)
	}
	if err != nil {
		if cached != nil && !isIndexError(err) && !isIntegrity(err) && !errors.Is(err, context.Canceled) {
			idx, derr := o.decodeCached(cached, file)
			if derr != nil {
				return nil, err
			}
			o.opts.notify("registry %s: %s unreachable (%s); using the signed index cached %s",
				o.spec.Name, o.loc.URL(), firstLine(err.Error()), meta.FetchedAt.Format(time.RFC3339))
			return idx, nil
		}
		return nil, err
	}
	sig, err := verifyOCIIndex(o.trust, o.spec.Name, file+"@"+desc.Digest.String(), data, sigs, o.opts.now())
	if err != nil {
		return nil, err
	}
	idx, err := decodeIndexCached(data, file, o.opts.CacheDir)
	if err != nil {
		return nil, err
	}
	// The signature first: a crash between the writes leaves a pair that
	// fails verification and is fetched again, never a trusted one.
	if werr := writeAtomic(o.sigFile(), sig); werr != nil {
		o.opts.notify("registry %s: cannot cache the index signature: %v", o.spec.Name, werr)
		return idx, nil
	}
	if err := writeAtomic(filepath.Join(o.dir, "index"), data); err == nil {
		o.writeMeta(ociMeta{URL: o.loc.URL(), Digest: desc.Digest.String(), FetchedAt: o.opts.now().UTC()})
	}
	return idx, nil
}

// verifyOCIIndex accepts the index bytes data when one of sigs (the
// signature referrers of its manifest) verifies, and returns that one;
// none is ASK_SIGNATURE_MISSING, none verifying ASK_SIGNATURE_INVALID.
func verifyOCIIndex(t *Trust, reg, where string, data []byte, sigs [][]byte, now time.Time) ([]byte, error) {
	if len(sigs) == 0 {
		_, err := t.VerifyIndex(reg, where, data, nil, now)
		return nil, ociSignatureError(err)
	}
	var first error
	for _, sig := range sigs {
		_, err := t.VerifyIndex(reg, where, data, sig, now)
		if err == nil {
			return sig, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// ociSignatureError says where an OCI index signature is expected.
func ociSignatureError(err error) error {
	var e *Error
	if errors.As(err, &e) && e.Code == CodeSignatureMissing {
		e.Detail = []string{"expected a referrer of the index manifest with artifactType " + OCISignatureArtifactType}
	}
	return err
}

// maxOCIIndexSignatures caps the signature referrers read for one index
// (the newest listed first); maxOCIReferrerPages the pages of a
// Referrers API listing.
const (
	maxOCIIndexSignatures = 16
	maxOCIReferrerPages   = 16
)

// FetchOCIIndexSignatures lists the referrers of the index manifest desc
// with artifactType OCISignatureArtifactType (the Referrers API, or the
// referrers tag schema on registries without it) and returns their
// signatures, at most maxOCIIndexSignatures, each bounded by
// sshsig.MaxSignatureSize; none is nil. A referrer that is not a
// well-formed signature artifact of desc contributes an empty signature,
// which fails verification.
func FetchOCIIndexSignatures(ctx context.Context, loc OCILocation, client *auth.Client, regName string, desc ocispec.Descriptor) ([][]byte, error) {
	repo, err := openOCIRepo(loc, "", client)
	if err != nil {
		return nil, err
	}
	repo.ReferrerListMaxPages = maxOCIReferrerPages
	what := "listing the index signatures of " + loc.URL()
	var refs []ocispec.Descriptor
	err = repo.Referrers(ctx, ocispec.Descriptor{MediaType: desc.MediaType, Digest: desc.Digest, Size: desc.Size}, OCISignatureArtifactType,
		func(page []ocispec.Descriptor) error {
			refs = append(refs, page...)
			return nil
		})
	if err != nil {
		return nil, ociError(regName, what, err)
	}
	var sigs [][]byte
	for i := len(refs) - 1; i >= 0 && len(sigs) < maxOCIIndexSignatures; i-- {
		if refs[i].ArtifactType != OCISignatureArtifactType {
			continue
		}
		m, err := fetchOCIManifest(ctx, repo, regName, refs[i].Digest.String())
		if err != nil {
			return nil, err
		}
		if m.ArtifactType != OCISignatureArtifactType || m.Subject == nil || m.Subject.Digest != desc.Digest ||
			len(m.Layers) != 1 || m.Layers[0].MediaType != OCISignatureLayerMediaType || m.Layers[0].Size > sshsig.MaxSignatureSize {
			sigs = append(sigs, []byte{})
			continue
		}
		sig, err := content.FetchAll(ctx, repo.Blobs(), m.Layers[0])
		if err != nil {
			return nil, ociError(regName, "downloading the index signature "+refs[i].Digest.String()+" of "+loc.URL(), err)
		}
		sigs = append(sigs, sig)
	}
	return sigs, nil
}

// isIntegrity reports an ASK_INTEGRITY_MISMATCH.
func isIntegrity(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeIntegrityMismatch
}

func (o *ociBackend) decodeCached(cached []byte, file string) (*Index, error) {
	idx, err := decodeIndexCached(cached, file, o.opts.CacheDir)
	if err != nil {
		_ = os.Remove(filepath.Join(o.dir, "index"))
		_ = os.Remove(filepath.Join(o.dir, "meta.json"))
		o.opts.notify("registry %s: the cached index is unusable (%s); it was removed", o.spec.Name, firstLine(err.Error()))
	}
	return idx, err
}

func (o *ociBackend) fresh(m ociMeta) bool {
	age := o.opts.now().Sub(m.FetchedAt)
	return age >= 0 && age < o.opts.TTL
}

func (o *ociBackend) readCache() ([]byte, ociMeta) {
	var m ociMeta
	data, err := readCapped(filepath.Join(o.dir, "index"), int64(DefaultIndexLimits().MaxBytes))
	if err != nil {
		return nil, m
	}
	if raw, err := readCapped(filepath.Join(o.dir, "meta.json"), 64<<10); err == nil {
		_ = json.Unmarshal(raw, &m)
	}
	return data, m
}

func (o *ociBackend) writeMeta(m ociMeta) {
	raw, _ := json.Marshal(m)
	_ = writeAtomic(filepath.Join(o.dir, "meta.json"), raw)
}

// ErrOCINoIndex is returned by FetchOCIIndex when the registry has no
// index tag yet.
var ErrOCINoIndex = errors.New("the registry has no index yet")

// FetchOCIIndex resolves the index tag of loc and returns the index JSON
// and the index manifest's descriptor. With haveCached and the tag still
// at known, it returns nil data and the descriptor. A missing tag is
// ErrOCINoIndex (wrapped in ASK_REGISTRY_UNAVAILABLE).
// The index manifest's descriptor is the subject of its signature
// referrers (FetchOCIIndexSignatures).
func FetchOCIIndex(ctx context.Context, loc OCILocation, client *auth.Client, regName, known string, haveCached bool) ([]byte, ocispec.Descriptor, error) {
	repo, err := openOCIRepo(loc, "", client)
	if err != nil {
		return nil, ocispec.Descriptor{}, err
	}
	desc, err := repo.Resolve(ctx, OCIIndexTag)
	if err != nil {
		return nil, desc, ociError(regName, "resolving "+loc.URL()+":"+OCIIndexTag, err)
	}
	if haveCached && desc.Digest.String() == known {
		return nil, desc, nil
	}
	m, err := fetchOCIManifest(ctx, repo, regName, desc.Digest.String())
	if err != nil {
		return nil, desc, err
	}
	if m.ArtifactType != OCIIndexArtifactType || len(m.Layers) != 1 || m.Layers[0].MediaType != OCIIndexLayerMediaType {
		return nil, desc, invalidIndex(loc.URL()+":"+OCIIndexTag, []string{fmt.Sprintf("the manifest is not an agent-skills index (artifactType %q, want %q with one %s layer)",
			m.ArtifactType, OCIIndexArtifactType, OCIIndexLayerMediaType)})
	}
	if m.Layers[0].Size > int64(DefaultIndexLimits().MaxBytes) {
		return nil, desc, invalidIndex(loc.URL()+":"+OCIIndexTag, []string{fmt.Sprintf("index is larger than %d bytes", DefaultIndexLimits().MaxBytes)})
	}
	data, err := content.FetchAll(ctx, repo.Blobs(), m.Layers[0])
	if err != nil {
		return nil, desc, ociError(regName, "downloading the index of "+loc.URL(), err)
	}
	return data, desc, nil
}

// fetchOCIManifest pulls the image manifest dgst, checks its bytes
// against the digest and decodes it.
func fetchOCIManifest(ctx context.Context, repo *remote.Repository, regName, dgst string) (*ocispec.Manifest, error) {
	want, err := digest.Parse(dgst)
	if err != nil {
		return nil, ociError(regName, "parsing "+dgst, err)
	}
	_, rc, err := repo.Manifests().FetchReference(ctx, dgst)
	if err != nil {
		return nil, ociError(regName, "fetching manifest "+dgst+" of "+repo.Reference.Repository, err)
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, maxOCIManifestBytes+1))
	if err != nil {
		return nil, ociError(regName, "fetching manifest "+dgst, err)
	}
	if len(raw) > maxOCIManifestBytes {
		return nil, archiveTooLarge(repo.Reference.Repository+"@"+dgst, fmt.Sprintf("manifest larger than %d bytes", maxOCIManifestBytes))
	}
	if got := digest.SHA256.FromBytes(raw); got != want {
		return nil, &Error{Code: CodeIntegrityMismatch,
			Message: fmt.Sprintf("registry %q: the manifest %s@%s has digest %s", regName, repo.Reference.Repository, dgst, got),
			Try:     []string{"report the registry's corrupted content to its maintainers"}}
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, invalidIndex(repo.Reference.Repository+"@"+dgst, []string{"the manifest is not JSON: " + err.Error()})
	}
	return &m, nil
}

// ociError maps an oras failure: a digest mismatch is
// ASK_INTEGRITY_MISMATCH, a missing manifest or blob, a refused
// authentication or a network failure ASK_REGISTRY_UNAVAILABLE. The
// messages carry no credential: oras never puts one in an error.
func ociError(regName, what string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, content.ErrMismatchedDigest) || errors.Is(err, content.ErrTrailingData) {
		return &Error{Code: CodeIntegrityMismatch,
			Message: fmt.Sprintf("registry %q: %s: the content does not match its OCI digest", regName, what),
			Err:     err,
			Try:     []string{"report the registry's corrupted content to its maintainers"}}
	}
	try := "check the registry URL (agent-skills registry list) and your network, then retry"
	if isAuthError(err) {
		try = "log in to the registry (docker login, or set " + OCITokenEnv + ")"
	}
	if errors.Is(err, errdef.ErrNotFound) {
		err = fmt.Errorf("%w: %v", ErrOCINoIndex, err)
		if !strings.Contains(what, ":"+OCIIndexTag) {
			err = errors.Unwrap(err)
		}
	}
	return unavailable(regName, what+" failed", err, try)
}

// payload pulls the version by its manifest digest, checks the manifest
// against the index (artifact type, annotation integrity, one layer) and
// extracts the layer through the payload cache, where the canonical
// digest is checked.
func (o *ociBackend) payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if v.Manifest == "" {
		return nil, invalidIndex(o.loc.URL(), []string{fmt.Sprintf("%s@%s has no OCI manifest digest", s.Name, v.Version)})
	}
	manifest := v.Manifest
	if locked, ok := ctx.Value(lockedKey{}).(string); ok {
		// A restore pulls the digest the lock records, whatever the index
		// says now: a moved tag or index entry cannot change the bytes.
		if d, ok := strings.CutPrefix(locked, ociResolved(o.loc, s.Name, "")); ok && checkManifestDigest(d) == "" {
			manifest = d
		}
	}
	return r.tarballPayload(ctx, v, s.Name, func(ctx context.Context) (io.ReadCloser, error) {
		if o.opts.Offline {
			return nil, unavailable(o.spec.Name, fmt.Sprintf("offline and %s@%s is not cached", s.Name, v.Version), nil, "run the command once while online")
		}
		data, err := PullOCIPackage(ctx, o.loc, o.client, o.spec.Name, s.Name, v.Version, manifest, v.Integrity)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}, verify)
}

// PullOCIPackage fetches the archive of name@version by its manifest
// digest and checks the manifest: artifact type, one layer of the
// package media type within the size limit, and the integrity annotation
// and config equal to integrity. The layer's OCI digest is verified while
// it is read; the caller checks the canonical digest of what it
// extracts.
//
// Package signatures are not referrers: they travel in the index
// entries' signatures, over the package statement.
func PullOCIPackage(ctx context.Context, loc OCILocation, client *auth.Client, regName, name, version, manifest, integrity string) ([]byte, error) {
	repo, err := openOCIRepo(loc, name, client)
	if err != nil {
		return nil, ociError(regName, "opening "+name, err)
	}
	m, err := fetchOCIManifest(ctx, repo, regName, manifest)
	if err != nil {
		return nil, err
	}
	where := fmt.Sprintf("%s@%s (%s/%s@%s)", name, version, loc.URL(), name, manifest)
	if m.ArtifactType != OCIPackageArtifactType || len(m.Layers) != 1 || m.Layers[0].MediaType != OCIPackageLayerMediaType {
		return nil, invalidIndex(where, []string{fmt.Sprintf("not an agent-skills package (artifactType %q, want %q with one %s layer)",
			m.ArtifactType, OCIPackageArtifactType, OCIPackageLayerMediaType)})
	}
	if got := m.Annotations[AnnotationIntegrity]; !format.SameIntegrity(got, integrity) {
		return nil, mismatch(name, version, "the "+AnnotationIntegrity+" annotation of "+where, integrity, fmt.Sprintf("%q", got))
	}
	if m.Config.Size > maxOCIConfigBytes {
		return nil, archiveTooLarge(where, fmt.Sprintf("config larger than %d bytes", maxOCIConfigBytes))
	}
	raw, err := content.FetchAll(ctx, repo.Blobs(), m.Config)
	if err != nil {
		return nil, ociError(regName, "downloading the config of "+where, err)
	}
	var cfg OCIPackageConfig
	if err := json.Unmarshal(raw, &cfg); err != nil || cfg.Name != name || cfg.Version != version || !format.SameIntegrity(cfg.Integrity, integrity) {
		return nil, mismatch(name, version, "the config of "+where, integrity, fmt.Sprintf("%q@%q %q", cfg.Name, cfg.Version, cfg.Integrity))
	}
	if m.Layers[0].Size > maxTarballBytes {
		return nil, archiveTooLarge(where, fmt.Sprintf("layer larger than %d bytes", maxTarballBytes))
	}
	data, err := content.FetchAll(ctx, repo.Blobs(), m.Layers[0])
	if err != nil {
		return nil, ociError(regName, "downloading "+where, err)
	}
	return data, nil
}

// lockedKey is the context key of WithLocked.
type lockedKey struct{}

// WithLocked returns ctx carrying where a lock file records a package
// came from (Fetched.Resolved). An OCI registry then pulls that manifest
// digest instead of the one its index lists now; other kinds ignore it.
// The canonical digest is checked as always.
func WithLocked(ctx context.Context, resolved string) context.Context {
	return context.WithValue(ctx, lockedKey{}, resolved)
}

// resolved is oci://host/path/name@sha256:….
func (o *ociBackend) resolved(s *Skill, v *Version) string {
	return ociResolved(o.loc, s.Name, v.Manifest)
}

// ociResolved is the lock's record of name's manifest.
func ociResolved(loc OCILocation, name, manifest string) string {
	return loc.URL() + "/" + name + "@" + manifest
}
