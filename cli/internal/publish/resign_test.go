package publish

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// TestResignFlowIndex re-signs a hand-written index whose versions are
// flow mappings and which has comments: every version gets exactly the
// new signature, comments stay, the result decodes to the same index
// plus signatures, and the index signature covers the bytes written.
func TestResignFlowIndex(t *testing.T) {
	root, src := t.TempDir(), t.TempDir()
	pkgDir := writePkg(t, src, pkgSpec{name: "alpha", version: "1.0.0", body: "First."})
	_, _ = publishTo(t, root, pkgDir)
	idx := readIndex(t, root)
	integrity := idx.Skills[0].Versions[0].Integrity
	index := "# hand-written\nschemaVersion: 1\nskills:\n  - name: alpha   # the first\n    versions:\n      - {version: 1.0.0, path: skills/alpha, integrity: " + integrity + ", signatures: [T0xE]}\n"
	writeFile(t, filepath.Join(root, IndexFile), index)

	var signedIndex []byte
	res, err := FolderTarget{Root: root}.Resign(context.Background(), registry.Options{CacheDir: t.TempDir()},
		func(name, version, integ string) (string, error) {
			return base64.StdEncoding.EncodeToString([]byte(name + "@" + version)), nil
		},
		func(b []byte) ([]byte, error) { signedIndex = b; return []byte("SIG"), nil })
	if err != nil {
		t.Fatalf("Resign = %v", err)
	}
	if strings.Join(res.Versions, ",") != "alpha@1.0.0" {
		t.Errorf("Resign versions = %v", res.Versions)
	}
	got, err := os.ReadFile(filepath.Join(root, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(signedIndex) {
		t.Errorf("the index signed is not the index written:\n%s\nvs\n%s", signedIndex, got)
	}
	for _, want := range []string{"# hand-written", "# the first", "YWxwaGFAMS4wLjA="} {
		if !strings.Contains(string(got), want) {
			t.Errorf("re-signed index lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "T0xE") {
		t.Errorf("the old signature is still there:\n%s", got)
	}
	v := readIndex(t, root).Skills[0].Versions[0]
	if len(v.Signatures) != 1 || v.Signatures[0] != "YWxwaGFAMS4wLjA=" {
		t.Errorf("signatures = %v", v.Signatures)
	}
	if sig, _ := os.ReadFile(res.Signature); string(sig) != "SIG" {
		t.Errorf("signature file = %q", sig)
	}

	// A changed payload is refused and nothing is written.
	writeFile(t, filepath.Join(root, "skills", "alpha", "SKILL.md"), "changed\n")
	before, _ := os.ReadFile(filepath.Join(root, IndexFile))
	_, err = FolderTarget{Root: root}.Resign(context.Background(), registry.Options{CacheDir: t.TempDir()},
		func(name, version, integ string) (string, error) { return "U1NIU0lH", nil },
		func(b []byte) ([]byte, error) { return []byte("NEW"), nil })
	if err == nil {
		t.Fatal("Resign over a changed payload = nil error")
	}
	after, _ := os.ReadFile(filepath.Join(root, IndexFile))
	if string(after) != string(before) {
		t.Error("Resign changed the index despite the failure")
	}
	if sig, _ := os.ReadFile(res.Signature); string(sig) != "SIG" {
		t.Errorf("signature file after the failure = %q", sig)
	}
}
