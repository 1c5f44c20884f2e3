package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry/ocitest"
)

// startOCI starts the real registry on loopback, or skips the test when
// no server binary exists, unless ocitest.RequireEnv says it must (.ci/run).
func startOCI(t testing.TB, o ocitest.Options) *ocitest.Server {
	t.Helper()
	if _, err := ocitest.Binary(); err != nil {
		if os.Getenv(ocitest.RequireEnv) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	s, err := ocitest.Start(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// ociPackage is an in-memory package name@version with a body.
func ociPackage(t testing.TB, name, version, body string) (*format.Package, string) {
	t.Helper()
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte(fmt.Sprintf("name: %s\nversion: %s\ndescription: About %s.\nkeywords: [oci]\nfiles: [SKILL.md]\n", name, version, name))},
		"SKILL.md":   {Data: []byte(fmt.Sprintf("---\nname: %s\ndescription: About %s.\n---\n# %s\n%s\n", name, name, name, body))},
	}
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, sum
}

func publishOCI(t testing.TB, w *OCIWriter, name, version, body string) *Version {
	t.Helper()
	v, err := tryPublishOCI(t, w, name, version, body)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tryPublishOCI is publishOCI for a goroutine, which must not call
// t.Fatal.
func tryPublishOCI(t testing.TB, w *OCIWriter, name, version, body string) (*Version, error) {
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte(fmt.Sprintf("name: %s\nversion: %s\ndescription: About %s.\nkeywords: [oci]\nfiles: [SKILL.md]\n", name, version, name))},
		"SKILL.md":   {Data: []byte(fmt.Sprintf("---\nname: %s\ndescription: About %s.\n---\n# %s\n%s\n", name, name, name, body))},
	}
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		return nil, fmt.Errorf("load: %v", diags)
	}
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		return nil, err
	}
	v, _, err := w.Publish(context.Background(), pkg, &Skill{Name: name, Description: "About " + name + ".", Keywords: []string{"oci"}},
		&Version{Version: version, Integrity: sum})
	if err != nil {
		return nil, fmt.Errorf("publish %s@%s: %v", name, version, errText(err))
	}
	return v, nil
}

