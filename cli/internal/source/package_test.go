package source

import (
	"testing"
	"testing/fstest"
)

// TestPackageAt: a folder whose skill.yaml declares a command or a
// workflow is a package; a skill manifest, a broken one, or none is not
// (skills are found by their SKILL.md).
func TestPackageAt(t *testing.T) {
	manifest := func(kind string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("schemaVersion: 1\nname: x\nkind: " + kind + "\nversion: 1.0.0\ndescription: D.\n")}
	}
	fsys := fstest.MapFS{
		"cmd/skill.yaml":     manifest("command"),
		"flow/skill.yaml":    manifest("workflow"),
		"skill/skill.yaml":   manifest("skill"),
		"skill/SKILL.md":     {Data: []byte(skillMD("x", "D."))},
		"broken/skill.yaml":  {Data: []byte("name: [\n")},
		"nothing/README.md":  {Data: []byte("# hi\n")},
		"skill.yaml":         manifest("command"),
		"unnamed/skill.yaml": {Data: []byte("schemaVersion: 1\nkind: command\nversion: 1.0.0\n")},
	}
	tests := []struct {
		dir, name string
		ok        bool
	}{
		{"cmd", "x", true}, {"flow", "x", true}, {"", "x", true}, {"unnamed", "unnamed", true},
		{"skill", "", false}, {"broken", "", false}, {"nothing", "", false}, {"missing", "", false},
	}
	for _, tt := range tests {
		f, ok := packageAt(fsys, tt.dir)
		if ok != tt.ok || f.Name != tt.name || (ok && (f.Path != tt.dir || f.Bare)) {
			t.Errorf("packageAt(%q) = %+v, %v; want name %q, %v", tt.dir, f, ok, tt.name, tt.ok)
		}
	}
	if f, ok := packageFolderAt(fsys, "skill"); !ok || f.Name != "x" {
		t.Errorf("packageFolderAt(skill) = %+v, %v; want the skill", f, ok)
	}
}
