package format

import (
	"bytes"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
)

func TestDigestSyntheticVectors(t *testing.T) {
	const want = "sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8="
	tests := []struct {
		name     string
		manifest string
		want     string
	}{
		{"plain", "name: x\nversion: 1.0.0\n", want},
		{"integrity line stripped", "name: x\nversion: 1.0.0\nintegrity: sha256-abc\n", want},
		{"integrity first", "integrity: sha256-abc\nname: x\nversion: 1.0.0\n", want},
		{"integrity without final newline", "name: x\nversion: 1.0.0\nintegrity: sha256-abc", want},
		{"two integrity lines", "integrity: a\nname: x\nintegrity: b\nversion: 1.0.0\n", want},
		{"indented integrity kept", "name: x\nversion: 1.0.0\n  integrity: sha256-abc\n", "other"},
		{"spaced key kept", "name: x\nversion: 1.0.0\nintegrity : sha256-abc\n", "other"},
		{"lookalike key kept", "name: x\nversion: 1.0.0\nintegrityx: a\n", "other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"skill.yaml": {Data: []byte(tt.manifest)}}
			got, err := Digest(fsys, []string{"skill.yaml"})
			if err != nil {
				t.Fatalf("Digest(%q) error: %v", tt.manifest, err)
			}
			if tt.want == "other" {
				if got == want {
					t.Errorf("Digest(%q) = %v, want a value different from %v", tt.manifest, got, want)
				}
				return
			}
			if got != tt.want {
				t.Errorf("Digest(%q) = %v, want %v", tt.manifest, got, tt.want)
			}
		})
	}
}

func TestDigestCRLFIntegrityLine(t *testing.T) {
	base := fstest.MapFS{"skill.yaml": {Data: []byte("name: x\r\nversion: 1.0.0\r\n")}}
	with := fstest.MapFS{"skill.yaml": {Data: []byte("name: x\r\nintegrity: sha256-abc\r\nversion: 1.0.0\r\n")}}
	a, errA := Digest(base, []string{"skill.yaml"})
	b, errB := Digest(with, []string{"skill.yaml"})
	if errA != nil || errB != nil || a != b {
		t.Errorf("Digest(CRLF with integrity) = %v (%v), want %v (%v)", b, errB, a, errA)
	}
}

func TestStripIntegrityOnlyRootManifest(t *testing.T) {
	// A nested skill.yaml is not the manifest: nothing is stripped.
	a := fstest.MapFS{"x/skill.yaml": {Data: []byte("a: 1\nintegrity: z\n")}}
	b := fstest.MapFS{"x/skill.yaml": {Data: []byte("a: 1\n")}}
	da, _ := Digest(a, []string{"x/skill.yaml"})
	db, _ := Digest(b, []string{"x/skill.yaml"})
	if da == db {
		t.Errorf("Digest(nested skill.yaml) = %v for both contents, want them to differ", da)
	}
}

func TestStripIntegrityLongLines(t *testing.T) {
	long := strings.Repeat("x", 10000)
	in := "a: " + long + "\nintegrity: " + long + "\nb: 2\n"
	got, err := io.ReadAll(StripIntegrity(strings.NewReader(in)))
	want := "a: " + long + "\nb: 2\n"
	if err != nil || string(got) != want {
		t.Errorf("StripIntegrity(long lines) = %d bytes (%v), want %d bytes", len(got), err, len(want))
	}
}

func TestDigestErrors(t *testing.T) {
	fsys := fstest.MapFS{"a": {Data: []byte("1")}}
	for _, files := range [][]string{{"a", "a"}, {"missing"}, {"../a"}, {"."}} {
		if got, err := Digest(fsys, files); err == nil {
			t.Errorf("Digest(%q) = %v, want an error", files, got)
		}
	}
}

func TestDigestOrderIndependent(t *testing.T) {
	fsys := fstest.MapFS{"b": {Data: []byte("2")}, "a": {Data: []byte("1")}, "é/x": {Data: []byte("3")}}
	x, _ := Digest(fsys, []string{"a", "b", "é/x"})
	y, _ := Digest(fsys, []string{"é/x", "b", "a"})
	if x != y {
		t.Errorf("Digest(reordered) = %v, want %v", y, x)
	}
}

