package sshsig

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Namespace is the SSHSIG namespace of every agent-skills signature.
const Namespace = "agent-skills"

// MaxSignatureSize bounds an armoured signature accepted by Verify and
// Parse. An RSA-16384 signature, the largest ssh-keygen makes, is under
// 8 KiB armoured.
const MaxSignatureSize = 16 << 10

const (
	magic       = "SSHSIG"
	sigVersion  = 1
	armorBegin  = "-----BEGIN SSH SIGNATURE-----"
	armorEnd    = "-----END SSH SIGNATURE-----"
	armorColumn = 70
	// minRSABits is the smallest RSA modulus signed with or accepted.
	minRSABits = 2048
)

// The errors Verify wraps, to be told apart with errors.Is.
var (
	// ErrMalformed: the armour or the SSHSIG blob cannot be parsed.
	ErrMalformed = errors.New("malformed SSH signature")
	// ErrNamespace: the signature was made for another namespace.
	ErrNamespace = errors.New("signature namespace mismatch")
	// ErrBadSignature: the signature does not match the data.
	ErrBadSignature = errors.New("signature does not match the data")
	// ErrNotAllowed: the signing key is not an allowed signer for the
	// namespace at the time of verification.
	ErrNotAllowed = errors.New("signing key is not an allowed signer")
)

// Signature is a parsed SSHSIG blob.
type Signature struct {
	// PublicKey is the key that made the signature.
	PublicKey ssh.PublicKey
	// Namespace is the namespace the signature was made for.
	Namespace string
	// HashAlgorithm is "sha512" or "sha256".
	HashAlgorithm string
	// Signature is the signature over the signed-data blob.
	Signature *ssh.Signature
}

// Signer says who made a verified signature.
type Signer struct {
	// Principals are the principals of every allowed_signers line that
	// admitted the key, in file order, without repeats.
	Principals []string `json:"principals"`
	// Fingerprint is the key's SHA256 fingerprint ("SHA256:…").
	Fingerprint string `json:"fingerprint"`
	// KeyType is the key's SSH type, e.g. "ssh-ed25519".
	KeyType string `json:"keyType"`
}

// Sign returns the armoured SSH signature of data by signer for
// namespace, byte for byte what "ssh-keygen -Y sign -n namespace" writes
// for the same key (ed25519 signatures are deterministic, so equal;
// ECDSA and RSA ones differ only in their random part). RSA keys sign
// with rsa-sha2-512, as ssh-keygen does; an RSA key under 2048 bits is
// refused.
func Sign(signer ssh.Signer, namespace string, data []byte) ([]byte, error) {
	if signer == nil {
		return nil, errors.New("sshsig: no signer")
	}
	if namespace == "" {
		return nil, errors.New("sshsig: empty namespace")
	}
	pub := signer.PublicKey()
	if err := checkKey(pub); err != nil {
		return nil, err
	}
	h := sha512.Sum512(data)
	msg := signedData(namespace, "sha512", h[:])
	var sig *ssh.Signature
	var err error
	if pub.Type() == ssh.KeyAlgoRSA {
		as, ok := signer.(ssh.AlgorithmSigner)
		if !ok {
			return nil, errors.New("sshsig: the RSA signer cannot sign with rsa-sha2-512")
		}
		sig, err = as.SignWithAlgorithm(rand.Reader, msg, ssh.KeyAlgoRSASHA512)
	} else {
		sig, err = signer.Sign(rand.Reader, msg)
	}
	if err != nil {
		return nil, fmt.Errorf("sshsig: sign: %w", err)
	}
	var blob bytes.Buffer
	blob.WriteString(magic)
	_ = binary.Write(&blob, binary.BigEndian, uint32(sigVersion))
	writeString(&blob, pub.Marshal())
	writeString(&blob, []byte(namespace))
	writeString(&blob, nil)
	writeString(&blob, []byte("sha512"))
	writeString(&blob, ssh.Marshal(sig))
	return armor(blob.Bytes()), nil
}

