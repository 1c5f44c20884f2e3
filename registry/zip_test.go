package registry

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zipFile is one entry of a zip built by makeRawZip.
type zipFile struct {
	name string
	body []byte
	// declare, when non-zero, replaces the compressed size recorded in
	// the central directory: the archive lies about it.
	declare uint32
}

// makeRawZip deflates each body itself and writes the entries with their
// sizes in the local headers (no data descriptors), then patches the
// central directory's compressed sizes where declare asks for a lie.
func makeRawZip(t testing.TB, files ...zipFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		var c bytes.Buffer
		fw, _ := flate.NewWriter(&c, flate.BestCompression)
		fw.Write(f.body)
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name: f.name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(f.body),
			CompressedSize64: uint64(c.Len()), UncompressedSize64: uint64(len(f.body)),
		})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(c.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	lies := map[string]uint32{}
	for _, f := range files {
		if f.declare != 0 {
			lies[f.name] = f.declare
		}
	}
	for i := bytes.Index(b, []byte("PK\x01\x02")); i >= 0; {
		n := int(binary.LittleEndian.Uint16(b[i+28:]))
		if v, ok := lies[string(b[i+46:i+46+n])]; ok {
			binary.LittleEndian.PutUint32(b[i+20:], v)
		}
		next := bytes.Index(b[i+4:], []byte("PK\x01\x02"))
		if next < 0 {
			break
		}
		i += 4 + next
	}
	return b
}

// TestExtractZipCountsRealCompressedBytes is B09: the ratio limit must be
// enforced on the bytes the decompressor really consumed. The same
// highly compressible entries are refused whether the central directory
// tells the truth about their compressed sizes or claims ~2 GiB each.
func TestExtractZipCountsRealCompressedBytes(t *testing.T) {
	lim := DefaultExtractLimits()
	lim.MaxFileBytes, lim.MaxTotalBytes, lim.RatioGrace = 4<<20, 64<<20, 256<<10
	bomb := func(declare uint32) []zipFile {
		files := []zipFile{{name: "bomb/SKILL.md", body: []byte("---\nname: bomb\ndescription: Bomb.\n---\n")}}
		for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
			files = append(files, zipFile{name: "bomb/references/" + n + ".md", body: make([]byte, 1<<20), declare: declare})
		}
		return files
	}
	tests := []struct {
		name    string
		declare uint32
	}{
		{"honest sizes", 0},
		{"compressed sizes inflated to 2 GiB", 0x7ffffff0},
		{"compressed sizes claimed as 1 MiB", 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := makeRawZip(t, bomb(tt.declare)...)
			dir := t.TempDir()
			files, err := ExtractZip(t.Context(), bytes.NewReader(data), int64(len(data)), dir, lim)
			if codeOf(err) != "ASK_ARCHIVE_TOO_LARGE" || !strings.Contains(err.Error(), "compression ratio") {
				t.Fatalf("ExtractZip(%s) = %v, %v; want ASK_ARCHIVE_TOO_LARGE for the compression ratio", tt.name, files, err)
			}
		})
	}
}

// TestExtractZipLyingSizes checks the claims archive/zip and the
// extractor verify against the inflated bytes: an uncompressed size that
// understates or overstates the entry, and a compressed size that cuts
// the stream short, are all refused.
func TestExtractZipLyingSizes(t *testing.T) {
	body := bytes.Repeat([]byte("the quick brown fox\n"), 100)
	patch := func(data []byte, off int, v uint32) []byte {
		out := bytes.Clone(data)
		i := bytes.Index(out, []byte("PK\x01\x02"))
		binary.LittleEndian.PutUint32(out[i+off:], v)
		j := bytes.Index(out, []byte("PK\x03\x04"))
		binary.LittleEndian.PutUint32(out[j+off-2:], v) // the local header has the same field 2 bytes earlier
		return out
	}
	good := makeRawZip(t, zipFile{name: "a.md", body: body})
	tests := []struct {
		name string
		data []byte
	}{
		{"uncompressed size understated", patch(good, 24, 10)},
		{"uncompressed size overstated", patch(good, 24, uint32(len(body)*3))},
		{"compressed size understated", patch(good, 20, 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := ExtractZip(t.Context(), bytes.NewReader(tt.data), int64(len(tt.data)), dir, DefaultExtractLimits())
			if code := codeOf(err); code != "ASK_ARCHIVE_UNSAFE" {
				t.Fatalf("ExtractZip(%s) = %v (%s), want ASK_ARCHIVE_UNSAFE", tt.name, err, code)
			}
		})
	}
	// The untouched archive extracts: the patches above are what fails.
	dir := t.TempDir()
	if files, err := ExtractZip(t.Context(), bytes.NewReader(good), int64(len(good)), dir, DefaultExtractLimits()); err != nil || len(files) != 1 {
		t.Fatalf("ExtractZip(good) = %v, %v", files, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.md")); !bytes.Equal(got, body) {
		t.Errorf("a.md = %d bytes, want %d", len(got), len(body))
	}
}
