package upstream

import (
	"bytes"
	"testing"
)

// FuzzDecode: whatever a lock holds, Decode either refuses it or returns
// a lock that encodes and decodes again to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schema":"agent-skills.upstreams/1","upstreams":[]}`))
	f.Add([]byte(`{"schema":"agent-skills.upstreams/1","upstreams":[{"package":"p","source":{"repository":"github:a/b","path":".","commit":"` +
		commit1 + `"},"digest":"sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","files":[]}]}`))
	f.Add([]byte(`{"schema":"agent-skills.upstreams/1","upstreams":null}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		l, err := Decode(bytes.NewReader(in), FileName)
		if err != nil {
			return
		}
		b, err := Encode(l)
		if err != nil {
			t.Fatalf("Encode(Decode(%q)) = %v", in, err)
		}
		l2, err := Decode(bytes.NewReader(b), FileName)
		if err != nil {
			t.Fatalf("Decode(Encode(Decode(%q))) = %v", in, err)
		}
		if b2, _ := Encode(l2); !bytes.Equal(b, b2) {
			t.Fatalf("not canonical:\n%s\n%s", b, b2)
		}
	})
}
