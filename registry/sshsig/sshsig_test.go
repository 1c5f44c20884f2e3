package sshsig

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// testKey makes an ed25519 signer from a fixed seed.
func testKey(t testing.TB, seed byte) ssh.Signer {
	t.Helper()
	s, err := ssh.NewSignerFromKey(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func allowedLine(principal string, s ssh.Signer, opts string) string {
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
	if opts != "" {
		return principal + " " + opts + " " + key + "\n"
	}
	return principal + " " + key + "\n"
}

func mustAllowed(t testing.TB, text string) []AllowedSigner {
	t.Helper()
	a, err := ParseAllowedSigners([]byte(text))
	if err != nil {
		t.Fatalf("ParseAllowedSigners: %v", err)
	}
	return a
}

func TestSignVerify(t *testing.T) {
	k1, k2 := testKey(t, 1), testKey(t, 2)
	data := []byte("index bytes\n")
	sig, err := Sign(k1, Namespace, data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(sig, []byte(armorBegin+"\n")) || !bytes.HasSuffix(sig, []byte(armorEnd+"\n")) {
		t.Fatalf("Sign armour = %q", sig)
	}
	allowed := mustAllowed(t, "# team\n\n"+allowedLine("alice@example.com", k1, `namespaces="agent-skills"`)+allowedLine("bob", k2, ""))
	who, err := Verify(sig, data, Namespace, allowed, now)
	if err != nil {
		t.Fatalf("Verify = %v", err)
	}
	if got := strings.Join(who.Principals, ","); got != "alice@example.com" || who.Fingerprint != ssh.FingerprintSHA256(k1.PublicKey()) || who.KeyType != "ssh-ed25519" {
		t.Fatalf("Verify signer = %+v", who)
	}

	cases := []struct {
		name    string
		sig     []byte
		data    []byte
		ns      string
		allowed []AllowedSigner
		at      time.Time
		want    error
	}{
		{"tampered data", sig, []byte("index bytes!\n"), Namespace, allowed, now, ErrBadSignature},
		{"other namespace", sig, data, "git", allowed, now, ErrNamespace},
		{"key not listed", sig, data, Namespace, mustAllowed(t, allowedLine("bob", k2, "")), now, ErrNotAllowed},
		{"namespace not allowed", sig, data, Namespace, mustAllowed(t, allowedLine("alice", k1, `namespaces="git,file"`)), now, ErrNotAllowed},
		{"negated namespace", sig, data, Namespace, mustAllowed(t, allowedLine("alice", k1, `namespaces="*,!agent-*"`)), now, ErrNotAllowed},
		{"expired", sig, data, Namespace, mustAllowed(t, allowedLine("alice", k1, `valid-before="20260101Z"`)), now, ErrNotAllowed},
		{"not yet valid", sig, data, Namespace, mustAllowed(t, allowedLine("alice", k1, `valid-after="20270101Z"`)), now, ErrNotAllowed},
		{"garbage", []byte("not a signature"), data, Namespace, allowed, now, ErrMalformed},
		{"truncated", append(append([]byte(armorBegin+"\n"), sig[len(armorBegin)+1:60]...), []byte("\n"+armorEnd+"\n")...), data, Namespace, allowed, now, ErrMalformed},
		{"too large", bytes.Repeat([]byte("a"), MaxSignatureSize+1), data, Namespace, allowed, now, ErrMalformed},
	}
	for _, c := range cases {
		_, err := Verify(c.sig, c.data, c.ns, c.allowed, c.at)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Verify = %v, want %v", c.name, err, c.want)
		}
	}
	// Within the window, with a wildcard namespace list, it verifies.
	win := mustAllowed(t, allowedLine("alice", k1, `namespaces="agent-*",valid-after="20260101",valid-before="20270101Z"`))
	if _, err := Verify(sig, data, Namespace, win, now); err != nil {
		t.Errorf("Verify within the window = %v", err)
	}
	// CRLF armour verifies too.
	crlf := bytes.ReplaceAll(sig, []byte("\n"), []byte("\r\n"))
	if _, err := Verify(crlf, data, Namespace, allowed, now); err != nil {
		t.Errorf("Verify CRLF = %v", err)
	}
}

func TestParseAllowedSignersProblems(t *testing.T) {
	k := testKey(t, 1)
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k.PublicKey())))
	text := strings.Join([]string{
		"# comment",
		`"alice, bob" ` + key + " comment here", // 2: ok, quoted principals
		"carol cert-authority " + key,           // 3
		"dave",                                  // 4
		"erin ssh-ed25519 AAAA!!!",              // 5
		`frank valid-after="2026" ` + key,       // 6
		`gina restrict ` + key,                  // 7
		`hank namespaces="" ` + key,             // 8
		`ivan valid-after="20270101Z",valid-before="20260101Z" ` + key, // 9
	}, "\n")
	_, err := ParseAllowedSigners([]byte(text))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("ParseAllowedSigners = %v, want *ParseError", err)
	}
	var lines []int
	for _, p := range pe.Problems {
		lines = append(lines, p.Line)
	}
	if got, want := lines, []int{3, 4, 5, 6, 7, 8, 9}; !equalInts(got, want) {
		t.Fatalf("problem lines = %v, want %v (%v)", got, want, pe.Lines())
	}
	if !strings.Contains(pe.Problems[0].Message, "cert-authority is not supported") {
		t.Errorf("cert-authority message = %q", pe.Problems[0].Message)
	}
	a := mustAllowed(t, text[:strings.Index(text, "\ncarol")])
	if got := strings.Join(a[0].Principals, "|"); got != "alice|bob" || a[0].Line != 2 {
		t.Errorf("quoted principals = %q line %d", got, a[0].Line)
	}
	if _, err := ParseAllowedSigners([]byte("# nothing\n\n")); err == nil {
		t.Error("ParseAllowedSigners(only comments) = nil error")
	}
	if _, err := ParseAllowedSigners(bytes.Repeat([]byte("#"), MaxAllowedSignersSize+1)); err == nil {
		t.Error("ParseAllowedSigners(oversized) = nil error")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMatch(t *testing.T) {
	cases := []struct {
		s, p string
		want bool
	}{
		{"agent-skills", "agent-skills", true},
		{"agent-skills", "agent-*", true},
		{"agent-skills", "*", true},
		{"agent-skills", "agent-skill?", true},
		{"agent-skills", "agent", false},
		{"agent-skills", "git", false},
		{"", "*", true},
		{"a", "", false},
	}
	for _, c := range cases {
		if got := match(c.s, c.p); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}

func TestParsePrivateKey(t *testing.T) {
	keygen := needKeygen(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	locked := filepath.Join(dir, "locked")
	run(t, keygen, "-q", "-t", "ed25519", "-N", "", "-C", "plain", "-f", plain)
	run(t, keygen, "-q", "-t", "ed25519", "-N", "s3cret", "-C", "locked", "-f", locked)
	if _, err := ParsePrivateKey(read(t, plain), nil); err != nil {
		t.Errorf("ParsePrivateKey(plain) = %v", err)
	}
	if _, err := ParsePrivateKey(read(t, locked), nil); !errors.Is(err, ErrPassphraseNeeded) {
		t.Errorf("ParsePrivateKey(locked, no passphrase) = %v, want ErrPassphraseNeeded", err)
	}
	if _, err := ParsePrivateKey(read(t, locked), []byte("s3cret")); err != nil {
		t.Errorf("ParsePrivateKey(locked, passphrase) = %v", err)
	}
	if _, err := ParsePrivateKey(read(t, locked), []byte("wrong")); err == nil {
		t.Error("ParsePrivateKey(locked, wrong passphrase) = nil error")
	}
	if _, err := ParsePrivateKey(read(t, plain+".pub"), nil); err == nil || !strings.Contains(err.Error(), "public key") {
		t.Errorf("ParsePrivateKey(public key) = %v", err)
	}
}

// TestCrossCheckSSHKeygen proves the format against OpenSSH itself: our
// signatures verify with "ssh-keygen -Y verify", and ssh-keygen's verify
// with Verify, for ed25519, ECDSA and RSA keys.
func TestCrossCheckSSHKeygen(t *testing.T) {
	keygen := needKeygen(t)
	data := []byte("{\"skills\":{}}\n")
	for _, kt := range [][]string{{"ed25519"}, {"ecdsa", "-b", "256"}, {"rsa", "-b", "3072"}} {
		t.Run(kt[0], func(t *testing.T) {
			dir := t.TempDir()
			key := filepath.Join(dir, "key")
			run(t, keygen, append(append([]string{"-q", "-t"}, kt...), "-N", "", "-C", "test", "-f", key)...)
			pub := read(t, key+".pub")
			allowedPath := filepath.Join(dir, "allowed")
			allowedText := "release@example.com namespaces=\"agent-skills\" " + string(pub)
			if err := os.WriteFile(allowedPath, []byte(allowedText), 0o644); err != nil {
				t.Fatal(err)
			}
			allowed := mustAllowed(t, allowedText)
			signer, err := ParsePrivateKey(read(t, key), nil)
			if err != nil {
				t.Fatal(err)
			}
			dataPath := filepath.Join(dir, "data")
			if err := os.WriteFile(dataPath, data, 0o644); err != nil {
				t.Fatal(err)
			}

			// Ours, verified by ssh-keygen.
			ours, err := Sign(signer, Namespace, data)
			if err != nil {
				t.Fatal(err)
			}
			oursPath := filepath.Join(dir, "ours.sig")
			if err := os.WriteFile(oursPath, ours, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(keygen, "-Y", "verify", "-f", allowedPath, "-I", "release@example.com", "-n", Namespace, "-s", oursPath)
			cmd.Stdin = bytes.NewReader(data)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("ssh-keygen -Y verify of our signature: %v\n%s", err, out)
			}
			// And ssh-keygen refuses it for tampered data.
			cmd = exec.Command(keygen, "-Y", "verify", "-f", allowedPath, "-I", "release@example.com", "-n", Namespace, "-s", oursPath)
			cmd.Stdin = strings.NewReader("tampered")
			if err := cmd.Run(); err == nil {
				t.Fatal("ssh-keygen -Y verify accepted our signature over other data")
			}

			// ssh-keygen's, verified by ours.
			run(t, keygen, "-Y", "sign", "-q", "-f", key, "-n", Namespace, dataPath)
			theirs := read(t, dataPath+".sig")
			who, err := Verify(theirs, data, Namespace, allowed, now)
			if err != nil {
				t.Fatalf("Verify(ssh-keygen's signature) = %v", err)
			}
			if len(who.Principals) != 1 || who.Principals[0] != "release@example.com" {
				t.Fatalf("Verify principals = %v", who.Principals)
			}
			if _, err := Verify(theirs, []byte("tampered"), Namespace, allowed, now); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("Verify(ssh-keygen's signature, tampered) = %v", err)
			}
			// ed25519 is deterministic: our armour equals ssh-keygen's.
			if kt[0] == "ed25519" && !bytes.Equal(ours, theirs) {
				t.Errorf("ed25519 signature differs from ssh-keygen's:\nours:\n%s\ntheirs:\n%s", ours, theirs)
			}
		})
	}
}

func needKeygen(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	return p
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
