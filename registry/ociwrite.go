package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/agent-skills/agent-skills/format"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/errcode"
)

// ociFixedCreated is the org.opencontainers.image.created annotation of
// every manifest agent-skills pushes: a fixed value, so that the same
// package pushed twice (a mirror, a retried publish) has the same digest.
const ociFixedCreated = "1970-01-01T00:00:00Z"

// Index update policy: bounded retries with jittered exponential backoff,
// and a second look at the tag after a settle delay.
const (
	ociIndexAttempts = 10
	ociFirstBackoff  = 50 * time.Millisecond
	// The settle delay is four times the window between our re-resolve
	// of the tag and the end of our tag write — a competitor that read
	// the same digest tags within a window of its own — within bounds.
	ociMinSettle = 25 * time.Millisecond
	ociMaxSettle = 2 * time.Second
)

// OCIWriter pushes packages and the index of one OCI registry.
type OCIWriter struct {
	Loc    OCILocation
	name   string
	client *auth.Client
	sleep  func(context.Context, time.Duration) error
	// SignIndex, when set, signs the exact bytes of every index
	// UpdateIndex writes (an armoured SSH signature); the signature is
	// pushed as a referrer of the index manifest before the index tag
	// moves to it.
	SignIndex func(index []byte) ([]byte, error)
}

// NewOCIWriter prepares writes to the OCI registry spec describes, with
// the credentials and transport of opts.
func NewOCIWriter(spec Spec, opts Options) (*OCIWriter, error) {
	loc, err := ParseOCI(spec.URL, spec.AllowInsecure)
	if err != nil {
		return nil, configInvalid(spec, err.Error())
	}
	w := &OCIWriter{Loc: loc, name: spec.Name, client: ociClient(spec, &opts), sleep: opts.Sleep}
	if w.sleep == nil {
		w.sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
				return nil
			}
		}
	}
	return w, nil
}

// Index reads the current index and the digest of its manifest; a
// registry without an index yet has an empty one and digest "".
func (w *OCIWriter) Index(ctx context.Context) (*Index, string, error) {
	data, desc, err := FetchOCIIndex(ctx, w.Loc, w.client, w.name, "", false)
	if errors.Is(err, ErrOCINoIndex) {
		return &Index{SchemaVersion: IndexSchemaVersion}, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	idx, err := DecodeIndex(data, w.Loc.URL()+":"+OCIIndexTag)
	if err != nil {
		return nil, "", err
	}
	return idx, desc.Digest.String(), nil
}

// PushPackage pushes the archive (the bytes Pack wrote) of cfg.Name at
// cfg.Version as an artifact in repository <path>/<name>, tagged
// <version>, and returns its manifest digest. Pushing the same package
// again is harmless: the manifest is the same.
//
// Package signatures are not referrers: they travel in the index
// entries' signatures, over the package statement.
func (w *OCIWriter) PushPackage(ctx context.Context, cfg OCIPackageConfig, archive []byte) (string, error) {
	repo, err := openOCIRepo(w.Loc, cfg.Name, w.client)
	if err != nil {
		return "", ociError(w.name, "opening "+cfg.Name, err)
	}
	cfgBytes := mustJSON(cfg)
	cfgDesc := content.NewDescriptorFromBytes(OCIPackageConfigMediaType, cfgBytes)
	layer := content.NewDescriptorFromBytes(OCIPackageLayerMediaType, archive)
	layer.Annotations = map[string]string{ocispec.AnnotationTitle: cfg.Name + "-" + cfg.Version + ".tar.gz"}
	for _, b := range []struct {
		d    ocispec.Descriptor
		data []byte
	}{{cfgDesc, cfgBytes}, {layer, archive}} {
		if err := pushBlob(ctx, repo, b.d, b.data); err != nil {
			return "", ociError(w.name, "pushing "+cfg.Name+"@"+cfg.Version, err)
		}
	}
	desc, err := oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, OCIPackageArtifactType, oras.PackManifestOptions{
		Layers:           []ocispec.Descriptor{layer},
		ConfigDescriptor: &cfgDesc,
		ManifestAnnotations: map[string]string{
			ocispec.AnnotationTitle:   cfg.Name,
			ocispec.AnnotationVersion: cfg.Version,
			ocispec.AnnotationCreated: ociFixedCreated,
			AnnotationIntegrity:       cfg.Integrity,
		},
	})
	if err != nil {
		return "", ociError(w.name, "pushing the manifest of "+cfg.Name+"@"+cfg.Version, err)
	}
	if err := repo.Tag(ctx, desc, cfg.Version); err != nil {
		return "", ociError(w.name, "tagging "+cfg.Name+":"+cfg.Version, err)
	}
	return desc.Digest.String(), nil
}