func TestOCIPublishInstallOffline(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	if InferKind(spec.URL) != KindOCI {
		t.Fatalf("InferKind(%s) = %s", spec.URL, InferKind(spec.URL))
	}
	w, err := NewOCIWriter(spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two publishers at once: both land.
	var wg sync.WaitGroup
	for _, n := range []string{"alpha", "beta"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := tryPublishOCI(t, w, n, "1.0.0", "one"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	v2 := publishOCI(t, w, "alpha", "1.1.0", "two")

	cache := t.TempDir()
	reg, err := Open(spec, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	idx, err := reg.Index(ctx)
	if err != nil {
		t.Fatal(errText(err))
	}
	for _, n := range []string{"alpha", "beta"} {
		if _, ok := idx.Skill(n); !ok {
			t.Fatalf("%s missing from the index", n)
		}
	}
	if s, _ := idx.Skill("alpha"); s.Latest != "1.1.0" {
		t.Fatalf("latest = %q", s.Latest)
	}
	pkg, err := reg.Package(ctx, "alpha", "1.1.0")
	if err != nil {
		t.Fatal(errText(err))
	}
	if got, _ := readPkgFile(pkg, "SKILL.md"); !strings.Contains(got, "two") {
		t.Fatalf("alpha@1.1.0 body: %q", got)
	}
	res, err := reg.Resolved(ctx, "alpha", "1.1.0")
	if want := "oci://" + srv.Addr + "/acme/skills/alpha@" + v2.Manifest; err != nil || res != want {
		t.Fatalf("Resolved = %q, %v; want %q", res, err, want)
	}
	// Offline, from the cache.
	off, _ := Open(spec, Options{CacheDir: cache, Offline: true})
	oidx, err := off.Index(ctx)
	if err != nil || len(oidx.Skills) != 2 {
		t.Fatalf("offline index: %v", errText(err))
	}
	if _, err := off.Package(ctx, "alpha", "1.1.0"); err != nil {
		t.Fatalf("offline package from the payload cache: %v", errText(err))
	}
}

func TestOCITamperAndRetag(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	w, _ := NewOCIWriter(spec, Options{})
	v := publishOCI(t, w, "alpha", "1.0.0", "original")
	ctx := context.Background()

	// Re-tag 1.0.0 to other content: the index pins the manifest digest,
	// so what is installed is unchanged.
	other, sum := ociPackage(t, "alpha", "1.0.0", "evil")
	var buf bytes.Buffer
	_ = Pack(other.FS, other.Files, &buf)
	evil, err := w.PushPackage(ctx, OCIPackageConfig{Name: "alpha", Version: "1.0.0", Integrity: sum}, buf.Bytes())
	if err != nil || evil == v.Manifest {
		t.Fatalf("re-tag: %v", err)
	}
	reg, _ := Open(spec, Options{CacheDir: t.TempDir()})
	pkg, err := reg.Package(ctx, "alpha", "1.0.0")
	if err != nil {
		t.Fatal(errText(err))
	}
	got, _ := readPkgFile(pkg, "SKILL.md")
	if !strings.Contains(got, "original") {
		t.Fatalf("re-tagged content installed: %q", got)
	}

	// An index pointing the version at the other manifest, with the
	// integrity left as published, is refused.
	if _, err := w.UpdateIndex(ctx, func(idx *Index) error {
		s, _ := idx.Skill("alpha")
		s.Versions[0].Manifest = evil
		return nil
	}, nil); err != nil {
		t.Fatal(errText(err))
	}
	reg, _ = Open(spec, Options{CacheDir: t.TempDir()})
	if _, err := reg.Package(ctx, "alpha", "1.0.0"); codeOf(err) != CodeIntegrityMismatch {
		t.Fatalf("moved manifest: %v, want %s", errText(err), CodeIntegrityMismatch)
	}
	// A restore from a lock pulls the digest the lock records: the
	// original bytes, whatever the index says now.
	locked := "oci://" + srv.Addr + "/acme/skills/alpha@" + v.Manifest
	reg, _ = Open(spec, Options{CacheDir: t.TempDir()})
	pkg, err = reg.Package(WithLocked(ctx, locked), "alpha", "1.0.0")
	if err != nil {
		t.Fatal(errText(err))
	}
	if got, _ := readPkgFile(pkg, "SKILL.md"); !strings.Contains(got, "original") {
		t.Fatalf("restore by digest: %q", got)
	}

	// A tampered layer blob is refused by its OCI digest.
	m, err := PullOCIPackage(ctx, w.Loc, w.client, "team", "alpha", "1.0.0", v.Manifest, v.Integrity)
	if err != nil {
		t.Fatal(errText(err))
	}
	hexsum := fmt.Sprintf("%x", sha256Sum(m))
	blob := srv.Blob(hexsum)
	data, err := os.ReadFile(blob)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(blob, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PullOCIPackage(ctx, w.Loc, w.client, "team", "alpha", "1.0.0", v.Manifest, v.Integrity); codeOf(err) != CodeIntegrityMismatch {
		t.Fatalf("tampered blob: %v, want %s", errText(err), CodeIntegrityMismatch)
	}
}

func TestOCICredentialsFromDockerConfig(t *testing.T) {
	const secret = "s3cr3t-pa55word"
	srv := startOCI(t, ocitest.Options{User: "ci", Password: secret})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	// Without credentials: refused, and the error says to log in.
	w, _ := NewOCIWriter(spec, Options{Getenv: func(string) string { return "" }})
	pkg, sum := ociPackage(t, "alpha", "1.0.0", "x")
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	_, _, err := w.Publish(context.Background(), pkg, &Skill{Name: "alpha"}, &Version{Version: "1.0.0", Integrity: sum})
	var re *Error
	if !errors.As(err, &re) || re.Code != CodeRegistryUnavailable || !strings.Contains(strings.Join(re.Try, "\n"), "log in") {
		t.Fatalf("anonymous publish: %v", errText(err))
	}
	// From a Docker config file.
	dir := t.TempDir()
	auth := base64Std("ci:" + secret)
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"auths":{"`+srv.Addr+`":{"auth":"`+auth+`"}}}`), 0o600)
	t.Setenv("DOCKER_CONFIG", dir)
	publishOCI(t, w, "alpha", "1.0.0", "x")
	cache := t.TempDir()
	reg, _ := Open(spec, Options{CacheDir: cache, Getenv: func(string) string { return "" }})
	if _, err := reg.Package(context.Background(), "alpha", "1.0.0"); err != nil {
		t.Fatal(errText(err))
	}
	// From the token variable.
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	env := map[string]string{OCITokenEnv: secret, OCIUsernameEnv: "ci"}
	w2, _ := NewOCIWriter(spec, Options{Getenv: func(k string) string { return env[k] }})
	publishOCI(t, w2, "beta", "1.0.0", "y")
	// The secret is nowhere in the cache.
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte(auth)) {
				t.Errorf("%s holds the secret", p)
			}
		}
		return nil
	})
}

func TestOCIURLPolicy(t *testing.T) {
	for url, ok := range map[string]bool{
		"oci://127.0.0.1:5000/acme/skills": true,
		"oci://localhost:5000/a":           true,
		"oci://ghcr.io/acme/skills":        true,
		"oci://ghcr.io":                    false,
		"oci://user:pw@ghcr.io/acme":       false,
		"oci://ghcr.io/Acme/Skills":        false,
	} {
		loc, err := ParseOCI(url, false)
		if (err == nil) != ok {
			t.Errorf("ParseOCI(%s) = %v", url, err)
		}
		if err == nil && loc.PlainHTTP != strings.Contains(url, "5000") {
			t.Errorf("%s: plain HTTP %v", url, loc.PlainHTTP)
		}
	}
	if _, err := Open(Spec{Name: "x", URL: "oci://ghcr.io"}, Options{CacheDir: t.TempDir()}); codeOf(err) != CodeRegistryConfigInvalid {
		t.Fatal(err)
	}
}

func TestOCIUnreachableFallsBackToCache(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	w, _ := NewOCIWriter(spec, Options{})
	publishOCI(t, w, "alpha", "1.0.0", "x")
	cache := t.TempDir()
	reg, _ := Open(spec, Options{CacheDir: cache})
	if _, err := reg.Index(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	var n notices
	reg, _ = Open(spec, Options{CacheDir: cache, Notify: n.add, HTTPTimeouts: HTTPTimeouts{Total: 2 * time.Second}})
	if _, err := reg.Index(context.Background()); err != nil {
		t.Fatalf("fallback: %v", errText(err))
	}
	if len(n.list) != 1 || !strings.Contains(n.list[0], "unreachable") {
		t.Fatalf("notices: %q", n.list)
	}
}

func readPkgFile(pkg *format.Package, name string) (string, error) {
	f, err := pkg.FS.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	return b.String(), err
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

func base64Std(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
