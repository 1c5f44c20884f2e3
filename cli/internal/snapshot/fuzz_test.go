package snapshot

import (
	"bytes"
	"testing"
)

// FuzzDecode: Decode never panics, and what it accepts encodes to bytes
// it accepts again, unchanged.
func FuzzDecode(f *testing.F) {
	s, err := CaptureCollection(collection(), Options{})
	if err != nil {
		f.Fatal(err)
	}
	good, _ := Encode(s)
	f.Add(good)
	f.Add([]byte(`{"schema":"agent-skills.snapshot/1","kind":"package","packages":[{"path":".","digest":"","contract":{},"files":[]}]}`))
	f.Add([]byte(`{"schema":"agent-skills.snapshot/1","kind":"collection","packages":[{"path":"../x","files":[]}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Decode(bytes.NewReader(b), "fuzz.json")
		if err != nil {
			return
		}
		enc, err := Encode(s)
		if err != nil {
			t.Fatalf("Encode of a decoded snapshot: %v", err)
		}
		again, err := Decode(bytes.NewReader(enc), "again.json")
		if err != nil {
			t.Fatalf("Decode(Encode(Decode(b))) = %v", err)
		}
		if enc2, _ := Encode(again); !bytes.Equal(enc, enc2) {
			t.Fatal("a second round trip changed the bytes")
		}
		for i := range s.Packages {
			if _, err := LocalChanges(&s.Packages[i], s.Packages[i].FS()); err != nil {
				t.Fatalf("LocalChanges of a package against its own files: %v", err)
			}
		}
	})
}

// FuzzDecodeObservation: DecodeObservation never panics, and what it
// accepts encodes to bytes it accepts again.
func FuzzDecodeObservation(f *testing.F) {
	s, _ := CaptureCollection(collection(), Options{})
	enc, _ := Encode(s)
	o, err := s.Observe(enc, []byte(`{"commit":"abc"}`), []byte(`[1,2]`))
	if err != nil {
		f.Fatal(err)
	}
	good, _ := EncodeObservation(o)
	f.Add(good)
	f.Add([]byte(`{"schema":"agent-skills.observation/1","packages":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := DecodeObservation(bytes.NewReader(b), "fuzz.json")
		if err != nil {
			return
		}
		enc, err := EncodeObservation(o)
		if err != nil {
			t.Fatalf("EncodeObservation of a decoded observation: %v", err)
		}
		if _, err := DecodeObservation(bytes.NewReader(enc), "again.json"); err != nil {
			t.Fatalf("DecodeObservation(EncodeObservation(…)) = %v", err)
		}
	})
}
