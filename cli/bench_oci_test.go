package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/benchreg"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/registry/ocitest"
)

// BenchmarkOCIRegistry publishes n generated skills (~17 KiB each,
// cli/internal/benchreg) one by one into the real distribution registry
// on loopback — each publish pushes its artifact and rewrites the index
// with the optimistic update — then installs 50 roots from it through the
// CLI on a fresh HOME (the index is read from the registry, every payload
// pulled by digest). The iteration time is the install; publish-s and
// publish-ms/skill report the publishing, index-KiB the index size.
// make bench runs it once per size; it needs docker-registry (it skips
// without one).
func BenchmarkOCIRegistry(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("publish-%d-install-50", n), func(b *testing.B) { benchOCI(b, n) })
	}
}

func benchOCI(b *testing.B, n int) {
	if _, err := ocitest.Binary(); err != nil {
		b.Skip(err)
	}
	base := b.TempDir()
	srv, err := ocitest.Start(filepath.Join(base, "oci"), ocitest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	names, err := benchreg.Generate(filepath.Join(base, "reg"), n)
	if err != nil {
		b.Fatal(err)
	}
	url := "oci://" + srv.Addr + "/bench/skills"
	w, err := registry.NewOCIWriter(registry.Spec{Name: "bench", URL: url}, registry.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	for _, name := range names {
		dir := filepath.Join(base, "reg", "local", "skills", name)
		pkg, diags := format.Load(os.DirFS(dir), format.LoadOptions{})
		if pkg == nil || diags.HasErrors() {
			b.Fatalf("%s: %v", name, diags)
		}
		sum, err := format.Digest(pkg.FS, pkg.Files)
		if err != nil {
			b.Fatal(err)
		}
		s := &registry.Skill{Name: name, Description: pkg.Manifest.Description}
		if _, _, err := w.Publish(ctx, pkg, s, &registry.Version{Version: "1.0.0", Integrity: sum}); err != nil {
			b.Fatal(err)
		}
	}
	publish := time.Since(start)
	idx, _, err := w.Index(ctx)
	if err != nil || len(idx.Skills) != n {
		b.Fatalf("index: %d skills, %v", len(idx.Skills), err)
	}
	config := fmt.Sprintf(`{"registries":[{"name":"bench","url":%q,"kind":"oci","trusted":true}]}`, url)
	roots := names
	if len(roots) > 50 {
		roots = roots[:50]
	}
	args := append([]string{"-q", "install"}, roots...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a, env := benchRun(base, i, config, args)
		b.StartTimer()
		if code := run(ctx, a, nil, io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("install exited %d", code)
		}
	}
	b.StopTimer()
	b.ReportMetric(publish.Seconds(), "publish-s")
	b.ReportMetric(float64(publish.Milliseconds())/float64(n), "publish-ms/skill")
	b.ReportMetric(float64(len(idx.EncodeJSON()))/1024, "index-KiB")
}
