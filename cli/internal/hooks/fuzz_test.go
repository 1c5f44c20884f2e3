package hooks

import "testing"

// FuzzVerify: Verify never panics on any settings file and accepts the
// registration wherever it is merged.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(`{"hooks":{"SessionStart":[{"hooks":[{"type":"command"}]}]}}`), uint8(0))
	f.Add([]byte(`{"version":1,"hooks":{"sessionStart":[1,"x",null,{}]}}`), uint8(2))
	f.Add([]byte(`[]`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, hi uint8) {
		h := Hosts()[int(hi)%len(Hosts())]
		_ = Verify(h, data)
	})
}