// pushBlob pushes a blob unless the registry has it.
func pushBlob(ctx context.Context, repo interface {
	content.Pusher
	Exists(context.Context, ocispec.Descriptor) (bool, error)
}, d ocispec.Descriptor, data []byte) error {
	if ok, err := repo.Exists(ctx, d); err == nil && ok {
		return nil
	}
	err := repo.Push(ctx, d, bytesReader(data))
	if err != nil && !isAlreadyExists(err) {
		return err
	}
	return nil
}

// codePublishVersionExists is publish's code for a version already
// published (cli/internal/publish declares and documents it).
const codePublishVersionExists = "ASK_PUBLISH_VERSION_EXISTS"

// mustJSON encodes a value that cannot fail to encode.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("registry: " + err.Error())
	}
	return b
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func isAlreadyExists(err error) bool { return errors.Is(err, errdef.ErrAlreadyExists) }

// IndexUpdate says what UpdateIndex did.
type IndexUpdate struct {
	// Digest is the manifest digest of the index now tagged.
	Digest string `json:"digest"`
	// Attempts counts the index writes, more than one when another
	// publisher changed the index meanwhile.
	Attempts int `json:"attempts"`
	// Signature is the manifest digest of the index's signature
	// referrer, when SignIndex signed it.
	Signature string `json:"signature,omitempty"`
}

// UpdateIndex applies edit to the current index and tags the result as
// the index, with optimistic concurrency. The distribution API has no
// compare-and-swap, so: read the index and its manifest digest, edit it,
// push the new index manifest by digest (untagged), re-resolve the tag,
// and tag the new manifest only if the tag still names the digest read;
// if it moved, read and edit again (bounded, with jittered backoff).
// After tagging, the tag is read again at once and after a settle delay
// (four times the re-resolve-to-tag window, 25 ms to 2 s):
// if the index it names lacks what edit added (check reports it), a
// concurrent publisher overwrote it between the re-resolve and the tag,
// and the edit is applied again on top of theirs. The window that remains
// — another writer tagging after both looks — is documented in
// docs/registry.md.
func (w *OCIWriter) UpdateIndex(ctx context.Context, edit func(*Index) error, check func(*Index) bool) (*IndexUpdate, error) {
	repo, err := openOCIRepo(w.Loc, "", w.client)
	if err != nil {
		return nil, ociError(w.name, "opening "+w.Loc.URL(), err)
	}
	backoff := ociFirstBackoff
	for attempt := 1; attempt <= ociIndexAttempts; attempt++ {
		if attempt > 1 {
			d := backoff + time.Duration(rand.Int64N(int64(backoff)))
			if err := w.sleep(ctx, d); err != nil {
				return nil, err
			}
			backoff = min(backoff*2, 2*time.Second)
		}
		idx, base, err := w.Index(ctx)
		if err != nil {
			return nil, err
		}
		if err := edit(idx); err != nil {
			return nil, err
		}
		data := idx.EncodeJSON()
		if _, err := DecodeIndex(data, w.Loc.URL()+":"+OCIIndexTag); err != nil {
			return nil, err
		}
		var sig []byte
		if w.SignIndex != nil {
			// Signed before anything is pushed: a key that cannot sign
			// leaves the registry as it was. Every attempt signs the index
			// it merged.
			if sig, err = w.SignIndex(data); err != nil {
				return nil, err
			}
		}
		desc, err := w.pushIndex(ctx, repo, data)
		if err != nil {
			// Concurrent uploads of one blob (the empty config every index
			// shares) can fail one of them with "blob unknown" for a
			// moment: a refused login ends the attempts, anything else is
			// tried again.
			if isAuthError(err) || attempt == ociIndexAttempts {
				return nil, ociError(w.name, "pushing the index", err)
			}
			continue
		}
		window := time.Now()
		if cur, _ := w.tagDigest(ctx); cur != base {
			continue // another publisher moved the index: merge again
		}
		// The signature is a referrer of the index manifest, pushed before
		// the tag moves: a reader never sees a tagged index whose
		// signature is not there yet.
		sigDigest := ""
		if sig != nil {
			sd, err := PushOCIIndexSignature(ctx, repo, desc, sig)
			if err != nil {
				return nil, ociError(w.name, "pushing the index signature", err)
			}
			sigDigest = sd.Digest.String()
		}
		if err := repo.Tag(ctx, desc, OCIIndexTag); err != nil {
			return nil, ociError(w.name, "tagging the index", err)
		}
		settle := min(max(4*time.Since(window), ociMinSettle), ociMaxSettle)
		if w.landed(ctx, check, 0) && w.landed(ctx, check, settle) {
			return &IndexUpdate{Digest: desc.Digest.String(), Attempts: attempt, Signature: sigDigest}, nil
		}
	}
	return nil, &Error{Code: CodeRegistryUnavailable,
		Message: fmt.Sprintf("registry %q: the index kept changing while publishing; gave up after %d attempts", w.name, ociIndexAttempts),
		Try:     []string{"publish again: the package itself is pushed and will be listed on the next attempt"}}
}

