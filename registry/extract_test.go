package registry

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// entry is one tar entry for tests.
type entry struct {
	name string
	typ  byte
	body string
	link string
}

// makeTarGz builds a .tar.gz from entries.
func makeTarGz(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Linkname: e.link, ModTime: time.Unix(0, 0)}
		if typ == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if typ == tar.TypeXGlobalHeader {
			h = &tar.Header{Typeflag: typ, PAXRecords: map[string]string{"comment": "abc123"}}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// samplePackage is a small valid package.
func samplePackage() fstest.MapFS {
	return fstest.MapFS{
		"skill.yaml":           {Data: []byte("name: demo-skill\nversion: 1.0.0\ndescription: Demo.\nfiles: [SKILL.md, references/]\n")},
		"SKILL.md":             {Data: []byte("---\nname: demo-skill\ndescription: Demo.\n---\n# Demo\n")},
		"references/a.md":      {Data: []byte("# A\n")},
		"references/deep/b.md": {Data: []byte("# B\n")},
	}
}

func TestPackReproducibleAndRoundTrip(t *testing.T) {
	fsys := samplePackage()
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		t.Fatalf("Load(sample) = %v", diags)
	}
	var a, b bytes.Buffer
	if err := Pack(fsys, pkg.Files, &a); err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(pkg.Files)
	slices.Reverse(reversed)
	if err := Pack(fsys, reversed, &b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("Pack twice gave different bytes")
	}
	// Headers are normalised.
	zr, err := gzip.NewReader(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header name=%q mtime=%v, want empty", zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("header %q = uid %d gid %d %q %q %v, want normalised", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime)
		}
		if want := int64(0o644); h.Typeflag == tar.TypeDir {
			if h.Mode != 0o755 {
				t.Errorf("dir %q mode %o, want 755", h.Name, h.Mode)
			}
		} else if h.Mode != want {
			t.Errorf("file %q mode %o, want 644", h.Name, h.Mode)
		}
	}
	want := []string{"package/SKILL.md", "package/references/", "package/references/a.md", "package/references/deep/", "package/references/deep/b.md", "package/skill.yaml"}
	if !slices.Equal(names, want) {
		t.Errorf("Pack entries = %q, want %q", names, want)
	}
	// extract(pack(dir)) has the directory's digest.
	dir := t.TempDir()
	files, err := Extract(t.Context(), bytes.NewReader(a.Bytes()), dir, DefaultExtractLimits())
	if err != nil {
		t.Fatalf("Extract(Pack()) = %v", err)
	}
	if !slices.Equal(files, pkg.Files) {
		t.Errorf("Extract files = %q, want %q", files, pkg.Files)
	}
	d1, _ := format.Digest(fsys, pkg.Files)
	d2, err := format.Digest(os.DirFS(dir), files)
	if err != nil || d1 != d2 {
		t.Errorf("Digest(extract(pack)) = %s, %v, want %s", d2, err, d1)
	}
}

func TestPackFixtureDigest(t *testing.T) {
	root := fixture(t)
	dir := filepath.Join(root, "skills", "java-law-of-demeter")
	pkg, diags := format.Load(os.DirFS(dir), format.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var b bytes.Buffer
	if err := Pack(pkg.FS, pkg.Files, &b); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := Extract(t.Context(), &b, out, DefaultExtractLimits()); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(os.DirFS(out), "java-law-of-demeter", "1.2.0", "sha256-APjL3JOzZrES8Cfb1edEQ7BQEFlwpx7DcwgVLXXHknA="); err != nil {
		t.Fatalf("Verify(extract(pack(fixture))) = %v", err)
	}
}

func TestExtractStripsTopFolder(t *testing.T) {
	tests := []struct {
		name    string
		entries []entry
		want    []string
	}{
		{"package prefix", []entry{{name: "package/a.md", body: "a"}, {name: "package/d/b.md", body: "b"}}, []string{"a.md", "d/b.md"}},
		{"versioned prefix with dir entries", []entry{{name: "x-1.0.0/", typ: tar.TypeDir}, {name: "x-1.0.0/a.md", body: "a"}}, []string{"a.md"}},
		{"no common folder", []entry{{name: "a.md", body: "a"}, {name: "d/b.md", body: "b"}}, []string{"a.md", "d/b.md"}},
		{"dot slash", []entry{{name: "./", typ: tar.TypeDir}, {name: "./a.md", body: "a"}, {name: "./b.md", body: "b"}}, []string{"a.md", "b.md"}},
		{"git archive header", []entry{{name: "pax_global_header", typ: tar.TypeXGlobalHeader}, {name: "p/a.md", body: "a"}}, []string{"a.md"}},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		got, err := Extract(t.Context(), bytes.NewReader(makeTarGz(t, tt.entries...)), dir, DefaultExtractLimits())
		if err != nil {
			t.Errorf("%s: Extract = %v", tt.name, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Extract = %q, want %q", tt.name, got, tt.want)
		}
		for _, f := range tt.want {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: %s not written: %v", tt.name, f, err)
			}
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".extract-") {
				t.Errorf("%s: staging directory left behind", tt.name)
			}
		}
	}
}

