// Package signing is the CLI's side of SSH signatures: it reads the
// allowed_signers file given to --trust-key and the private key given to
// --sign-key, with size limits and coded errors, and signs what publish
// writes. The format itself is registry/sshsig.
package signing

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/registry/sshsig"
	"golang.org/x/crypto/ssh"
)

// Codes this package raises; both are usage errors (exit 2), documented in
// docs/errors.md.
const (
	// CodeTrustKeyInvalid: the --trust-key file cannot be read or is not a
	// valid allowed_signers file.
	CodeTrustKeyInvalid = "ASK_TRUST_KEY_INVALID"
	// CodeSignKeyInvalid: the --sign-key file cannot be read or is not a
	// usable private key.
	CodeSignKeyInvalid = "ASK_SIGN_KEY_INVALID"
)

// PassphraseEnv names the environment variable holding the passphrase of
// an encrypted --sign-key.
const PassphraseEnv = "AGENT_SKILLS_SIGN_KEY_PASSPHRASE"

// LoadTrust reads and checks an allowed_signers file; it returns the text
// to store in the configuration and its parsed form.
func LoadTrust(path string) (string, *registry.Trust, error) {
	data, err := readCapped(path, sshsig.MaxAllowedSignersSize)
	if err != nil {
		return "", nil, &askerr.Error{Code: CodeTrustKeyInvalid, Message: "cannot read the trusted signers file " + path, Err: err,
			Try: []string{"give --trust-key an allowed_signers file (ssh-keygen(1), ALLOWED SIGNERS)"}}
	}
	text := string(data)
	t, err := registry.ParseTrust(text)
	if err == nil && t == nil {
		err = errors.New("no signer: every line is blank or a comment")
	}
	if err != nil {
		e := &askerr.Error{Code: CodeTrustKeyInvalid, Message: path + " is not a usable allowed_signers file",
			Try: []string{`write one line per key: <principal> namespaces="agent-skills" <key type> <base64 key>, e.g. from: echo "release@example.com namespaces=\"agent-skills\" $(cat key.pub)"`}}
		var pe *sshsig.ParseError
		if errors.As(err, &pe) {
			e.Detail = pe.Lines()
		} else {
			e.Err = err
		}
		return "", nil, e
	}
	return text, t, nil
}

// LoadSignKey reads the private key at path; an encrypted key is opened
// with the passphrase from getenv(PassphraseEnv).
func LoadSignKey(path string, getenv func(string) string) (ssh.Signer, error) {
	data, err := readCapped(path, sshsig.MaxPrivateKeySize)
	if err != nil {
		return nil, &askerr.Error{Code: CodeSignKeyInvalid, Message: "cannot read the signing key " + path, Err: err,
			Try: []string{"give --sign-key an OpenSSH private key, e.g. one made by ssh-keygen -t ed25519"}}
	}
	var pass []byte
	if getenv != nil {
		pass = []byte(getenv(PassphraseEnv))
	}
	s, err := sshsig.ParsePrivateKey(data, pass)
	if err != nil {
		e := &askerr.Error{Code: CodeSignKeyInvalid, Message: "cannot use " + path + " to sign", Err: err,
			Try: []string{"give --sign-key an OpenSSH private key, e.g. one made by ssh-keygen -t ed25519"}}
		if errors.Is(err, sshsig.ErrPassphraseNeeded) {
			e.Err = nil
			e.Message = path + " is protected by a passphrase"
			e.Try = []string{"set " + PassphraseEnv + " to its passphrase for this command"}
		}
		return nil, e
	}
	return s, nil
}

// SignIndex returns the detached signature of index bytes.
func SignIndex(s ssh.Signer, data []byte) ([]byte, error) {
	return sshsig.Sign(s, sshsig.Namespace, data)
}

// SignPackage returns the compact signature of a package statement, the
// form an index version's signatures list holds.
func SignPackage(s ssh.Signer, name, version, integrity string) (string, error) {
	armored, err := sshsig.Sign(s, sshsig.Namespace, registry.PackageStatement(name, version, integrity))
	if err != nil {
		return "", err
	}
	return registry.CompactSignature(armored)
}

// Describe summarises trust for messages: "2 keys (SHA256:…, SHA256:…)
// for alice@example.com, bob".
func Describe(t *registry.Trust) string {
	if t == nil {
		return "no trusted signers"
	}
	fps := t.Fingerprints()
	n := fmt.Sprintf("%d key", len(fps))
	if len(fps) != 1 {
		n += "s"
	}
	return fmt.Sprintf("%s (%s) for %s", n, strings.Join(fps, ", "), strings.Join(t.Principals(), ", "))
}

func readCapped(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}
