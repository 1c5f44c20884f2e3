package install

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

func FuzzDecodeReceipt(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":1,"name":"s","version":"1.0.0","kind":"skill","shape":"directory","agents":["codex"],"files":[{"path":"SKILL.md","digest":"sha256-x","mode":"0644"}]}`), "s")
	f.Add([]byte(`{"schemaVersion":1,"name":"s","files":[{"path":"../x"}]}`), "s")
	f.Add([]byte(`{"schemaVersion":1,"name":"s","version":"1.0.0","kind":"skill","shape":"directory","agents":["codex"],"findings":[{"rule":"hidden-bidi","severity":"critical","file":"SKILL.md","line":3,"fingerprint":"0123","acceptedBy":"--allow-risk"}],"files":[{"path":"SKILL.md","digest":"sha256-x","mode":"0644"}]}`), "s")
	f.Add([]byte(`{"schemaVersion":1,"name":"s","findings":[{"rule":1,"line":"x"}],"files":[{"path":"SKILL.md"}]}`), "s")
	f.Add([]byte(`{"schemaVersion":1,"name":"s","findings":null,"files":[{"path":"SKILL.md"}]}`), "s")
	f.Add([]byte(`{`), "s")
	f.Add([]byte(`null`), "")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		r, err := decodeReceipt(data, name)
		if err != nil {
			return
		}
		if r.Name != name || len(r.Files) == 0 {
			t.Fatalf("decodeReceipt(%q) = %+v, want name %q and files", data, r, name)
		}
		again, err := decodeReceipt(encodeReceipt(r), name)
		if err != nil || !equalReceipt(r, again) {
			t.Fatalf("decodeReceipt(encodeReceipt(%+v)) = %+v, %v; want the same receipt", r, again, err)
		}
	})
}

// FuzzCheckJournal checks that a pending receipt, whatever its bytes,
// passes checkJournal only when recovery would touch nothing but the
// package's own destination and a staging entry of its own.
func FuzzCheckJournal(f *testing.F) {
	f.Add([]byte(`{"dest": "s"}`), "s", false)
	f.Add([]byte(`{"dest": "s", "aside": ".agent-skills/staging/s.0123456789abcdef.old"}`), "s", false)
	f.Add([]byte(`{"dest": "s.md"}`), "s", true)
	f.Add([]byte(`{"dest": "stolen", "aside": "lnk/secret-dir"}`), "zz", false)
	f.Add([]byte(`{"dest": "s", "aside": ".agent-skills/staging/../../x.0123456789abcdef.old"}`), "s", false)
	f.Add([]byte(`{"dest": "../s"}`), "s", false)
	f.Fuzz(func(t *testing.T, data []byte, name string, file bool) {
		if !safeName(name) {
			return
		}
		var j journal
		if json.Unmarshal(data, &j) != nil {
			return
		}
		root := filepath.Join(string(filepath.Separator), "r")
		loc := agents.Location{Root: root, Shape: agents.ShapeDirectory}
		if file {
			loc.Shape, loc.Extension = agents.ShapeFile, ".md"
		}
		dest := loc.Dest(name)
		if checkJournal(&j, root, name, dest, loc.Shape) != nil {
			return
		}
		if filepath.Join(root, j.Dest) != dest || !filepath.IsLocal(j.Dest) {
			t.Fatalf("checkJournal accepted dest %q for %s, want %s", j.Dest, name, dest)
		}
		if j.Aside != "" {
			aside := filepath.Join(root, j.Aside)
			n, ok := stagingEntry(filepath.Base(aside))
			if filepath.Dir(aside) != stagingDir(root) || !ok || n != name || file {
				t.Fatalf("checkJournal accepted aside %q for %s", j.Aside, name)
			}
		}
	})
}