func TestExtractRefuses(t *testing.T) {
	small := DefaultExtractLimits()
	small.MaxEntries = 3
	small.MaxFileBytes = 1000
	small.MaxTotalBytes = 1500
	small.RatioGrace = 1 << 10
	tests := []struct {
		name    string
		entries []entry
		lim     ExtractLimits
		code    string
		want    string
	}{
		{"symlink", []entry{{name: "a", typ: tar.TypeSymlink, link: "/etc/passwd"}}, small, "ASK_ARCHIVE_UNSAFE", `"a": symbolic links`},
		{"hard link", []entry{{name: "a", body: "x"}, {name: "b", typ: tar.TypeLink, link: "a"}}, small, "ASK_ARCHIVE_UNSAFE", "hard links"},
		{"char device", []entry{{name: "a", typ: tar.TypeChar}}, small, "ASK_ARCHIVE_UNSAFE", "device"},
		{"block device", []entry{{name: "a", typ: tar.TypeBlock}}, small, "ASK_ARCHIVE_UNSAFE", "device"},
		{"fifo", []entry{{name: "a", typ: tar.TypeFifo}}, small, "ASK_ARCHIVE_UNSAFE", "FIFO"},
		{"dotdot", []entry{{name: "../evil", body: "x"}}, small, "ASK_ARCHIVE_UNSAFE", `".." segment`},
		{"inner dotdot", []entry{{name: "p/../../evil", body: "x"}}, small, "ASK_ARCHIVE_UNSAFE", `".." segment`},
		{"absolute", []entry{{name: "/etc/evil", body: "x"}}, small, "ASK_ARCHIVE_UNSAFE", "absolute"},
		{"backslash dotdot", []entry{{name: `p\..\evil`, body: "x"}}, small, "ASK_ARCHIVE_UNSAFE", `".." segment`},
		{"drive", []entry{{name: "C:/evil", body: "x"}}, small, "ASK_ARCHIVE_UNSAFE", "drive"},
		{"duplicate", []entry{{name: "a", body: "x"}, {name: "a", body: "y"}}, small, "ASK_ARCHIVE_UNSAFE", "duplicate"},
		// Names that are merely not portable are the error every source
		// kind gives for them (format.CheckPaths), not an archive attack.
		{"backslash", []entry{{name: `p\evil`, body: "x"}}, small, "ASK_PACKAGE_UNSAFE_FILE", `"p\\evil" contains a backslash`},
		{"control", []entry{{name: "a\nb", body: "x"}}, small, "ASK_PACKAGE_UNSAFE_FILE", "control character 0x0a"},
		{"reserved", []entry{{name: "p/CON.txt", body: "x"}}, small, "ASK_PACKAGE_UNSAFE_FILE", `"p/CON.txt" has the segment "CON.txt", a reserved device name on Windows`},
		{"case duplicate", []entry{{name: "README.md", body: "x"}, {name: "readme.md", body: "y"}}, small, "ASK_PACKAGE_UNSAFE_FILE", `"readme.md" differs only in case from "README.md"`},
		{"normalisation duplicate", []entry{{name: "caf\u00e9.md", body: "x"}, {name: "cafe\u0301.md", body: "y"}}, small, "ASK_PACKAGE_UNSAFE_FILE", "another Unicode normalisation"},
		{"file then dir", []entry{{name: "a", body: "x"}, {name: "a/b", body: "y"}}, small, "ASK_ARCHIVE_UNSAFE", "conflicting"},
		{"too many entries", []entry{{name: "a", body: "1"}, {name: "b", body: "1"}, {name: "c", body: "1"}, {name: "d", body: "1"}}, small, "ASK_ARCHIVE_TOO_LARGE", "more than 3 entries"},
		{"file too big", []entry{{name: "a", body: strings.Repeat("x", 1001)}}, small, "ASK_ARCHIVE_TOO_LARGE", "limit is 1000"},
		{"total too big", []entry{{name: "a", body: strings.Repeat("x", 900)}, {name: "b", body: strings.Repeat("y", 900)}}, small, "ASK_ARCHIVE_TOO_LARGE", "expands to more than 1500"},
		{"ratio", []entry{{name: "a", body: strings.Repeat("\x00", 1<<20)}}, ExtractLimits{MaxEntries: 10, MaxFileBytes: 1 << 30, MaxTotalBytes: 1 << 30, MaxRatio: 100, RatioGrace: 64 << 10}, "ASK_ARCHIVE_TOO_LARGE", "compression ratio"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		_, err := Extract(t.Context(), bytes.NewReader(makeTarGz(t, tt.entries...)), dir, tt.lim)
		if codeOf(err) != tt.code || err == nil || !strings.Contains(errText(err), tt.want) {
			t.Errorf("%s: Extract = %s (%s), want %s containing %q", tt.name, errText(err), codeOf(err), tt.code, tt.want)
		}
	}
	if _, err := Extract(t.Context(), strings.NewReader("not gzip"), t.TempDir(), small); codeOf(err) != "ASK_ARCHIVE_UNSAFE" {
		t.Errorf("Extract(not gzip) = %v, want ASK_ARCHIVE_UNSAFE", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	if _, err := Extract(t.Context(), bytes.NewReader(makeTarGz(t, entry{name: "a", body: "x"})), dir, small); err == nil {
		t.Errorf("Extract(non-empty dir) = nil, want an error")
	}
}

// TestExtractBombStopsEarly checks that the limit is enforced while
// decompressing: a 128 MiB stream of zeros is refused after reading only a
// small part of its compressed bytes.
func TestExtractBombStopsEarly(t *testing.T) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	const size = 128 << 20
	tw.WriteHeader(&tar.Header{Name: "bomb", Typeflag: tar.TypeReg, Mode: 0o644, Size: size})
	zero := make([]byte, 1<<20)
	for i := 0; i < size/len(zero); i++ {
		tw.Write(zero)
	}
	tw.Close()
	zw.Close()
	cr := &countReader{r: bytes.NewReader(b.Bytes())}
	lim := DefaultExtractLimits()
	lim.MaxFileBytes = size * 2
	lim.MaxTotalBytes = size * 2
	_, err := Extract(t.Context(), cr, t.TempDir(), lim)
	if codeOf(err) != "ASK_ARCHIVE_TOO_LARGE" {
		t.Fatalf("Extract(bomb) = %v, want ASK_ARCHIVE_TOO_LARGE", err)
	}
	if cr.n > int64(b.Len())/10 {
		t.Errorf("Extract(bomb) read %d of %d compressed bytes, want it to stop early", cr.n, b.Len())
	}
}

// FuzzExtract feeds arbitrary bytes to the extractor: it must never
// panic, and it must never write outside its target directory.
func FuzzExtract(f *testing.F) {
	f.Add(makeTarGz(f, entry{name: "package/skill.yaml", body: "name: ab\n"}, entry{name: "package/SKILL.md", body: "# x"}))
	f.Add(makeTarGz(f, entry{name: "../x", body: "x"}))
	f.Add(makeTarGz(f, entry{name: "a", typ: tar.TypeSymlink, link: "../../x"}))
	f.Add(makeTarGz(f, entry{name: "d/", typ: tar.TypeDir}, entry{name: "d/a", body: "x"}, entry{name: "D/a", body: "y"}))
	var p bytes.Buffer
	if err := Pack(samplePackage(), []string{"SKILL.md", "references/a.md", "skill.yaml"}, &p); err == nil {
		f.Add(p.Bytes())
	}
	// Headers that lie: a sparse file expanding far past what is stored,
	// an entry shorter than its header says, a gzip trailer with a false
	// size.
	f.Add(sparseTarGz(f, 1<<20))
	f.Add(truncatedEntry(f))
	trailer := makeTarGz(f, entry{name: "a.md", body: "abc"})
	binary.LittleEndian.PutUint32(trailer[len(trailer)-4:], 1<<30)
	f.Add(trailer)
	f.Fuzz(func(t *testing.T, data []byte) {
		outer := t.TempDir()
		dir := filepath.Join(outer, "out")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		lim := DefaultExtractLimits()
		lim.MaxTotalBytes = 8 << 20
		files, err := Extract(t.Context(), bytes.NewReader(data), dir, lim)
		ents, _ := os.ReadDir(outer)
		if len(ents) != 1 {
			t.Fatalf("Extract wrote outside its directory: %v", ents)
		}
		if err != nil {
			return
		}
		var total int64
		for _, f := range files {
			if why := checkPath(f); why != "" {
				t.Fatalf("Extract returned unsafe path %q: %s", f, why)
			}
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
				total += fi.Size()
				if fi.Size() > lim.MaxFileBytes {
					t.Fatalf("Extract wrote %s of %d bytes, over the %d-byte limit", f, fi.Size(), lim.MaxFileBytes)
				}
			}
		}
		if total > lim.MaxTotalBytes {
			t.Fatalf("Extract wrote %d bytes, over the %d-byte limit", total, lim.MaxTotalBytes)
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type()&fs.ModeSymlink != 0 {
				t.Fatalf("Extract created a symlink %s", p)
			}
			return nil
		})
	})
}

