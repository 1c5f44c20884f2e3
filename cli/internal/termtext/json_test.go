package termtext

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestJSONKeepsTheValue(t *testing.T) {
	v := map[string]any{
		"description": "Formats code. \x1b]52;c;Y3VybA==\a\x1b[2J \u009b31m del\x7f \u202eevil",
		"name":        "fmt",
		"keywords":    []any{"a\u2028b", "plain"},
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(raw)
	for i, r := range string(out) {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidi(r) || r == 0x2028 || r == 0x2029 {
			t.Fatalf("JSON(%s) = %s holds %U at byte %d", raw, out, r, i)
		}
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("JSON(%s) = %s, not valid JSON: %v", raw, out, err)
	}
	if !reflect.DeepEqual(got, v) {
		t.Errorf("JSON(%s) decodes to %q, want %q", raw, got, v)
	}
}

func TestJSONUnchanged(t *testing.T) {
	in := []byte(`{"a":"plain ✓ text","b":[1,2]}`)
	if out := JSON(in); string(out) != string(in) {
		t.Errorf("JSON(%s) = %s, want it unchanged", in, out)
	}
}