func TestParseIntegrity(t *testing.T) {
	tests := []struct {
		in      string
		algo    string
		size    int
		wantErr bool
	}{
		{"sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8=", "sha256", 32, false},
		{"sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "sha256", 32, false},
		{"sha512-" + strings.Repeat("A", 86) + "==", "sha512", 64, false},
		{"sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8", "", 0, true}, // unpadded
		{"sha256-abc", "", 0, true},
		{"md5-abc", "", 0, true},
		{"sha256", "", 0, true},
		{"", "", 0, true},
	}
	for _, tt := range tests {
		algo, sum, err := ParseIntegrity(tt.in)
		if (err != nil) != tt.wantErr || algo != tt.algo || len(sum) != tt.size {
			t.Errorf("ParseIntegrity(%q) = %v, %d bytes, %v; want %v, %d bytes, error %v",
				tt.in, algo, len(sum), err, tt.algo, tt.size, tt.wantErr)
		}
	}
}

func TestSameIntegrity(t *testing.T) {
	b64 := "sha256-n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="
	hexForm := "sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	if !SameIntegrity(b64, hexForm) {
		t.Errorf("SameIntegrity(%q, %q) = false, want true", b64, hexForm)
	}
	if SameIntegrity(b64, "sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8=") {
		t.Errorf("SameIntegrity(different digests) = true, want false")
	}
	if SameIntegrity("junk", "junk") {
		t.Errorf("SameIntegrity(%q, %q) = true, want false", "junk", "junk")
	}
}

// originRegistry is the shared fixture: real packages with real integrity
// values made by the origin implementation.
const originRegistry = "../../shared/fixtures/origin-registry"

func TestDigestOriginRegistry(t *testing.T) {
	if _, err := os.Stat(originRegistry); err != nil {
		t.Skipf("origin registry fixture not found at %s (%v); it lives outside this module", originRegistry, err)
	}
	checked := 0
	for _, root := range []string{originRegistry, filepath.Join(originRegistry, "extra")} {
		data, err := os.ReadFile(filepath.Join(root, "registry", "skills.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var index struct {
			Skills []struct {
				Name     string
				Versions []struct{ Version, Path, Integrity string }
			}
		}
		if err := yaml.Unmarshal(data, &index); err != nil {
			t.Fatal(err)
		}
		for _, s := range index.Skills {
			for _, v := range s.Versions {
				dir := filepath.Join(root, filepath.FromSlash(v.Path))
				if _, err := os.Stat(dir); err != nil {
					t.Logf("%s@%s: payload %s not in the fixture, skipped", s.Name, v.Version, v.Path)
					continue
				}
				pkg, diags := Load(os.DirFS(dir), LoadOptions{})
				if diags.HasErrors() {
					t.Errorf("Load(%s) diagnostics: %v", v.Path, diags)
					continue
				}
				got, err := Digest(pkg.FS, pkg.Files)
				if err != nil || got != v.Integrity {
					t.Errorf("Digest(%s@%s) = %v (%v), want %v", s.Name, v.Version, got, err, v.Integrity)
				}
				if pkg.Manifest.Integrity != "" && !SameIntegrity(pkg.Manifest.Integrity, got) {
					t.Logf("%s: manifest integrity %s differs from the index", s.Name, pkg.Manifest.Integrity)
				}
				checked++
			}
		}
	}
	if checked < 8 {
		t.Errorf("checked %d fixture packages, want at least 8", checked)
	}
}

func TestDigestIntermediateValues(t *testing.T) {
	dir := filepath.Join(originRegistry, "skills", "jvm-gc-tuning")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("origin registry fixture not found at %s (%v)", dir, err)
	}
	fsys := os.DirFS(dir)
	want := map[string]string{
		"SKILL.md":                         "sha256-uhX4UnkE32a7hGSwClHPxq4ddv+43KPHGB5UVcailhQ=",
		"references/collector-and-heap.md": "sha256-EGTzMuc9c2R73Myfs9NQy3LfQG4+jogqwGqSURe9qqY=",
		"skill.yaml":                       "sha256-B1alsAKsa5gVX3/IezZ24Zx/iiClQBCdGR+SG6ZXFHA=",
	}
	for name, sum := range want {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = bytes.NewReader(data)
		if name == "skill.yaml" {
			r = StripIntegrity(r)
		}
		if got, err := FileDigest(r); err != nil || got != sum {
			t.Errorf("FileDigest(%s) = %v (%v), want %v", name, got, err, sum)
		}
	}
}

// BytesDigest and SumDigest give what FileDigest gives for the same bytes.
func TestBytesDigestIsFileDigest(t *testing.T) {
	for _, data := range []string{"", "a", "---\nname: x\n---\nbody\n", strings.Repeat("z", 100<<10)} {
		want, err := FileDigest(strings.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if got := BytesDigest([]byte(data)); got != want {
			t.Errorf("BytesDigest(%d bytes) = %q, want %q", len(data), got, want)
		}
		sum := sha256.Sum256([]byte(data))
		if got := SumDigest(sum[:]); got != want {
			t.Errorf("SumDigest(sha256 of %d bytes) = %q, want %q", len(data), got, want)
		}
	}
}
