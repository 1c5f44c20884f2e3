package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// tempRegistry copies the fixture into a writable directory.
func tempRegistry(t *testing.T) string {
	t.Helper()
	root := fixture(t)
	dir := t.TempDir()
	copyTree(t, filepath.Join(root, "registry"), filepath.Join(dir, "registry"))
	copyTree(t, filepath.Join(root, "skills"), filepath.Join(dir, "skills"))
	return dir
}

// assertNothingAt fails when dest or a temporary sibling exists.
func assertNothingAt(t *testing.T, dest string) {
	t.Helper()
	if _, err := os.Lstat(dest); err == nil {
		t.Errorf("%s was written despite the failure", dest)
	}
	ents, _ := os.ReadDir(filepath.Dir(dest))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}

func TestLocalTamper(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, root string)
		code   string
		want   string
	}{
		{"payload byte", func(t *testing.T, root string) {
			f := filepath.Join(root, "skills/jvm-gc-tuning/SKILL.md")
			data, _ := os.ReadFile(f)
			data[10] ^= 1
			os.WriteFile(f, data, 0o644)
		}, "ASK_INTEGRITY_MISMATCH", "actual:   sha256-"},
		{"index integrity", func(t *testing.T, root string) {
			f := filepath.Join(root, indexPath)
			data, _ := os.ReadFile(f)
			data = []byte(strings.Replace(string(data), "sha256-17RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk=", "sha256-27RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk=", 1))
			os.WriteFile(f, data, 0o644)
		}, "ASK_INTEGRITY_MISMATCH", "expected: sha256-27RQ"},
		{"added file in files", func(t *testing.T, root string) {
			os.WriteFile(filepath.Join(root, "skills/jvm-gc-tuning/references/extra.md"), []byte("x"), 0o644)
		}, "ASK_INTEGRITY_MISMATCH", "does not match"},
		{"symlinked package", func(t *testing.T, root string) {
			p := filepath.Join(root, "skills/jvm-gc-tuning")
			os.Rename(p, p+"-real")
			os.Symlink(p+"-real", p)
		}, "ASK_PACKAGE_UNSAFE_FILE", "symbolic link"},
		{"symlinked file", func(t *testing.T, root string) {
			p := filepath.Join(root, "skills/jvm-gc-tuning/references/collector-and-heap.md")
			os.Rename(p, p+".real")
			os.Symlink(p+".real", p)
		}, "ASK_PACKAGE_UNSAFE_FILE", "symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRegistry(t)
			tt.tamper(t, root)
			r, err := Open(Spec{Name: "t", URL: "file://" + root}, Options{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(t.TempDir(), "out", "jvm-gc-tuning")
			_, err = r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest)
			if codeOf(err) != tt.code || !strings.Contains(errText(err), tt.want) {
				t.Fatalf("Fetch() = %v (%s), want %s containing %q", err, codeOf(err), tt.code, tt.want)
			}
			assertNothingAt(t, dest)
			if _, err := r.Package(t.Context(), "jvm-gc-tuning", "1.0.0"); codeOf(err) != tt.code {
				t.Errorf("Package() = %v, want %s", err, tt.code)
			}
		})
	}
}

func TestLocalWrongName(t *testing.T) {
	root := tempRegistry(t)
	// Serve java-optional's directory under jvm-gc-tuning, with its
	// own (correct) integrity: the digest matches but the name does not.
	f := filepath.Join(root, indexPath)
	data, _ := os.ReadFile(f)
	s := strings.Replace(string(data), "path: skills/jvm-gc-tuning\n        integrity: sha256-17RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk=",
		"path: skills/java-optional\n        integrity: sha256-OFKhrT6lzIhCJkZ/fQOzQTEKPOyuNGmalTnjLXE8uZg=", 1)
	os.WriteFile(f, []byte(s), 0o644)
	r, _ := Open(Spec{Name: "t", URL: root}, Options{})
	dest := filepath.Join(t.TempDir(), "x")
	_, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest)
	if codeOf(err) != "ASK_INTEGRITY_MISMATCH" || !strings.Contains(errText(err), "actual:   java-optional") {
		t.Fatalf("Fetch(wrong name) = %v, want ASK_INTEGRITY_MISMATCH naming java-optional", err)
	}
	assertNothingAt(t, dest)
}

func TestLocalLookupErrors(t *testing.T) {
	root := fixture(t)
	r, err := Open(Spec{Name: "t", URL: filepath.Join(root, indexPath)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "x")
	if _, err := r.Fetch(t.Context(), "nope-skill", "1.0.0", dest); codeOf(err) != "ASK_SKILL_NOT_FOUND" {
		t.Errorf("Fetch(unknown) = %v, want ASK_SKILL_NOT_FOUND", err)
	}
	if _, err := r.Fetch(t.Context(), "jvm-gc-tuning", "9.0.0", dest); codeOf(err) != "ASK_VERSION_NOT_FOUND" || !strings.Contains(errText(err), "published: 1.0.0") {
		t.Errorf("Fetch(unknown version) = %v, want ASK_VERSION_NOT_FOUND listing 1.0.0", err)
	}
	missing, _ := Open(Spec{Name: "gone", URL: t.TempDir()}, Options{})
	if _, err := missing.Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" {
		t.Errorf("Index(empty dir) = %v, want ASK_REGISTRY_UNAVAILABLE", err)
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest); err == nil {
		t.Errorf("Fetch(existing dest) = nil, want an error")
	}
}

