package registry

import (
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestFilesCopyWithoutBuffer: copying a snapshot's or a sealed package's
// file into an *os.File, as the installer does, gives the verified bytes
// and allocates no 32 KiB copy buffer per file; a copy after a partial
// read writes the rest.
func TestFilesCopyWithoutBuffer(t *testing.T) {
	r, _ := localSample(t)
	pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	sealed := Seal(pkg, "demo-skill", "1.0.0")
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		fsys fs.FS
	}{{"snapshot", pkg.FS}, {"sealed", sealed.FS}} {
		for p, f := range samplePackage() {
			copyOnce := func() {
				in, err := c.fsys.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				if _, ok := in.(io.WriterTo); !ok {
					t.Fatalf("%s: Open(%s) is a %T, want an io.WriterTo", c.name, p, in)
				}
				out, err := os.Create(filepath.Join(dir, "out"))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				if _, err := io.Copy(out, in); err != nil {
					t.Fatalf("%s: copying %s: %v", c.name, p, err)
				}
			}
			copyOnce()
			if got, _ := os.ReadFile(filepath.Join(dir, "out")); string(got) != string(f.Data) {
				t.Errorf("%s: io.Copy of %s wrote %q, want %q", c.name, p, got, f.Data)
			}
			// TotalAlloc counts every goroutine of the process (a test
			// before this one may leave some running): the least of three
			// windows is this loop's own, and a copy buffer shows in each.
			per := uint64(math.MaxUint64)
			for range 3 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range 8 {
					copyOnce()
				}
				runtime.ReadMemStats(&after)
				per = min(per, (after.TotalAlloc-before.TotalAlloc)/8)
			}
			if per >= 16<<10 {
				t.Errorf("%s: io.Copy of %s allocated %d bytes per copy, want no copy buffer", c.name, p, per)
			}
		}
	}
	in, err := pkg.FS.Open("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	head := make([]byte, 3)
	if _, err := io.ReadFull(in, head); err != nil {
		t.Fatal(err)
	}
	var sb stringWriter
	if _, err := in.(io.WriterTo).WriteTo(&sb); err != nil {
		t.Fatal(err)
	}
	if want := string(samplePackage()["SKILL.md"].Data[3:]); string(head)+sb.s != string(samplePackage()["SKILL.md"].Data) {
		t.Errorf("WriteTo after reading 3 bytes wrote %q, want %q", sb.s, want)
	}
	if n, err := in.Read(head); n != 0 || err != io.EOF {
		t.Errorf("Read after WriteTo = %d, %v; want 0, EOF", n, err)
	}
}

type stringWriter struct{ s string }

func (w *stringWriter) Write(p []byte) (int, error) { w.s += string(p); return len(p), nil }
