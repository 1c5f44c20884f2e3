package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheckResource(t *testing.T) {
	tests := []struct {
		in, want, code string
	}{
		{"", "SKILL.md", ""},
		{"SKILL.md", "SKILL.md", ""},
		{"references/guide.md", "references/guide.md", ""},
		{"references/deep/more.md", "references/deep/more.md", ""},
		{"../x", "", "ASK_CATALOG_READ_DENIED"},
		{"references/../../x.md", "", "ASK_CATALOG_READ_DENIED"},
		{"%2e%2e/x.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references%2fguide.md", "", "ASK_CATALOG_READ_DENIED"},
		{"/etc/passwd", "", "ASK_CATALOG_READ_DENIED"},
		{"C:/x.md", "", "ASK_CATALOG_READ_DENIED"},
		{`references\guide.md`, "", "ASK_CATALOG_READ_DENIED"},
		{"references/./guide.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references//guide.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references/script.sh", "", "ASK_CATALOG_READ_DENIED"},
		{"skill.yaml", "", "ASK_CATALOG_READ_DENIED"},
		{"README.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references/a\x00.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references/\xff.md", "", "ASK_CATALOG_READ_DENIED"},
	}
	for _, tt := range tests {
		got, err := CheckResource(tt.in)
		if got != tt.want || codeOf(err) != tt.code {
			t.Errorf("CheckResource(%q) = %q, %v; want %q, %s", tt.in, got, err, tt.want, tt.code)
		}
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "alpha")
	writeTree(t, dir, map[string]string{
		"alpha/SKILL.md":            skillMD("alpha", "A."),
		"alpha/references/guide.md": "# Guide\n",
		"secret.md":                 "secret\n",
		"other/x.md":                "other\n",
	})
	if err := os.WriteFile(filepath.Join(pkg, "references", "big.md"), []byte(strings.Repeat("x", MaxReadBytes+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"alpha/references/link.md": filepath.Join(dir, "secret.md"),
		"alpha/references/dir":     filepath.Join(dir, "other"),
		"linked":                   pkg,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	tests := []struct {
		dir, res, want, code string
	}{
		{pkg, "", "---\nname: alpha", ""},
		{pkg, "references/guide.md", "# Guide", ""},
		{pkg, "references/link.md", "", "ASK_CATALOG_READ_DENIED"},
		{pkg, "references/dir/x.md", "", "ASK_CATALOG_READ_DENIED"},
		{pkg, "references/big.md", "", "ASK_CATALOG_READ_DENIED"},
		{pkg, "references/missing.md", "", "ASK_CATALOG_NOT_FOUND"},
		{pkg, "references/guide.md/x.md", "", "ASK_CATALOG_NOT_FOUND"},
		{pkg, "../secret.md", "", "ASK_CATALOG_READ_DENIED"},
		{filepath.Join(dir, "linked"), "SKILL.md", "", "ASK_CATALOG_READ_DENIED"},
		{filepath.Join(dir, "nope"), "SKILL.md", "", "ASK_CATALOG_NOT_FOUND"},
	}
	for _, tt := range tests {
		b, _, err := ReadDir(tt.dir, tt.res)
		if codeOf(err) != tt.code || !strings.HasPrefix(string(b), tt.want) {
			t.Errorf("ReadDir(%q, %q) = %.20q, %v; want %q, %s", filepath.Base(tt.dir), tt.res, b, err, tt.want, tt.code)
		}
	}
}

func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":            {Data: []byte(skillMD("alpha", "A."))},
		"references/guide.md": {Data: []byte("# Guide\n")},
		"references/big.md":   {Data: make([]byte, MaxReadBytes+1)},
		"references/link.md":  {Data: []byte("SKILL.md"), Mode: os.ModeSymlink},
	}
	tests := []struct{ res, want, code string }{
		{"", "---", ""},
		{"references/guide.md", "# Guide", ""},
		{"references/big.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references/link.md", "", "ASK_CATALOG_READ_DENIED"},
		{"references/none.md", "", "ASK_CATALOG_NOT_FOUND"},
		{"%2e%2e/SKILL.md", "", "ASK_CATALOG_READ_DENIED"},
	}
	for _, tt := range tests {
		b, _, err := ReadFS(fsys, tt.res)
		if codeOf(err) != tt.code || !strings.HasPrefix(string(b), tt.want) {
			t.Errorf("ReadFS(%q) = %.20q, %v; want %q, %s", tt.res, b, err, tt.want, tt.code)
		}
	}
}

func TestContentDigest(t *testing.T) {
	// sha256("") in standard base64.
	if got, want := ContentDigest(nil), "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="; got != want {
		t.Errorf("ContentDigest(nil) = %q, want %q", got, want)
	}
}
