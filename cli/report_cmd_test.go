package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
)

// TestReportBumpSnapshotSides compares a snapshot file and its
// observation with the folder they were captured from after an edit: the
// snapshot carries the files' bytes, so the front-matter-only change of
// SKILL.md is decided; the observation carries digests only, so it needs
// a verdict.
func TestReportBumpSnapshotSides(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "demo")
	writeFile(t, filepath.Join(pkg, "skill.yaml"), "schemaVersion: 1\nname: demo\nkind: skill\nversion: 1.0.0\n"+
		"description: Demo skill. Use when testing bump reports.\nlicense: MIT\nfiles: [SKILL.md]\n")
	writeFile(t, filepath.Join(pkg, "SKILL.md"), "---\nname: demo\nversion: 1.0.0\ndescription: Demo skill. Use when testing bump reports.\n---\n# Demo\n")
	s, err := snapshot.CapturePackage(os.DirFS(pkg), snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := snapshot.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	o, err := s.Observe(enc, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := snapshot.EncodeObservation(o)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "v1.snapshot.json"), string(enc))
	writeFile(t, filepath.Join(dir, "v1.observation.json"), string(obs))
	for _, f := range []string{"skill.yaml", "SKILL.md"} {
		b, _ := os.ReadFile(filepath.Join(pkg, f))
		writeFile(t, filepath.Join(pkg, f), string(bytes.Replace(b, []byte("version: 1.0.0"), []byte("version: 1.0.1"), 1)))
	}
	for _, tc := range []struct{ before, want string }{
		{"v1.snapshot.json", "patch"},
		{"v1.observation.json", "undetermined"},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"report", "bump", filepath.Join(dir, tc.before), pkg, "--json"}, nil, &out, &errs, benchEnv(filepath.Join(dir, "home")))
		if code != 0 {
			t.Fatalf("report bump %s exited %d: %s", tc.before, code, errs.String())
		}
		var r struct {
			Recommendation string `json:"recommendation"`
			Before         struct{ Label string }
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("report bump %s --json = %q: %v", tc.before, out.String(), err)
		}
		if r.Recommendation != tc.want || r.Before.Label != tc.before {
			t.Errorf("report bump %s = %s (label %q), want %s", tc.before, r.Recommendation, r.Before.Label, tc.want)
		}
	}
}
