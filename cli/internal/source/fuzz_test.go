package source

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"owner/repo", "owner/repo/a/b@x#v1", "https://github.com/o/r/tree/main/x", "git@h.com:o/r.git#m",
		"./x", "~/x", "x.zip", "https://e.com/a.tar.gz#sub", "reg:name@1", "name", "gitlab:g/r", "file:///a/b.git", "-x", "a/b#..",
		"https://gitlab.com/a/b/-/tree/x/y", "ssh://git@h/x", "@/#", "a/b@", "a//b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok, err := Parse(s, "/cwd", func(string) bool { return false })
		if err != nil && ok {
			t.Fatalf("Parse(%q) = ok with error %v", s, err)
		}
		if !ok {
			return
		}
		if r.Subpath != "" {
			for _, e := range bytes.Split([]byte(r.Subpath), []byte("/")) {
				if len(e) == 0 || string(e) == "." || string(e) == ".." {
					t.Fatalf("Parse(%q).Subpath = %q, want a plain relative path", s, r.Subpath)
				}
			}
		}
		if len(r.Ref) > 0 && r.Ref[0] == '-' {
			t.Fatalf("Parse(%q).Ref = %q starts with '-'", s, r.Ref)
		}
		_ = Identity(r, nil)
	})
}

func FuzzExtractZip(f *testing.F) {
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Add([]byte("not a zip"))
	// Archives that lie about their sizes in the central directory: the
	// limits hold for the bytes inflated, whatever is declared.
	honest := makeZip(f, []zipEntry{{name: "s/SKILL.md", body: "---\nname: s\n---\n"}, {name: "s/z.md", body: strings.Repeat("\x00", 64<<10)}})
	for _, lie := range []struct{ off int }{{20}, {24}} {
		for _, v := range []uint32{1, 0x7ffffff0} {
			f.Add(lieInCentralDirectory(honest, lie.off, v))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := registry.DefaultExtractLimits()
		lim.MaxTotalBytes, lim.MaxFileBytes, lim.RatioGrace = 1<<20, 1<<20, 16<<10
		dir := t.TempDir()
		files, err := registry.ExtractZip(context.Background(), bytes.NewReader(data), int64(len(data)), dir, lim)
		if err != nil {
			return
		}
		var total int64
		for _, name := range files {
			fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil {
				t.Fatalf("ExtractZip listed %s, which is not on disk: %v", name, err)
			}
			if fi.Size() > lim.MaxFileBytes {
				t.Fatalf("ExtractZip wrote %s of %d bytes, over the %d-byte limit", name, fi.Size(), lim.MaxFileBytes)
			}
			total += fi.Size()
		}
		if total > lim.MaxTotalBytes {
			t.Fatalf("ExtractZip wrote %d bytes, over the %d-byte limit", total, lim.MaxTotalBytes)
		}
	})
}

// lieInCentralDirectory returns a copy of a zip whose every central
// directory record has the 32-bit field at off (20: compressed size, 24:
// uncompressed size) set to v.
func lieInCentralDirectory(data []byte, off int, v uint32) []byte {
	out := bytes.Clone(data)
	for i := 0; ; i++ {
		j := bytes.Index(out[i:], []byte("PK\x01\x02"))
		if j < 0 || i+j+off+4 > len(out) {
			return out
		}
		i += j
		binary.LittleEndian.PutUint32(out[i+off:], v)
	}
}
