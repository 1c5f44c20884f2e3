package policy

import "testing"

// FuzzParse: a policy file comes with a cloned project; no bytes may
// panic the parser, and a file it accepts is usable.
func FuzzParse(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte(`{"schemaVersion": 1}`))
	f.Add([]byte(`{"schemaVersion": 1, "scan": {"accept": [{"rule": "hidden-*", "reason": "r", "skills": ["a"]}]}}`))
	f.Add([]byte(`{"schemaVersion": 1, "sources": {"direct": false, "direct": true}}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[`))
	f.Add([]byte(`{"schemaVersion": 1, "registries": {"deny": {"a": {"b": 1}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data, "p.json", true)
		if err != nil {
			if p != nil {
				t.Fatal("Parse returned a file and an error")
			}
			return
		}
		e := Merge(nil, p)
		_ = e.Lines()
		if _, err := e.Gate([]string{"hidden-bidi"}); err != nil && p.Scan.AllowRiskFlag.Value {
			t.Fatalf("Gate refused the flag with allowRiskFlag true: %v", err)
		}
		_ = e.CheckSource("x", []string{"github.com/a/b", "file:///x"})
		_ = e.CheckRegistry("x", "https://x/y")
	})
}
