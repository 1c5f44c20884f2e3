package install

import (
	"testing"
)

func FuzzDecodeReceipt(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":1,"name":"s","version":"1.0.0","kind":"skill","shape":"directory","agents":["codex"],"files":[{"path":"SKILL.md","digest":"sha256-x","mode":"0644"}]}`), "s")
	f.Add([]byte(`{"schemaVersion":1,"name":"s","files":[{"path":"../x"}]}`), "s")
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
