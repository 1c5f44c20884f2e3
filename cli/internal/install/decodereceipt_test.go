package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// decodeReceipt reads every receipt, well formed or not, as the Decoder
// it used for all of them did: the same receipt, or the same error.
func TestDecodeReceiptAsTheDecoder(t *testing.T) {
	old := func(data []byte, name string) (*receipt, error) {
		var r receipt
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&r); err != nil {
			return nil, err
		}
		switch {
		case r.SchemaVersion != receiptSchema:
			return nil, fmt.Errorf("unsupported receipt schemaVersion %d", r.SchemaVersion)
		case r.Name != name:
			return nil, fmt.Errorf("receipt names %q, not %q", r.Name, name)
		case len(r.Files) == 0:
			return nil, errors.New("receipt lists no files")
		}
		for _, f := range r.Files {
			if !fs.ValidPath(f.Path) || f.Path == "." {
				return nil, fmt.Errorf("receipt lists an unsafe path %q", f.Path)
			}
		}
		return &r, nil
	}
	good := encodeReceipt(&receipt{SchemaVersion: receiptSchema, Name: "a", Version: "1.0.0", Kind: "skill", Shape: "directory",
		Agents: []string{"claude-code"}, Dependencies: map[string]string{"b": "1.0.0"}, Files: []fileRecord{{Path: "SKILL.md", Digest: "sha256-x", Mode: "0644"}}})
	g := string(good)
	for _, data := range []string{
		g, g + "\n", "  \n" + g, g + "trailing", g + "{}", g + `{"name":"b"}`,
		strings.Replace(g, `"a"`, `"b"`, 1), strings.Replace(g, `"schemaVersion": 1`, `"schemaVersion": "1"`, 1),
		strings.Replace(g, `"SKILL.md"`, `"../x"`, 1), strings.Replace(g, `"files"`, `"filez"`, 1),
		"", "{", "null", "[]", `{"name":"a"}`, g[:len(g)/2], "\xff" + g, strings.Replace(g, `"1.0.0"`, "\"1.0\x01\"", 1),
	} {
		want, werr := old([]byte(data), "a")
		got, gerr := decodeReceipt([]byte(data), "a")
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeReceipt(%.40q) = %+v, %v; the Decoder read %+v, %v", data, got, gerr, want, werr)
		}
	}
}
