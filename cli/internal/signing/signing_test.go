package signing

import (
	"bytes"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/registry/sshsig"
	"golang.org/x/crypto/ssh"
)

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func codeOf(err error) string {
	var e *askerr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestLoadSignKeyAndSign(t *testing.T) {
	dir := t.TempDir()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	block, err := ssh.MarshalPrivateKey(priv, "test")
	if err != nil {
		t.Fatal(err)
	}
	plain := write(t, dir, "plain", pem.EncodeToMemory(block))
	block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte("pw"))
	if err != nil {
		t.Fatal(err)
	}
	locked := write(t, dir, "locked", pem.EncodeToMemory(block))
	signer, err := LoadSignKey(plain, nil)
	if err != nil {
		t.Fatalf("LoadSignKey(plain) = %v", err)
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == PassphraseEnv {
				return v
			}
			return ""
		}
	}
	if _, err := LoadSignKey(locked, env("")); codeOf(err) != CodeSignKeyInvalid || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("LoadSignKey(locked, no passphrase) = %v", err)
	}
	if _, err := LoadSignKey(locked, env("pw")); err != nil {
		t.Errorf("LoadSignKey(locked, passphrase) = %v", err)
	}
	if _, err := LoadSignKey(filepath.Join(dir, "missing"), nil); codeOf(err) != CodeSignKeyInvalid {
		t.Errorf("LoadSignKey(missing) = %v", err)
	}

	// What it signs verifies against a trust file naming its key.
	allowed := write(t, dir, "allowed", []byte("# keys\nrel@example.com namespaces=\"agent-skills\" "+string(ssh.MarshalAuthorizedKey(signer.PublicKey()))))
	text, trust, err := LoadTrust(allowed)
	if err != nil || !strings.Contains(text, "rel@example.com") {
		t.Fatalf("LoadTrust = %q, %v", text, err)
	}
	if got := Describe(trust); !strings.HasPrefix(got, "1 key (SHA256:") || !strings.HasSuffix(got, ") for rel@example.com") {
		t.Errorf("Describe = %q", got)
	}
	sig, err := SignIndex(signer, []byte("index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trust.VerifyIndex("team", "index", []byte("index"), sig, nowUTC()); err != nil {
		t.Errorf("VerifyIndex(SignIndex) = %v", err)
	}
	c, err := SignPackage(signer, "alpha", "1.0.0", "sha256-x")
	if err != nil {
		t.Fatal(err)
	}
	v := &registry.Version{Version: "1.0.0", Integrity: "sha256-x", Signatures: []string{c}}
	if _, err := trust.VerifyPackage("team", "alpha", v, nowUTC()); err != nil {
		t.Errorf("VerifyPackage(SignPackage) = %v", err)
	}
	if _, err := trust.VerifyPackage("team", "beta", v, nowUTC()); codeOf2(err) != registry.CodeSignatureInvalid {
		t.Errorf("VerifyPackage(other name) = %v", err)
	}
}

func codeOf2(err error) string {
	var e *registry.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestLoadTrustRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"empty":    "# nothing\n\n",
		"pubkey":   "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x@y\n",
		"certauth": "ops cert-authority ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
		"big":      strings.Repeat("#", sshsig.MaxAllowedSignersSize+1),
	} {
		if _, _, err := LoadTrust(write(t, dir, name, []byte(content))); codeOf(err) != CodeTrustKeyInvalid {
			t.Errorf("LoadTrust(%s) = %v, want %s", name, err, CodeTrustKeyInvalid)
		}
	}
}

func nowUTC() time.Time { return time.Now().UTC() }