func TestLocalTarballPayload(t *testing.T) {
	root := fixture(t)
	dir := t.TempDir()
	pkgDir := filepath.Join(root, "skills", "jvm-gc-tuning")
	os.WriteFile(filepath.Join(dir, "gc.tar.gz"), packDir(t, pkgDir), 0o644)
	// An extra file in the tarball, outside the package's file set, is
	// dropped after verification.
	index := "schemaVersion: 1\nskills:\n  - name: jvm-gc-tuning\n    versions:\n      - version: 1.0.0\n        tarball: gc.tar.gz\n        integrity: sha256-17RQTh7Vng1wl0rYZukbE03Ow7kbNy3nM3KL7FRLMpk=\n"
	os.WriteFile(filepath.Join(dir, "index.yaml"), []byte(index), 0o644)
	r, err := Open(Spec{Name: "t", URL: filepath.Join(dir, "index.yaml")}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "gc")
	f, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest)
	if err != nil {
		t.Fatalf("Fetch(tarball) = %v", err)
	}
	if len(f.Files) != 3 || !strings.HasSuffix(f.Resolved, ":gc.tar.gz") {
		t.Errorf("Fetch(tarball) = %+v", f)
	}
}

func TestInferKind(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://github.com/org/skills.git", KindGit},
		{"https://github.com/org/skills.git#main", KindGit},
		{"git@github.com:org/skills.git", KindGit},
		{"ssh://git@host/org/skills", KindGit},
		{"https://github.com/org/skills", KindGit},
		{"https://cdn.example.com/skills/index.json", KindHTTP},
		{"http://127.0.0.1:8080/index.yaml", KindHTTP},
		{"file:///srv/registry", KindLocal},
		{"/srv/registry", KindLocal},
		{"./registry", KindLocal},
		{"/srv/registry#v1", KindGit},
		{"file:///srv/registry#main", KindGit},
	}
	for _, tt := range tests {
		if got := InferKind(tt.url); got != tt.want {
			t.Errorf("InferKind(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestOpenRejects(t *testing.T) {
	tests := []struct {
		spec Spec
		opts Options
		want string
	}{
		{Spec{Name: "", URL: "/x"}, Options{}, "must be non-empty"},
		{Spec{Name: "a:b", URL: "/x"}, Options{}, "without ':'"},
		{Spec{Name: "a"}, Options{}, "no URL"},
		{Spec{Name: "a", URL: "/x", Kind: "ftp"}, Options{}, "unknown registry kind"},
		{Spec{Name: "a", URL: "http://example.com/index.json"}, Options{CacheDir: "/c"}, "only allowed to loopback"},
		{Spec{Name: "a", URL: "https://example.com/index.json"}, Options{}, "need a cache directory"},
		{Spec{Name: "a", URL: "https://example.com/x.git#--upload-pack=evil"}, Options{CacheDir: "/c"}, "must not start with '-'"},
		{Spec{Name: "a", Kind: KindBundled}, Options{}, "embedded file system"},
	}
	for _, tt := range tests {
		_, err := Open(tt.spec, tt.opts)
		if codeOf(err) != "ASK_REGISTRY_CONFIG_INVALID" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%+v) = %v, want ASK_REGISTRY_CONFIG_INVALID containing %q", tt.spec, err, tt.want)
		}
	}
	if _, err := Open(Spec{Name: "a", URL: "http://example.com/index.json", AllowInsecure: true}, Options{CacheDir: "/c"}); err != nil {
		t.Errorf("Open(http, AllowInsecure) = %v, want nil", err)
	}
}

func TestVerifyBrokenManifest(t *testing.T) {
	fsys := samplePackage()
	fsys["skill.yaml"].Data = []byte("name: [demo\n")
	// The digest is checked first: a broken manifest that does not match
	// the index is a mismatch (exit 5), not a validation problem.
	if _, err := Verify(fsys, "demo-skill", "1.0.0", goodIntegrity); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Verify(broken, other digest) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
	pkg2, _ := format.Load(fsys, format.LoadOptions{})
	sum, err := format.Digest(fsys, pkg2.Files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(fsys, "demo-skill", "1.0.0", sum); codeOf(err) != "ASK_MANIFEST_INVALID" {
		t.Errorf("Verify(broken, its own digest) = %v, want ASK_MANIFEST_INVALID", err)
	}
}
