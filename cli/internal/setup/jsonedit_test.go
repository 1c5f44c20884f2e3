package setup

import (
	"encoding/json"
	"testing"
)

func TestAddRemoveKeepsBytes(t *testing.T) {
	tests := []struct {
		name, in string
		kind     Kind
		path     []string
		want     string
	}{
		{"member into commented object", "{\n  // mine\n  \"theme\": \"dark\" // trailing\n}\n", Member, []string{"mcpServers", "agent-skills"},
			"{\n  // mine\n  \"theme\": \"dark\", // trailing\n  \"mcpServers\": {\n    \"agent-skills\": {\n      \"a\": 1\n    }\n  }\n}\n"},
		{"member into existing", "{\n    \"mcpServers\": {\n        \"x\": {}\n    }\n}", Member, []string{"mcpServers", "agent-skills"},
			"{\n    \"mcpServers\": {\n        \"x\": {},\n        \"agent-skills\": {\n            \"a\": 1\n        }\n    }\n}"},
		{"empty file", "", Member, []string{"mcp", "agent-skills"},
			"{\n  \"mcp\": {\n    \"agent-skills\": {\n      \"a\": 1\n    }\n  }\n}\n"},
		{"element appended", "{\"hooks\": {\"SessionStart\": [\n  {\"b\": 2}\n]}}", Element, []string{"hooks", "SessionStart"},
			"{\"hooks\": {\"SessionStart\": [\n  {\"b\": 2},\n  {\n    \"a\": 1\n  }\n]}}"},
		{"trailing comma kept", "{\n  \"x\": 1,\n}", Member, []string{"y"}, "{\n  \"x\": 1,\n  \"y\": {\n    \"a\": 1\n  },\n}"},
		{"compact", `{"x":1}`, Member, []string{"y"}, `{"x":1, "y":{"a":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := openJSON("f", []byte(tt.in), false)
			if err != nil {
				t.Fatal(err)
			}
			e := Entry{Kind: tt.kind, Path: tt.path, Value: json.RawMessage(`{"a":1}`)}
			created, err := d.Add(e)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != tt.want {
				t.Errorf("Add = %q, want %q", got, tt.want)
			}
			if st, _ := d.Find(e); st != Same {
				t.Errorf("Find after Add = %s", st)
			}
			if err := d.Remove(e, created); err != nil {
				t.Fatal(err)
			}
			in := tt.in
			if in == "" {
				in = "{}\n"
			}
			if got := string(d.Bytes()); got != in {
				t.Errorf("Remove = %q, want %q", got, in)
			}
		})
	}
}
