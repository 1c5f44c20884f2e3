package catalog

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// skillMD returns a SKILL.md with front matter.
func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n# " + name + "\n\nBody.\n"
}

// manifest returns a skill.yaml for a skill shipping SKILL.md and references/.
func manifest(name, version, desc string) string {
	return "schemaVersion: 1\nname: " + name + "\nkind: skill\nversion: " + version +
		"\ndescription: " + desc + "\nlicense: MIT\nkeywords: [alpha, beta]\nfiles:\n  - SKILL.md\n  - references/\n"
}

// collection returns a MapFS with two valid packages.
func collection() fstest.MapFS {
	return fstest.MapFS{
		"skills/alpha/skill.yaml":          {Data: []byte(manifest("alpha", "1.0.0", "Alpha does things. Use when alpha."))},
		"skills/alpha/SKILL.md":            {Data: []byte(skillMD("alpha", "Alpha does things. Use when alpha."))},
		"skills/alpha/references/guide.md": {Data: []byte("# Guide\n")},
		"skills/beta/SKILL.md":             {Data: []byte(skillMD("beta", "Beta is a bare skill. Use when beta."))},
	}
}

// writeTree writes files (slash paths relative to dir) to disk.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// codeOf returns the ASK_* code of err, or "".
func codeOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return ""
}
