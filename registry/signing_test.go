package registry

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry/sshsig"
	"golang.org/x/crypto/ssh"
)

func signingKey(t testing.TB, seed byte) ssh.Signer {
	t.Helper()
	s, err := ssh.NewSignerFromKey(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func allowedFor(principal string, s ssh.Signer) string {
	return principal + " " + string(ssh.MarshalAuthorizedKey(s.PublicKey()))
}

func mustSign(t testing.TB, k ssh.Signer, data []byte) []byte {
	t.Helper()
	sig, err := sshsig.Sign(k, sshsig.Namespace, data)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// signIndex adds a package signature by k to every version of idx.
func signIndex(t testing.TB, idx *Index, k ssh.Signer) {
	t.Helper()
	for _, s := range idx.Skills {
		for _, v := range s.Versions {
			c, err := CompactSignature(mustSign(t, k, PackageStatement(s.Name, v.Version, v.Integrity)))
			if err != nil {
				t.Fatal(err)
			}
			v.Signatures = []string{c}
		}
	}
}

// signedLocal makes a local registry whose index and versions k signed.
func signedLocal(t *testing.T, k ssh.Signer) (root string, idx *Index) {
	t.Helper()
	root = tempRegistry(t)
	file := filepath.Join(root, indexPath)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if idx, err = DecodeIndex(data, indexPath); err != nil {
		t.Fatal(err)
	}
	signIndex(t, idx, k)
	writeSigned(t, file, idx.EncodeYAML(), k)
	return root, idx
}

func writeSigned(t testing.TB, file string, data []byte, k ssh.Signer) {
	t.Helper()
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file+SignatureSuffix, mustSign(t, k, data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSignedLocalRegistry(t *testing.T) {
	k1, k2 := signingKey(t, 1), signingKey(t, 2)
	root, idx := signedLocal(t, k1)
	file := filepath.Join(root, indexPath)
	name, version := idx.Skills[0].Name, idx.Skills[0].Latest
	open := func(trust string) Registry {
		t.Helper()
		r, err := Open(Spec{Name: "team", URL: root, TrustedSigners: trust}, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := open(allowedFor("release@example.com", k1))
	if _, err := r.Index(t.Context()); err != nil {
		t.Fatalf("Index(signed) = %v", err)
	}
	if _, err := r.Fetch(t.Context(), name, version, filepath.Join(t.TempDir(), name)); err != nil {
		t.Fatalf("Fetch(signed) = %v", err)
	}
	// Without trusted signers nothing is checked.
	if _, err := open("").Index(t.Context()); err != nil {
		t.Fatalf("Index(no trust) = %v", err)
	}
	// A key that is not trusted.
	if _, err := open(allowedFor("other", k2)).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(wrong key) = %v, want %s", err, CodeSignatureInvalid)
	}
	// Rotation: trust k2 only, index re-signed by k2 but packages still by
	// k1 → the packages refuse; all re-signed by k2 → accepted.
	data, _ := os.ReadFile(file)
	writeSigned(t, file, data, k2)
	r2 := open(allowedFor("new@example.com", k2))
	if _, err := r2.Index(t.Context()); err != nil {
		t.Fatalf("Index(re-signed by the new key) = %v", err)
	}
	dest := filepath.Join(t.TempDir(), name)
	if _, err := r2.Fetch(t.Context(), name, version, dest); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Fetch(package signed by the old key) = %v, want %s", err, CodeSignatureInvalid)
	}
	assertNothingAt(t, dest)
	if _, err := open(allowedFor("release@example.com", k1)).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(old key after rotation) = %v, want %s", err, CodeSignatureInvalid)
	}
	// Tampered: one byte appended after signing.
	writeSigned(t, file, data, k1)
	if err := os.WriteFile(file, append(data, "# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := open(allowedFor("a", k1)).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(tampered) = %v, want %s", err, CodeSignatureInvalid)
	}
	// Missing signature.
	os.Remove(file + SignatureSuffix)
	if _, err := open(allowedFor("a", k1)).Index(t.Context()); codeOf(err) != CodeSignatureMissing {
		t.Fatalf("Index(unsigned) = %v, want %s", err, CodeSignatureMissing)
	}
	// Signed index, unsigned version.
	idx.Skills[0].Versions[0].Signatures = nil
	writeSigned(t, file, idx.EncodeYAML(), k1)
	v0 := idx.Skills[0].Versions[0].Version
	dest = filepath.Join(t.TempDir(), name)
	if _, err := open(allowedFor("a", k1)).Fetch(t.Context(), name, v0, dest); codeOf(err) != CodeSignatureMissing {
		t.Fatalf("Fetch(unsigned version) = %v, want %s", err, CodeSignatureMissing)
	}
	assertNothingAt(t, dest)
	// Broken trust is a configuration error.
	if _, err := Open(Spec{Name: "x", URL: root, TrustedSigners: "alice cert-authority " + string(ssh.MarshalAuthorizedKey(k1.PublicKey()))}, Options{}); codeOf(err) != CodeRegistryConfigInvalid {
		t.Fatalf("Open(cert-authority trust) = %v, want %s", err, CodeRegistryConfigInvalid)
	}
}

func TestSignedHTTPRegistry(t *testing.T) {
	k1, k2 := signingKey(t, 1), signingKey(t, 2)
	fs := newFakeServer(t)
	idx, err := DecodeIndex(fs.index, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	signIndex(t, idx, k1)
	body := idx.EncodeJSON()
	fs.setIndex(body)
	fs.files["/reg/index.json.sig"] = mustSign(t, k1, body)
	cache := t.TempDir()
	open := func(trust string, offline bool) Registry {
		t.Helper()
		r, err := Open(Spec{Name: "h", URL: fs.url(), TrustedSigners: trust}, Options{CacheDir: cache, Offline: offline, Sleep: (&sleeps{}).sleep})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	trust1 := allowedFor("release", k1)
	r := open(trust1, false)
	if _, err := r.Index(t.Context()); err != nil {
		t.Fatalf("Index(signed http) = %v", err)
	}
	s := idx.Skills[0]
	if _, err := r.Fetch(t.Context(), s.Name, s.Latest, filepath.Join(t.TempDir(), s.Name)); err != nil {
		t.Fatalf("Fetch(signed http) = %v", err)
	}
	// Offline, from the cache: the cached signature is verified again.
	if _, err := open(trust1, true).Index(t.Context()); err != nil {
		t.Fatalf("Index(offline, cached) = %v", err)
	}
	if _, err := open(allowedFor("other", k2), true).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(offline, cached, wrong key) = %v, want %s", err, CodeSignatureInvalid)
	}
	sigs, _ := filepath.Glob(filepath.Join(cache, "http", "*", "index.sig"))
	if len(sigs) != 1 {
		t.Fatalf("cached signatures = %v", sigs)
	}
	os.Remove(sigs[0])
	if _, err := open(trust1, true).Index(t.Context()); codeOf(err) != CodeSignatureMissing {
		t.Fatalf("Index(offline, cache without signature) = %v, want %s", err, CodeSignatureMissing)
	}
	// Online, a tampered index is refused and not cached over the good one.
	fs.setIndex(append(bytes.Clone(body), ' '))
	if _, err := open(trust1, false).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(tampered http) = %v, want %s", err, CodeSignatureInvalid)
	}
	// No signature served.
	fs.setIndex(body)
	delete(fs.files, "/reg/index.json.sig")
	if _, err := open(trust1, false).Index(t.Context()); codeOf(err) != CodeSignatureMissing {
		t.Fatalf("Index(http, no .sig) = %v, want %s", err, CodeSignatureMissing)
	}
	// Rotation with an unchanged index (304): the new signature is fetched.
	fs.files["/reg/index.json.sig"] = mustSign(t, k2, body)
	if _, err := open(allowedFor("new", k2), false).Index(t.Context()); err != nil {
		t.Fatalf("Index(re-signed, new key) = %v", err)
	}
	if _, err := open(trust1, false).Index(t.Context()); codeOf(err) != CodeSignatureInvalid {
		t.Fatalf("Index(old key after rotation) = %v, want %s", err, CodeSignatureInvalid)
	}
}

// TestSignaturesRoundTrip checks that every decoder and the decoded-index
// cache keep a version's signatures.
func TestSignaturesRoundTrip(t *testing.T) {
	k := signingKey(t, 5)
	idx := &Index{SchemaVersion: 1, Skills: []*Skill{{Name: "alpha", Versions: []*Version{{Version: "1.0.0", Path: "skills/alpha", Integrity: "sha256-" + strings.Repeat("A", 43) + "="}}}}}
	signIndex(t, idx, k)
	want := idx.Skills[0].Versions[0].Signatures[0]
	for _, form := range [][]byte{idx.EncodeYAML(), idx.EncodeJSON()} {
		got, err := DecodeIndex(form, "x")
		if err != nil {
			t.Fatal(err)
		}
		if s := got.Skills[0].Versions[0].Signatures; len(s) != 1 || s[0] != want {
			t.Fatalf("DecodeIndex(%q) signatures = %v", form, s)
		}
		back, err := unmarshalIndex(string(marshalIndex(got)))
		if err != nil {
			t.Fatal(err)
		}
		if s := back.Skills[0].Versions[0].Signatures; len(s) != 1 || s[0] != want {
			t.Fatalf("cache round trip signatures = %v", s)
		}
	}
	// The full YAML decoder agrees with the fast one.
	y := idx.EncodeYAML()
	slow, probs := decodeIndexYAML(y, DefaultIndexLimits())
	if len(probs) != 0 || slow.Skills[0].Versions[0].Signatures[0] != want {
		t.Fatalf("decodeIndexYAML signatures = %v, %v", slow.Skills[0].Versions[0].Signatures, probs)
	}
	if ExpandSignature(want) == nil || !bytes.Equal(ExpandSignature(want), mustSign(t, k, PackageStatement("alpha", "1.0.0", idx.Skills[0].Versions[0].Integrity))) {
		t.Fatal("ExpandSignature(CompactSignature(sig)) != sig")
	}
	if got := string(PackageStatement("a", "1.0.0", "sha256-x")); got != `{"integrity":"sha256-x","name":"a","version":"1.0.0"}` {
		t.Fatalf("PackageStatement = %s", got)
	}
}
