// Package sshsig signs and verifies data with SSH signatures, the format
// of "ssh-keygen -Y sign" and "ssh-keygen -Y verify" (OpenSSH's
// PROTOCOL.sshsig, the format git uses for SSH-signed commits), and reads
// the allowed_signers trust file of ssh-keygen(1).
//
// The key types and the signature primitives are golang.org/x/crypto/ssh;
// this package adds the SSHSIG envelope (magic "SSHSIG", version 1, the
// signer's public key, a namespace, a reserved field, the hash algorithm
// and a signature over the signed-data blob that binds the namespace to
// the SHA-512 of the message), its ASCII armour, and the allowed_signers
// rules: principals, the namespaces="…" restriction and the valid-after
// and valid-before window.
//
// Everything is pure: functions take bytes and a time and return values;
// no file, clock or environment is read. Inputs are untrusted and parsed
// with size limits (MaxSignatureSize, MaxAllowedSignersSize).
//
// agent-skills signs with the namespace Namespace ("agent-skills"), so a
// signature made for git commits or for another tool is never accepted
// for an index, and the other way round.
package sshsig
