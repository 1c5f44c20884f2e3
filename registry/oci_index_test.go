package registry

import (
	"strings"
	"testing"
)

const ociDigestA = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestIndexManifestField(t *testing.T) {
	sum := "sha256-" + strings.Repeat("A", 43) + "="
	doc := `{"schemaVersion":1,"skills":[{"name":"alpha","versions":[{"version":"1.0.0","manifest":"` + ociDigestA + `","integrity":"` + sum + `"}]}]}`
	idx, err := DecodeIndex([]byte(doc), "index.json")
	if err != nil {
		t.Fatal(errText(err))
	}
	s, _ := idx.Skill("alpha")
	if s.Versions[0].Manifest != ociDigestA || s.Latest != "1.0.0" {
		t.Fatalf("decoded %+v", s.Versions[0])
	}
	// The decoded-index cache keeps the field.
	back, err := unmarshalIndex(string(marshalIndex(idx)))
	if err != nil {
		t.Fatal(err)
	}
	if bs, _ := back.Skill("alpha"); bs.Versions[0].Manifest != ociDigestA {
		t.Fatalf("cache round trip lost the manifest: %+v", bs.Versions[0])
	}
	// JSON and YAML encodings carry it, and read back.
	for _, enc := range [][]byte{idx.EncodeJSON(), idx.EncodeYAML()} {
		again, err := DecodeIndex(enc, map[bool]string{true: "index.json", false: "skills.yaml"}[enc[0] == '{'])
		if err != nil {
			t.Fatal(errText(err))
		}
		if as, _ := again.Skill("alpha"); as.Versions[0].Manifest != ociDigestA {
			t.Fatalf("re-encoded index lost the manifest:\n%s", enc)
		}
	}
	for _, bad := range []string{
		`"manifest":"sha256:abc"`,
		`"manifest":"md5:` + strings.Repeat("0", 64) + `"`,
		`"manifest":"` + ociDigestA + `","path":"skills/alpha"`,
		`"manifest":"SHA256:` + strings.Repeat("0", 64) + `"`,
	} {
		doc := `{"skills":[{"name":"alpha","versions":[{"version":"1.0.0",` + bad + `,"integrity":"` + sum + `"}]}]}`
		if _, err := DecodeIndex([]byte(doc), "index.json"); codeOf(err) != CodeRegistryInvalidIndex {
			t.Errorf("%s: %v, want %s", bad, err, CodeRegistryInvalidIndex)
		}
	}
}

func TestMergeVersion(t *testing.T) {
	sum := "sha256-" + strings.Repeat("A", 43) + "="
	idx := &Index{SchemaVersion: 1}
	s := &Skill{Name: "alpha", Description: "A.", Keywords: []string{"k"}}
	if err := MergeVersion(idx, s, &Version{Version: "1.0.0", Manifest: ociDigestA, Integrity: sum}); err != nil {
		t.Fatal(err)
	}
	other := "sha256:" + strings.Repeat("f", 64)
	if err := MergeVersion(idx, s, &Version{Version: "1.1.0", Manifest: other, Integrity: sum}); err != nil {
		t.Fatal(err)
	}
	// The same version again with the same manifest is a no-op; with
	// another, refused.
	if err := MergeVersion(idx, s, &Version{Version: "1.0.0", Manifest: ociDigestA, Integrity: sum}); err != nil {
		t.Fatal(err)
	}
	if err := MergeVersion(idx, s, &Version{Version: "1.0.0", Manifest: other, Integrity: sum}); codeOf(err) != codePublishVersionExists {
		t.Fatalf("conflicting version: %v", err)
	}
	got, _ := idx.Skill("alpha")
	if len(got.Versions) != 2 || got.Latest != "1.1.0" || !HasVersion(idx, "alpha", "1.1.0", other) || HasVersion(idx, "alpha", "1.1.0", ociDigestA) {
		t.Fatalf("merged %+v", got)
	}
	if _, err := DecodeIndex(idx.EncodeJSON(), "index.json"); err != nil {
		t.Fatal(errText(err))
	}
}
