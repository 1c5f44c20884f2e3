package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// writeFile writes data to path, creating its folders.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// withFault returns ctx carrying hook, which every fault-injection point
// (install.Point*, skillset.Point*) of a run started with it calls; an
// error aborts the run there. Only tests set it.
func withFault(ctx context.Context, hook func(point string) error) context.Context {
	return context.WithValue(ctx, faultKey{}, hook)
}