// paxRecord formats one PAX extended-header record ("<len> key=value\n").
func paxRecord(k, v string) string {
	rest := " " + k + "=" + v + "\n"
	n := len(rest) + 1
	for len(fmt.Sprint(n))+len(rest) != n {
		n = len(fmt.Sprint(n)) + len(rest)
	}
	return fmt.Sprint(n) + rest
}

// sparseTarGz builds, by hand, a PAX 1.0 sparse file: the header claims
// a logical size of realsize, the archive stores one 512-byte block of
// data, and the reader expands the rest as holes of zeros. archive/tar's
// writer refuses GNU sparse records, so the extended header is written as
// a regular entry and its type flag patched to 'x'.
func sparseTarGz(t testing.TB, realsize int64) []byte {
	t.Helper()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	pax := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.name", "big.md") + paxRecord("GNU.sparse.realsize", fmt.Sprint(realsize))
	tw.WriteHeader(&tar.Header{Name: "PaxHeaders/big.md", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(pax)), Format: tar.FormatUSTAR})
	tw.Write([]byte(pax))
	data := append([]byte("1\n0\n512\n"), make([]byte, 512-8)...)
	data = append(data, bytes.Repeat([]byte("x"), 512)...)
	tw.WriteHeader(&tar.Header{Name: "GNUSparseFile.0/big.md", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data)), Format: tar.FormatUSTAR})
	tw.Write(data)
	tw.Close()
	b := tb.Bytes()
	b[156] = tar.TypeXHeader
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b[:512] {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(b)
	zw.Close()
	return gz.Bytes()
}

