package sshsig

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/ssh"
)

// ErrPassphraseNeeded: the private key is encrypted and no passphrase was
// given.
var ErrPassphraseNeeded = errors.New("the private key is protected by a passphrase")

// MaxPrivateKeySize bounds a private key file.
const MaxPrivateKeySize = 64 << 10

// ParsePrivateKey reads an OpenSSH (or PEM) private key for signing. An
// encrypted key needs passphrase; without one the error wraps
// ErrPassphraseNeeded. A public key, a certificate or an RSA key under
// 2048 bits is refused.
func ParsePrivateKey(pemBytes, passphrase []byte) (ssh.Signer, error) {
	if len(pemBytes) > MaxPrivateKeySize {
		return nil, fmt.Errorf("private key file is %d bytes, over the %d-byte limit", len(pemBytes), MaxPrivateKeySize)
	}
	var s ssh.Signer
	var err error
	if len(passphrase) > 0 {
		s, err = ssh.ParsePrivateKeyWithPassphrase(pemBytes, passphrase)
	} else {
		s, err = ssh.ParsePrivateKey(pemBytes)
	}
	if err != nil {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, ErrPassphraseNeeded
		}
		if errors.Is(err, ssh.ErrNoAuth) {
			return nil, err
		}
		if _, _, _, _, perr := ssh.ParseAuthorizedKey(pemBytes); perr == nil {
			return nil, errors.New("this is a public key; give the private key (the file without .pub)")
		}
		return nil, fmt.Errorf("cannot read the private key: %v", err)
	}
	if err := checkKey(s.PublicKey()); err != nil {
		return nil, err
	}
	return s, nil
}
