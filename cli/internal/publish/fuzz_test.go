package publish

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/validate"
)

// FuzzPatchIndex feeds arbitrary index documents to the patcher: it must
// not panic, and whatever it returns must decode to the intended index
// (patchIndex checks that itself, so a success is a decodable document).
func FuzzPatchIndex(f *testing.F) {
	if src, err := os.ReadFile(filepath.Join("testdata", "commented.yaml")); err == nil {
		f.Add(src, "alpha")
		f.Add(src, "bravo")
	}
	f.Add([]byte("schemaVersion: 1\nskills: []\n"), "alpha")
	f.Add([]byte("skills:\n- name: alpha\n  versions:\n  - version: 1.0.0\n    path: a\n    integrity: "+testSum+"\n"), "alpha")
	f.Add([]byte("skills:\n  - name: alpha # c\n    versions: [{version: 1.0.0, tarball: x.tar.gz, integrity: "+testSum+"}]\n"), "alpha")
	f.Add([]byte("skills:\r\n  -\r\n    name: alpha\r\n    versions:\r\n      -\r\n        version: 1.0.0\r\n        path: a\r\n        integrity: "+testSum+"\r\n"), "alpha")
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		idx, err := registry.DecodeIndex(src, "fuzz.yaml")
		if err != nil || validate.CheckName(name) != nil {
			return
		}
		v := &registry.Version{Version: "99.0.0", Path: "skills/" + name, Integrity: testSum}
		e := &indexEdit{name: name, tarball: map[string]string{}}
		if s, ok := idx.Skill(name); ok {
			e.add, e.latest = v, "99.0.0"
			if len(s.Versions) > 0 {
				first := s.Versions[0]
				if first.Path != "" {
					e.tarball[first.Version] = "archive/" + name + "-" + first.Version + ".tar.gz"
				}
				if len(s.Versions) > 1 {
					e.drop = []string{s.Versions[1].Version}
				}
			}
		} else {
			e.skill = &registry.Skill{Name: name, Latest: "99.0.0", Versions: []*registry.Version{v}}
		}
		out, err := patchIndex(src, "fuzz.yaml", nil, e)
		if err != nil {
			return
		}
		if _, err := registry.DecodeIndex(out, "out.yaml"); err != nil {
			t.Fatalf("patchIndex gave an undecodable document: %v\n%s", err, out)
		}
	})
}
