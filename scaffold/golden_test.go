package scaffold

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/format"
	"github.com/rogpeppe/go-internal/txtar"
)

// update rewrites the golden files instead of comparing against them:
// go test -run TestGolden -update (or UPDATE_GOLDEN=1 go test ./...).
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden compares the generated files of each kind with
// testdata/golden/<kind>.txtar, byte for byte.
func TestGolden(t *testing.T) {
	tests := []struct {
		golden string
		opts   Options
	}{
		{"skill.txtar", Options{Name: "java-performance", Author: "Jane Doe <jane@example.com> (https://example.com)"}},
		{"skill-described.txtar", Options{
			Name:        "release-notes",
			Description: `Writes release notes: "what changed" & why # from git history. Use when tagging a release.`,
			License:     "MIT OR Apache-2.0",
			Version:     "1.2.3",
		}},
		{"command.txtar", Options{Name: "review-diff", Kind: format.KindCommand}},
		{"workflow.txtar", Options{
			Name:        "migrate-tests",
			Kind:        format.KindWorkflow,
			Description: `Moves tests to the new runner; it's "safe" to rerun: C:\path stays put.`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			files, err := New(tt.opts)
			if err != nil {
				t.Fatalf("New(%+v) error: %v", tt.opts, err)
			}
			ar := &txtar.Archive{}
			for _, f := range files {
				ar.Files = append(ar.Files, txtar.File{Name: f.Path, Data: f.Data})
			}
			got := txtar.Format(ar)
			path := filepath.Join("testdata", "golden", tt.golden)
			if *update || os.Getenv("UPDATE_GOLDEN") == "1" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("reading golden file (run with -update to create it): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("New(%+v) differs from %s (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", tt.opts, path, got, want)
			}
		})
	}
}
