package bump

import (
	"bytes"
	"testing"
)

// FuzzDecodeReview feeds arbitrary bytes to the review parser: it must
// never panic, and a review it accepts has only verdicts it can apply.
func FuzzDecodeReview(f *testing.F) {
	f.Add([]byte(`{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"patch"}]}`))
	f.Add([]byte(`{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"x","verdict":"major","note":"n","digest":"sha256-x"}]}`))
	f.Add([]byte(`{"schema":"agent-skills.bump-review/1"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeReview(bytes.NewReader(b), "fuzz.json")
		if err != nil {
			return
		}
		for _, v := range r.Verdicts {
			if v.ID == "" || !v.Verdict.Verdict() {
				t.Fatalf("DecodeReview accepted verdict %+v", v)
			}
		}
		if r.Digest() == "" {
			t.Fatal("DecodeReview accepted a review without a digest")
		}
	})
}
