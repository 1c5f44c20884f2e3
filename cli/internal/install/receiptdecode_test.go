package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"runtime"
	"testing"
)

// decodeWithDecoder is decodeReceipt as it was before it tried
// json.Unmarshal first: the first JSON value of data, checked.
func decodeWithDecoder(data []byte, name string) (*receipt, error) {
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

// decodeReceipt reads every receipt as json.Decoder did — trailing data
// ignored, the same errors for what does not parse — and allocates less
// than the decoder, which copies each receipt into a buffer it grows.
func TestDecodeReceiptAsTheDecoderDid(t *testing.T) {
	rec := &receipt{SchemaVersion: receiptSchema, Name: "dec", Version: "1.0.0", Kind: "skill", Shape: "directory",
		Registry: "r", Integrity: "sha256-x", Role: "requested", Dependencies: map[string]string{"a": "1.0.0"},
		Agents: []string{"claude-code"}, InstalledAt: "2026-01-01T00:00:00Z",
		Files: []fileRecord{{Path: "SKILL.md", Digest: "sha256-y", Mode: "0644"}, {Path: "references/a.md", Digest: "sha256-z", Mode: "0644"}}}
	good := encodeReceipt(rec)
	inputs := map[string][]byte{
		"receipt":            good,
		"compact":            appendReceipt(nil, rec, false),
		"trailing garbage":   append(bytes.Clone(good), "garbage"...),
		"two values":         append(bytes.Clone(good), good...),
		"trailing spaces":    append(bytes.Clone(good), " \n\t"...),
		"torn":               good[:len(good)/2],
		"empty":              {},
		"null":               []byte("null"),
		"array":              []byte("[1]"),
		"wrong type":         []byte(`{"schemaVersion":"1","name":"dec"}`),
		"wrong type, more":   []byte(`{"schemaVersion":"1","name":"dec"} x`),
		"unknown field":      []byte(`{"schemaVersion":1,"name":"dec","other":1,"files":[{"path":"a"}]}`),
		"invalid":            []byte("{,}"),
		"duplicate fields":   []byte(`{"name":"x","name":"dec","schemaVersion":1,"files":[{"path":"a"}]}`),
		"value then invalid": append(bytes.Clone(good), "{,}"...),
		"other name":         bytes.Replace(good, []byte(`"dec"`), []byte(`"b"`), 1),
		"unsafe path":        bytes.Replace(good, []byte(`"SKILL.md"`), []byte(`"../x"`), 1),
		"no files":           bytes.Replace(good, []byte(`"files"`), []byte(`"filez"`), 1),
		"no files listed":    []byte(`{"schemaVersion":1,"name":"dec"}`),
		"not UTF-8":          append([]byte("\xff"), good...),
		"control character":  bytes.Replace(good, []byte(`"1.0.0"`), []byte("\"1.0\x01\""), 1),
	}
	for what, data := range inputs {
		want, wantErr := decodeWithDecoder(data, "dec")
		got, err := decodeReceipt(data, "dec")
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decodeReceipt = %+v, %v; the decoder gave %+v, %v", what, got, err, want, wantErr)
		}
	}
	allocated := func(decode func() error) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 200 {
			if err := decode(); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	old := allocated(func() error { _, err := decodeWithDecoder(good, "dec"); return err })
	now := allocated(func() error { _, err := decodeReceipt(good, "dec"); return err })
	if now*10 > old*7 {
		t.Errorf("decoding a receipt 200 times allocated %d bytes, the decoder %d: want under 70 %%", now, old)
	}
}

// TestDecodeReceiptFindings reads a receipt written before the content
// scan (no findings) and one with findings, which round-trip.
func TestDecodeReceiptFindings(t *testing.T) {
	old := []byte(`{"schemaVersion":1,"name":"s","version":"1.0.0","kind":"skill","shape":"directory","integrity":"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=","dependencies":null,"agents":["codex"],"files":[{"path":"SKILL.md","digest":"sha256-x","mode":"0644"}]}`)
	r, err := decodeReceipt(old, "s")
	if err != nil || r.Findings != nil {
		t.Fatalf("decodeReceipt(old) = %+v, %v; want a receipt without findings", r, err)
	}
	if got := encodeReceipt(r); bytes.Contains(got, []byte("findings")) {
		t.Errorf("encodeReceipt(old) = %s, want no findings key", got)
	}
	r.Findings = []Finding{{Rule: "hidden-tag", Severity: "critical", File: "SKILL.md", Line: 7, Fingerprint: "ab", AcceptedBy: "--allow-risk"}}
	again, err := decodeReceipt(encodeReceipt(r), "s")
	if err != nil || !reflect.DeepEqual(again.Findings, r.Findings) {
		t.Errorf("decodeReceipt(encodeReceipt(%+v)) = %+v, %v", r.Findings, again, err)
	}
	if !sameMeta(r, again) {
		t.Error("sameMeta of a receipt and its copy = false")
	}
	again.Findings[0].AcceptedBy = ""
	if sameMeta(r, again) {
		t.Error("sameMeta ignores a changed acceptance")
	}
}