// Parse decodes an armoured SSH signature (at most MaxSignatureSize
// bytes) into its fields without verifying anything; errors wrap
// ErrMalformed.
func Parse(armored []byte) (*Signature, error) {
	if len(armored) > MaxSignatureSize {
		return nil, fmt.Errorf("%w: %d bytes, over the %d-byte limit", ErrMalformed, len(armored), MaxSignatureSize)
	}
	blob, err := dearmor(armored)
	if err != nil {
		return nil, err
	}
	return parseBlob(blob)
}

// Verify checks that armored is a valid SSH signature of data for
// namespace by a key that allowed admits for that namespace at now, and
// returns who signed. Its errors wrap ErrMalformed, ErrNamespace,
// ErrBadSignature or ErrNotAllowed, and name the signing key's
// fingerprint when it is known.
func Verify(armored, data []byte, namespace string, allowed []AllowedSigner, now time.Time) (Signer, error) {
	sig, err := Parse(armored)
	if err != nil {
		return Signer{}, err
	}
	fp := ssh.FingerprintSHA256(sig.PublicKey)
	if sig.Namespace != namespace {
		return Signer{}, fmt.Errorf("%w: made for %q, want %q", ErrNamespace, sig.Namespace, namespace)
	}
	var h []byte
	switch sig.HashAlgorithm {
	case "sha512":
		s := sha512.Sum512(data)
		h = s[:]
	case "sha256":
		s := sha256.Sum256(data)
		h = s[:]
	}
	if err := checkKey(sig.PublicKey); err != nil {
		return Signer{}, fmt.Errorf("%w: key %s: %v", ErrNotAllowed, fp, err)
	}
	if sig.Signature.Format == ssh.KeyAlgoRSA {
		return Signer{}, fmt.Errorf("%w: key %s signed with SHA-1 (ssh-rsa); sign with rsa-sha2-512", ErrBadSignature, fp)
	}
	if err := sig.PublicKey.Verify(signedData(sig.Namespace, sig.HashAlgorithm, h), sig.Signature); err != nil {
		return Signer{}, fmt.Errorf("%w (key %s)", ErrBadSignature, fp)
	}
	who := Signer{Fingerprint: fp, KeyType: sig.PublicKey.Type()}
	keyBytes := sig.PublicKey.Marshal()
	var refused []string
	for _, a := range allowed {
		if a.Key == nil || !bytes.Equal(a.Key.Marshal(), keyBytes) {
			continue
		}
		if reason := a.refuses(namespace, now); reason != "" {
			refused = append(refused, fmt.Sprintf("line %d: %s", a.Line, reason))
			continue
		}
		for _, p := range a.Principals {
			if !contains(who.Principals, p) {
				who.Principals = append(who.Principals, p)
			}
		}
	}
	if len(who.Principals) == 0 {
		if len(refused) > 0 {
			return Signer{}, fmt.Errorf("%w: key %s is listed but %s", ErrNotAllowed, fp, strings.Join(refused, "; "))
		}
		return Signer{}, fmt.Errorf("%w: key %s is not listed", ErrNotAllowed, fp)
	}
	return who, nil
}

// checkKey refuses key types that must not sign: certificates (no
// cert-authority support) and RSA under minRSABits.
func checkKey(pub ssh.PublicKey) error {
	if _, ok := pub.(*ssh.Certificate); ok {
		return errors.New("SSH certificates are not supported; sign with a plain key")
	}
	if ck, ok := pub.(ssh.CryptoPublicKey); ok {
		if rk, ok := ck.CryptoPublicKey().(interface{ Size() int }); ok && pub.Type() == ssh.KeyAlgoRSA {
			if bits := rk.Size() * 8; bits < minRSABits {
				return fmt.Errorf("RSA key of %d bits, under the %d-bit minimum", bits, minRSABits)
			}
		}
	}
	return nil
}

