package setup

import (
	"encoding/json"
	"reflect"
	"testing"
)

// decode returns the plain-JSON value of a document.
func decode(t *testing.T, d *jsonDoc) any {
	t.Helper()
	b, err := canonical(d.root)
	if err != nil {
		t.Fatalf("canonical: %v", err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	return x
}

// FuzzJSONCMerge parses any settings file, adds our MCP member and hook
// element, and checks that the result parses again, holds both entries,
// and differs from the original only by them; then removes them and checks
// that the original document is back.
func FuzzJSONCMerge(f *testing.F) {
	for _, s := range []string{
		"{}", "", "{\n  // c\n  \"a\": 1 // d\n}\n", `{"mcpServers":{"x":{}},}`, "{\"hooks\":{\"SessionStart\":[{\"b\":2}]}}",
		"/* top */ {\"a\": [1, 2,], /* in */ \"b\": {}}", `{"mcpServers": 3}`, `{"a":{"b":{"c":[]}}}`, "{\n\t\"x\": \"\\u00e9\"\n}",
		`{"hooks":{"SessionStart":[]}}`, `{"hooks": {}, }`, `[]`, `{"mcpServers":{"agent-skills":{}}}`,
	} {
		f.Add([]byte(s))
	}
	mcp := Entry{Kind: Member, Path: []string{"mcpServers", "agent-skills"}, Value: json.RawMessage(`{"command":"agent-skills","args":["mcp","serve"]}`)}
	hook := Entry{Kind: Element, Path: []string{"hooks", "SessionStart"}, Marker: "session-index",
		Value: json.RawMessage(`{"hooks":[{"type":"command","command":"agent-skills hook session-index --host gemini"}]}`)}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := openJSON("f", data, false)
		if err != nil {
			return
		}
		before := decode(t, d)
		type added struct {
			e       Entry
			created []string
		}
		var done []added
		for _, e := range []Entry{mcp, hook} {
			if st, _ := d.Find(e); st != Absent {
				continue
			}
			created, err := d.Add(e)
			if err != nil {
				continue
			}
			done = append(done, added{e, created})
		}
		out := d.Bytes()
		d2, err := openJSON("f", out, false)
		if err != nil {
			t.Fatalf("the merged file does not parse: %v\n%s", err, out)
		}
		for _, a := range done {
			if st, _ := d2.Find(a.e); st != Same {
				t.Fatalf("%s reads back as %s:\n%s", a.e.where(), st, out)
			}
		}
		for i := len(done) - 1; i >= 0; i-- {
			if err := d2.Remove(done[i].e, done[i].created); err != nil {
				t.Fatalf("Remove(%s): %v\n%s", done[i].e.where(), err, d2.Bytes())
			}
		}
		back := d2.Bytes()
		d3, err := openJSON("f", back, false)
		if err != nil {
			t.Fatalf("the file with our entries removed does not parse: %v\n%s", err, back)
		}
		if got := decode(t, d3); !reflect.DeepEqual(got, before) {
			t.Fatalf("add then remove changed the document:\nbefore %v\nafter  %v\n%s", before, got, back)
		}
	})
}