// pushIndex pushes the index JSON, the empty config and the index
// manifest (untagged) and returns the manifest's descriptor.
func (w *OCIWriter) pushIndex(ctx context.Context, repo *remote.Repository, data []byte) (ocispec.Descriptor, error) {
	layer := content.NewDescriptorFromBytes(OCIIndexLayerMediaType, data)
	if err := pushBlob(ctx, repo, layer, data); err != nil {
		return ocispec.Descriptor{}, err
	}
	empty := ocispec.DescriptorEmptyJSON
	if err := pushBlob(ctx, repo, empty, empty.Data); err != nil {
		return ocispec.Descriptor{}, err
	}
	return oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, OCIIndexArtifactType, oras.PackManifestOptions{
		Layers:              []ocispec.Descriptor{layer},
		ConfigDescriptor:    &empty,
		ManifestAnnotations: map[string]string{ocispec.AnnotationCreated: ociFixedCreated},
	})
}

// PushOCIIndexSignature pushes sig, an armoured SSH signature of the
// index layer of the manifest index, as a referrer of index in repo: an
// artifact of type OCISignatureArtifactType with the empty config and one
// OCISignatureLayerMediaType layer. It returns the signature manifest's
// descriptor. On a registry without the Referrers API, oras keeps the
// referrers tag schema (tag sha256-<hex of index's digest>) up to date.
func PushOCIIndexSignature(ctx context.Context, repo *remote.Repository, index ocispec.Descriptor, sig []byte) (ocispec.Descriptor, error) {
	layer := content.NewDescriptorFromBytes(OCISignatureLayerMediaType, sig)
	if err := pushBlob(ctx, repo, layer, sig); err != nil {
		return ocispec.Descriptor{}, err
	}
	empty := ocispec.DescriptorEmptyJSON
	if err := pushBlob(ctx, repo, empty, empty.Data); err != nil {
		return ocispec.Descriptor{}, err
	}
	subject := ocispec.Descriptor{MediaType: index.MediaType, Digest: index.Digest, Size: index.Size}
	return oras.PackManifest(ctx, repo, oras.PackManifestVersion1_1, OCISignatureArtifactType, oras.PackManifestOptions{
		Subject:             &subject,
		Layers:              []ocispec.Descriptor{layer},
		ConfigDescriptor:    &empty,
		ManifestAnnotations: map[string]string{ocispec.AnnotationCreated: ociFixedCreated},
	})
}