// signedData is the blob the inner signature covers (PROTOCOL.sshsig).
func signedData(namespace, hashAlg string, hash []byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	writeString(&b, []byte(namespace))
	writeString(&b, nil)
	writeString(&b, []byte(hashAlg))
	writeString(&b, hash)
	return b.Bytes()
}

func writeString(b *bytes.Buffer, s []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(s)))
	b.Write(s)
}

// armor wraps blob as ssh-keygen does: base64 in lines of 70 columns.
func armor(blob []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(blob)
	var b bytes.Buffer
	b.WriteString(armorBegin + "\n")
	for len(enc) > armorColumn {
		b.WriteString(enc[:armorColumn] + "\n")
		enc = enc[armorColumn:]
	}
	b.WriteString(enc + "\n")
	b.WriteString(armorEnd + "\n")
	return b.Bytes()
}

// dearmor undoes armor; line endings may be LF or CRLF, and blank lines
// may surround the block, nothing else.
func dearmor(armored []byte) ([]byte, error) {
	text := strings.ReplaceAll(string(armored), "\r\n", "\n")
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, armorBegin+"\n") {
		return nil, fmt.Errorf("%w: no %q line", ErrMalformed, armorBegin)
	}
	if !strings.HasSuffix(text, "\n"+armorEnd) || len(text) < len(armorBegin)+len(armorEnd)+2 {
		return nil, fmt.Errorf("%w: no %q line", ErrMalformed, armorEnd)
	}
	body := text[len(armorBegin)+1 : len(text)-len(armorEnd)-1]
	var enc strings.Builder
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimRight(line, " \t")
		if strings.HasPrefix(line, "-----") {
			return nil, fmt.Errorf("%w: unexpected armour line %q", ErrMalformed, line)
		}
		enc.WriteString(line)
	}
	blob, err := base64.StdEncoding.DecodeString(enc.String())
	if err != nil {
		return nil, fmt.Errorf("%w: base64: %v", ErrMalformed, err)
	}
	return blob, nil
}

// parseBlob reads the SSHSIG structure, refusing unknown versions, a
// non-empty reserved field, unknown hash algorithms and trailing bytes.
func parseBlob(blob []byte) (*Signature, error) {
	if !bytes.HasPrefix(blob, []byte(magic)) {
		return nil, fmt.Errorf("%w: no SSHSIG preamble", ErrMalformed)
	}
	r := reader{b: blob[len(magic):]}
	version := r.uint32()
	pub := r.string()
	ns := r.string()
	reserved := r.string()
	hashAlg := r.string()
	sigBytes := r.string()
	if r.bad {
		return nil, fmt.Errorf("%w: truncated", ErrMalformed)
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrMalformed, len(r.b))
	}
	if version != sigVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrMalformed, version, sigVersion)
	}
	if len(reserved) != 0 {
		return nil, fmt.Errorf("%w: reserved field is not empty", ErrMalformed)
	}
	if h := string(hashAlg); h != "sha512" && h != "sha256" {
		return nil, fmt.Errorf("%w: unsupported hash algorithm %q", ErrMalformed, hashAlg)
	}
	key, err := ssh.ParsePublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("%w: public key: %v", ErrMalformed, err)
	}
	var sig ssh.Signature
	if err := ssh.Unmarshal(sigBytes, &sig); err != nil {
		return nil, fmt.Errorf("%w: signature: %v", ErrMalformed, err)
	}
	return &Signature{PublicKey: key, Namespace: string(ns), HashAlgorithm: string(hashAlg), Signature: &sig}, nil
}

// reader reads SSH wire encoding; any short read sets bad.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uint32() uint32 {
	if r.bad || len(r.b) < 4 {
		r.bad = true
		return 0
	}
	v := binary.BigEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) string() []byte {
	n := r.uint32()
	if r.bad || uint64(n) > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
