package registry

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/registry/sshsig"
)

// The codes of signature failures, documented in docs/errors.md; both
// are integrity failures (exit 5).
const (
	// CodeSignatureMissing reports that a registry with trusted signers
	// serves an index or a package version without a signature.
	CodeSignatureMissing = "ASK_SIGNATURE_MISSING"
	// CodeSignatureInvalid reports a signature that is malformed, made
	// for another namespace, does not match the data, or was made by a
	// key the registry's trusted signers do not admit.
	CodeSignatureInvalid = "ASK_SIGNATURE_INVALID"
)

// SignatureSuffix is appended to an index's file name or URL to find its
// detached signature: registry/skills.yaml.sig, index.json.sig.
const SignatureSuffix = ".sig"

// MaxVersionSignatures caps the signatures of one index version.
const MaxVersionSignatures = 8

// PackageStatement returns the bytes a package signature covers: the
// canonical JSON {"integrity":…,"name":…,"version":…} (keys sorted, no
// spaces, no trailing newline), so the signature binds the name and the
// version to the canonical digest of the package's files.
func PackageStatement(name, version, integrity string) []byte {
	b, _ := json.Marshal(struct {
		Integrity string `json:"integrity"`
		Name      string `json:"name"`
		Version   string `json:"version"`
	}{integrity, name, version})
	return b
}

// CompactSignature turns an armoured SSH signature into the one-line form
// an index version's signatures list holds: the base64 of the SSHSIG blob,
// the armour's body without its line breaks.
func CompactSignature(armored []byte) (string, error) {
	sig, err := sshsig.Parse(armored)
	if err != nil {
		return "", err
	}
	_ = sig
	text := strings.ReplaceAll(strings.TrimSpace(string(armored)), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	return strings.Join(lines[1:len(lines)-1], ""), nil
}

// ExpandSignature turns a compact signature back into its armour.
func ExpandSignature(compact string) []byte {
	var b strings.Builder
	b.WriteString("-----BEGIN SSH SIGNATURE-----\n")
	for len(compact) > 70 {
		b.WriteString(compact[:70] + "\n")
		compact = compact[70:]
	}
	b.WriteString(compact + "\n-----END SSH SIGNATURE-----\n")
	return []byte(b.String())
}

// checkCompactSignature says why s is not a compact signature, or "".
func checkCompactSignature(s string) string {
	if len(s) > sshsig.MaxSignatureSize {
		return fmt.Sprintf("signature longer than %d bytes", sshsig.MaxSignatureSize)
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil || s == "" {
		return "not a base64 SSH signature"
	}
	return ""
}

// Trust is a registry's parsed trusted signers.
type Trust struct {
	// Signers are the allowed_signers lines.
	Signers []sshsig.AllowedSigner
}

// ParseTrust parses allowed_signers text; empty text means no trust
// (nil, nil).
func ParseTrust(text string) (*Trust, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	a, err := sshsig.ParseAllowedSigners([]byte(text))
	if err != nil {
		return nil, err
	}
	return &Trust{Signers: a}, nil
}

// Principals returns the principals of every line, in order, without
// repeats.
func (t *Trust) Principals() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t.Signers {
		for _, p := range s.Principals {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Fingerprints returns the distinct key fingerprints, in order.
func (t *Trust) Fingerprints() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t.Signers {
		if fp := s.Fingerprint(); !seen[fp] {
			seen[fp] = true
			out = append(out, fp)
		}
	}
	return out
}

// VerifyIndex checks sig, the detached signature of the index bytes data
// of registry reg (where names them in messages); a nil sig is missing.
func (t *Trust) VerifyIndex(reg, where string, data, sig []byte, now time.Time) (sshsig.Signer, error) {
	if sig == nil {
		return sshsig.Signer{}, &Error{
			Code:    CodeSignatureMissing,
			Message: fmt.Sprintf("registry %q has trusted signers but its index %s has no signature", reg, where),
			Detail:  []string{"expected a detached SSH signature at " + where + SignatureSuffix},
			Try: []string{
				"ask the registry's maintainers to publish with --sign-key",
				"agent-skills doctor",
			},
		}
	}
	who, err := sshsig.Verify(sig, data, sshsig.Namespace, t.Signers, now)
	if err != nil {
		return who, &Error{
			Code:    CodeSignatureInvalid,
			Message: fmt.Sprintf("registry %q: the signature of its index %s does not verify", reg, where),
			Detail:  []string{"The index was not used."},
			Try: []string{
				"do not use this registry until its maintainers re-sign the index",
				"if the signing key was rotated: agent-skills registry trust " + reg + " --trust-key <allowed_signers>",
			},
			Err: err,
		}
	}
	return who, nil
}

// VerifyPackage checks the signatures of v, name's version, against the
// package statement: one signature by an admitted key is enough.
func (t *Trust) VerifyPackage(reg, name string, v *Version, now time.Time) (sshsig.Signer, error) {
	id := name + "@" + v.Version
	if len(v.Signatures) == 0 {
		return sshsig.Signer{}, &Error{
			Code:    CodeSignatureMissing,
			Message: fmt.Sprintf("%s in registry %q is not signed, and the registry has trusted signers", id, reg),
			Detail:  []string{"Nothing was installed."},
			Try:     []string{"ask the skill's maintainers to publish it with --sign-key"},
		}
	}
	stmt := PackageStatement(name, v.Version, v.Integrity)
	var errs []string
	for _, c := range v.Signatures {
		who, err := sshsig.Verify(ExpandSignature(c), stmt, sshsig.Namespace, t.Signers, now)
		if err == nil {
			return who, nil
		}
		errs = append(errs, err.Error())
	}
	return sshsig.Signer{}, &Error{
		Code:    CodeSignatureInvalid,
		Message: fmt.Sprintf("no signature of %s in registry %q verifies", id, reg),
		Detail:  append(errs[1:], "Nothing was installed."),
		Try:     []string{"do not install this package", "report it to the registry's maintainers"},
		Err:     errors.New(errs[0]),
	}
}