// isAuthError reports a refused or missing login.
func isAuthError(err error) bool {
	var re *errcode.ErrorResponse
	return errors.As(err, &re) && (re.StatusCode == http.StatusUnauthorized || re.StatusCode == http.StatusForbidden) ||
		errors.Is(err, auth.ErrBasicCredentialNotFound)
}

// tagDigest is the digest the index tag names now, "" when none.
func (w *OCIWriter) tagDigest(ctx context.Context) (string, error) {
	repo, err := openOCIRepo(w.Loc, "", w.client)
	if err != nil {
		return "", err
	}
	d, err := repo.Resolve(ctx, OCIIndexTag)
	if err != nil {
		return "", err
	}
	return d.Digest.String(), nil
}

// landed waits delay and reports whether the tagged index passes check.
func (w *OCIWriter) landed(ctx context.Context, check func(*Index) bool, delay time.Duration) bool {
	if delay > 0 && w.sleep(ctx, delay) != nil {
		return false
	}
	idx, _, err := w.Index(ctx)
	return err == nil && (check == nil || check(idx))
}

// MergeVersion adds version v of skill s (its name, description and
// keywords) to idx, and recomputes the skill's latest; adding a version
// already listed with the same manifest is a no-op, with another one an
// error.
func MergeVersion(idx *Index, s *Skill, v *Version) error {
	var cur *Skill
	for _, e := range idx.Skills {
		if e.Name == s.Name {
			cur = e
		}
	}
	if cur == nil {
		cur = &Skill{Name: s.Name}
		idx.Skills = append(idx.Skills, cur)
		idx.byName = nil
	}
	cur.Description, cur.Keywords = s.Description, slices.Clone(s.Keywords)
	for _, e := range cur.Versions {
		if e.Version == v.Version {
			if e.Manifest == v.Manifest && e.Integrity == v.Integrity {
				return nil
			}
			return &Error{Code: codePublishVersionExists,
				Message: fmt.Sprintf("%s@%s is already in the index, with other content", s.Name, v.Version),
				Try:     []string{"bump the version in skill.yaml and publish again"}}
		}
	}
	nv := *v
	if nv.sv == nil {
		nv.sv = v.Semver()
	}
	cur.Versions = append(cur.Versions, &nv)
	cur.Latest = defaultLatest(cur.Versions)
	return nil
}

// HasVersion reports whether idx lists name@version with manifest.
func HasVersion(idx *Index, name, version, manifest string) bool {
	s, ok := idx.Skill(name)
	if !ok {
		return false
	}
	v, ok := s.Version(version)
	return ok && v.Manifest == manifest
}

// Publish packs pkg (verified by the caller: integrity is its canonical
// digest), pushes it, and lists version v of skill s in the index with
// its manifest digest. It returns the index entry as listed.
func (w *OCIWriter) Publish(ctx context.Context, pkg *format.Package, s *Skill, v *Version) (*Version, *IndexUpdate, error) {
	var buf bytes.Buffer
	if err := Pack(pkg.FS, pkg.Files, &buf); err != nil {
		return nil, nil, fmt.Errorf("packing %s@%s: %w", s.Name, v.Version, err)
	}
	cfg := OCIPackageConfig{Name: s.Name, Version: v.Version, Description: s.Description, Integrity: v.Integrity}
	if pkg.Manifest != nil {
		cfg.Kind = string(pkg.Manifest.Kind)
	}
	manifest, err := w.PushPackage(ctx, cfg, buf.Bytes())
	if err != nil {
		return nil, nil, err
	}
	nv := *v
	nv.Path, nv.Tarball, nv.Manifest = "", "", manifest
	upd, err := w.UpdateIndex(ctx, func(idx *Index) error { return MergeVersion(idx, s, &nv) },
		func(idx *Index) bool { return HasVersion(idx, s.Name, nv.Version, manifest) })
	if err != nil {
		return nil, nil, err
	}
	return &nv, upd, nil
}
