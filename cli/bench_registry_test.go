package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/benchreg"
	"github.com/agent-skills/agent-skills/registry"
)

// BenchmarkInstallRegistry installs n generated small skills (~17 KiB
// each, cli/internal/benchreg) from a local folder registry and from an
// HTTP registry on loopback into Claude Code and Codex, project scope, a
// fresh HOME and project each iteration, in process. Besides time and
// allocations it reports digests/pkg: how many times each payload was
// digested (verified) per run, which must be 1. scripts/bench-registry.sh
// measures the same through the binary, old vs new, with peak RSS.
func BenchmarkInstallRegistry(b *testing.B) {
	for _, n := range []int{50, 500} {
		for _, kind := range []string{"local", "http"} {
			b.Run(fmt.Sprintf("%s-%d", kind, n), func(b *testing.B) { benchInstallRegistry(b, kind, n) })
		}
	}
}

func benchInstallRegistry(b *testing.B, kind string, n int) {
	base := b.TempDir()
	names, err := benchreg.Generate(filepath.Join(base, "reg"), n)
	if err != nil {
		b.Fatal(err)
	}
	url := filepath.Join(base, "reg", "local")
	if kind == "http" {
		srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(base, "reg", "http"))))
		defer srv.Close()
		url = srv.URL + "/index.json"
	}
	var mu sync.Mutex
	digests := map[string]int{}
	defer registry.SetDigestHook(func(name, version string) {
		mu.Lock()
		digests[name+"@"+version]++
		mu.Unlock()
	})()
	config := fmt.Sprintf(`{"registries":[{"name":"bench","url":%q,"kind":%q,"trusted":true}]}`, url, kind)
	args := append([]string{"-q", "install"}, names...)
	ctx := context.Background()
	b.ReportAllocs()
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
	total := 0
	for _, c := range digests {
		total += c
	}
	b.ReportMetric(float64(total)/float64(n*b.N), "digests/pkg")
}
