package registry

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/registry/ocitest"
	"github.com/agent-skills/agent-skills/registry/sshsig"
	"golang.org/x/crypto/ssh"
)

// signWith is an OCIWriter.SignIndex for key k.
func signWith(k ssh.Signer) func([]byte) ([]byte, error) {
	return func(b []byte) ([]byte, error) { return sshsig.Sign(k, sshsig.Namespace, b) }
}

// TestOCISignedIndex runs the index signature of an OCI registry against
// the real registry (no Referrers API there: the referrers tag schema):
// a signed index is accepted, a wrong key, a tampered index and an
// unsigned one are refused, the cached signature is verified again
// offline, and a rotated key is accepted once the index is signed again.
func TestOCISignedIndex(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	ctx := context.Background()
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	k1, k2, k3 := signingKey(t, 1), signingKey(t, 2), signingKey(t, 3)
	w, err := NewOCIWriter(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.SignIndex = signWith(k1)
	publishOCI(t, w, "alpha", "1.0.0", "a")

	// index opens the registry trusting trust with cache, and reads its index.
	index := func(trust, cache string, offline bool) (*Index, error) {
		t.Helper()
		s := spec
		s.TrustedSigners = trust
		r, err := Open(s, Options{CacheDir: cache, Offline: offline})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return r.Index(ctx)
	}
	want := func(what string, err error, code string) {
		t.Helper()
		if codeOf(err) != code {
			t.Fatalf("%s: err = %v, want %s", what, errText(err), code)
		}
	}

	// The referrer is there under the tag schema's tag.
	repo, err := openOCIRepo(w.Loc, "", w.client)
	if err != nil {
		t.Fatal(err)
	}
	desc, err := repo.Resolve(ctx, OCIIndexTag)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Resolve(ctx, "sha256-"+desc.Digest.Encoded()); err != nil {
		t.Fatalf("no referrers tag for the index: %v", err)
	}

	cache := t.TempDir()
	idx, err := index(allowedFor("a", k1), cache, false)
	want("signed index, trusted key", err, "")
	if _, ok := idx.Skill("alpha"); !ok {
		t.Fatalf("alpha not in the signed index")
	}
	if _, err := os.Stat(filepath.Join(cache, "oci")); err != nil {
		t.Fatal(err)
	}
	_, err = index(allowedFor("b", k2), t.TempDir(), false)
	want("wrong key", err, CodeSignatureInvalid)

	// Offline, the cached signature is verified again under today's trust.
	_, err = index(allowedFor("a", k1), cache, true)
	want("offline, trusted key", err, "")
	_, err = index(allowedFor("b", k2), cache, true)
	want("offline, wrong key", err, CodeSignatureInvalid)

	// Tampered: other index bytes under the tag, with a referrer whose
	// signature was made over other bytes.
	other := (&Index{SchemaVersion: IndexSchemaVersion}).EncodeJSON()
	tdesc, err := w.pushIndex(ctx, repo, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PushOCIIndexSignature(ctx, repo, tdesc, mustSign(t, k1, []byte("something else"))); err != nil {
		t.Fatal(err)
	}
	if err := repo.Tag(ctx, tdesc, OCIIndexTag); err != nil {
		t.Fatal(err)
	}
	_, err = index(allowedFor("a", k1), cache, false)
	want("tampered index", err, CodeSignatureInvalid)
	if err != nil && !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("tampered index: %v", err)
	}
	// The refused index did not replace the cached one, which still
	// verifies offline.
	if idx, err := index(allowedFor("a", k1), cache, true); err != nil || len(idx.Skills) != 1 {
		t.Fatalf("offline after a refused index: %v", errText(err))
	}

	// Unsigned: a publisher without a key.
	plain, _ := NewOCIWriter(spec, Options{})
	publishOCI(t, plain, "beta", "1.0.0", "b")
	_, err = index(allowedFor("a", k1), cache, false)
	want("unsigned index", err, CodeSignatureMissing)
	if !strings.Contains(errText(err), OCISignatureArtifactType) {
		t.Fatalf("unsigned index: %s, want the referrer's artifactType named", errText(err))
	}

	// Rotation: the index signed by k1 is refused by a trust of k3 alone;
	// once it is signed by k3, that trust accepts it (the same cache) and
	// the old key's does not.
	publishOCI(t, w, "gamma", "1.0.0", "c")
	_, err = index(allowedFor("a", k3), cache, false)
	want("k1's index, trusting k3", err, CodeSignatureInvalid)
	w.SignIndex = signWith(k3)
	publishOCI(t, w, "delta", "1.0.0", "d")
	idx, err = index(allowedFor("a", k3), cache, false)
	want("k3's index, trusting k3", err, "")
	if len(idx.Skills) != 3 { // beta, gamma, delta: the tampered index dropped alpha
		t.Fatalf("rotated index has %d skills, want 3", len(idx.Skills))
	}
	_, err = index(allowedFor("a", k1), cache, false)
	want("k3's index, trusting k1", err, CodeSignatureInvalid)
	_, err = index(allowedFor("a", k1)+allowedFor("a", k3), cache, false)
	want("k3's index, trusting both", err, "")
}

// TestOCISignedConcurrentPublish: two signed publishers at once both
// land, and the index the tag names is signed (a retry re-signs the
// index it merged).
func TestOCISignedConcurrentPublish(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	k := signingKey(t, 1)
	errs := make(chan error, 2)
	for _, name := range []string{"alpha", "beta"} {
		go func() {
			w, _ := NewOCIWriter(spec, Options{})
			w.SignIndex = signWith(k)
			_, err := tryPublishOCI(t, w, name, "1.0.0", name)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	spec.TrustedSigners = allowedFor("a", k)
	r, err := Open(spec, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := r.Index(context.Background())
	if err != nil {
		t.Fatalf("signed index after two publishers: %v", errText(err))
	}
	if len(idx.Skills) != 2 {
		t.Fatalf("index has %d skills, want 2", len(idx.Skills))
	}
}

// TestVerifyOCIIndex: no referrer is missing; a malformed one (an empty
// signature) or one over other bytes is invalid; one good among bad ones
// is enough.
func TestVerifyOCIIndex(t *testing.T) {
	k := signingKey(t, 1)
	trust, err := ParseTrust(allowedFor("a", k))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"schemaVersion":1}`)
	good := mustSign(t, k, data)
	bad := mustSign(t, k, []byte("other"))
	now := time.Now()
	for _, c := range []struct {
		name string
		sigs [][]byte
		code string
	}{
		{"none", nil, CodeSignatureMissing},
		{"malformed", [][]byte{{}}, CodeSignatureInvalid},
		{"other bytes", [][]byte{bad}, CodeSignatureInvalid},
		{"one good", [][]byte{{}, bad, good}, ""},
	} {
		sig, err := verifyOCIIndex(trust, "team", "oci://h/p:index", data, c.sigs, now)
		if codeOf(err) != c.code {
			t.Errorf("%s: err = %v, want %q", c.name, errText(err), c.code)
		}
		if c.code == "" && !bytes.Equal(sig, good) {
			t.Errorf("%s: returned another signature", c.name)
		}
	}
}
