package format

import (
	"testing"
	"testing/fstest"
)

// TestCompact: a compacted package keeps what installing reads (names,
// versions, fields, top-level texts, the body) and drops the positions.
func TestCompact(t *testing.T) {
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte("schemaVersion: 1\nname: demo\nversion: 1.0.0\ndescription: Demo.\nlicense: MIT\nfiles: [SKILL.md]\ncompatibility:\n  agents:\n    - id: codex\n")},
		"SKILL.md":   {Data: []byte("---\nname: demo\ndescription: Demo.\nversion: 1.0\nmetadata:\n  author: me\n---\n# Demo\n")},
	}
	pkg, diags := Load(fsys, LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		t.Fatalf("Load = %v", diags)
	}
	if !pkg.Manifest.Has("name") || !pkg.Entrypoint.Has("metadata.author") || pkg.Entrypoint.Text("metadata.author") != "me" {
		t.Fatalf("before Compact: Has/Text do not see the fields")
	}
	fields := len(pkg.Entrypoint.Fields)
	pkg.Compact()
	if pkg.Name() != "demo" || pkg.Version() != "1.0.0" || pkg.Entrypoint.Text("version") != "1.0" || pkg.Entrypoint.Text("name") != "demo" {
		t.Errorf("after Compact: Name %q, Version %q, Text(version) %q; want demo, 1.0.0, 1.0", pkg.Name(), pkg.Version(), pkg.Entrypoint.Text("version"))
	}
	if len(pkg.Entrypoint.Fields) != fields || string(pkg.Entrypoint.Body) != "# Demo\n" || len(pkg.Manifest.Compatibility.Agents) != 1 {
		t.Errorf("after Compact: %d fields (want %d), body %q, %d agents", len(pkg.Entrypoint.Fields), fields, pkg.Entrypoint.Body, len(pkg.Manifest.Compatibility.Agents))
	}
	if pkg.Manifest.Has("name") || pkg.Entrypoint.Pos("name") != (Pos{}) || pkg.Entrypoint.Text("metadata.author") != "" {
		t.Errorf("after Compact the positions and nested texts are still there")
	}
}