// TestExtractLyingTarHeaders is B09 for tar: the limits hold for the bytes
// the reader really produces. A sparse file whose few stored bytes expand
// to 24 MiB is stopped by the ratio limit while it inflates; a gzip
// trailer that lies about the size, a header that claims more bytes than
// the entry holds, and one that claims more than the limit are refused.
func TestExtractLyingTarHeaders(t *testing.T) {
	roomy := DefaultExtractLimits()
	roomy.MaxFileBytes, roomy.MaxTotalBytes = 64<<20, 64<<20
	sparse := sparseTarGz(t, 24<<20)
	{
		// The archive is what it claims to be: a smaller logical size
		// extracts, holes and all.
		dir := t.TempDir()
		files, err := Extract(t.Context(), bytes.NewReader(sparseTarGz(t, 4096)), dir, roomy)
		if err != nil || len(files) != 1 || files[0] != "big.md" {
			t.Fatalf("Extract(small sparse file) = %v, %v; want [big.md]", files, err)
		}
		if fi, err := os.Stat(filepath.Join(dir, "big.md")); err != nil || fi.Size() != 4096 {
			t.Fatalf("big.md = %v, %v; want 4096 bytes", fi, err)
		}
	}
	badTrailer := makeTarGz(t, entry{name: "a.md", body: strings.Repeat("a", 1000)})
	badTrailer = bytes.Clone(badTrailer)
	binary.LittleEndian.PutUint32(badTrailer[len(badTrailer)-4:], 10)
	tests := []struct {
		name string
		data []byte
		lim  ExtractLimits
		code string
		want string
	}{
		{"sparse file expanding past the ratio", sparse, roomy, "ASK_ARCHIVE_TOO_LARGE", "compression ratio"},
		{"sparse file larger than a file may be", sparse, DefaultExtractLimits(), "ASK_ARCHIVE_TOO_LARGE", "file is 25165824 bytes"},
		{"gzip trailer with a false size", badTrailer, DefaultExtractLimits(), "ASK_ARCHIVE_UNSAFE", "corrupt archive"},
		{"header claiming more than the entry holds", truncatedEntry(t), DefaultExtractLimits(), "ASK_ARCHIVE_UNSAFE", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Extract(t.Context(), bytes.NewReader(tt.data), t.TempDir(), tt.lim)
			if codeOf(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Extract(%s) = %v (%s), want %s containing %q", tt.name, err, codeOf(err), tt.code, tt.want)
			}
		})
	}
}

// truncatedEntry is a .tar.gz whose only header claims 4096 bytes of which
// the archive holds 100.
func truncatedEntry(t testing.TB) []byte {
	t.Helper()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: "a.md", Typeflag: tar.TypeReg, Mode: 0o644, Size: 4096})
	tw.Write(bytes.Repeat([]byte("a"), 100))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(tb.Bytes()[:512+100])
	zw.Close()
	return gz.Bytes()
}
