package sshsig

import (
	"testing"
)

func FuzzParse(f *testing.F) {
	k := testKey(f, 3)
	sig, err := Sign(k, Namespace, []byte("seed"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sig)
	f.Add([]byte(armorBegin + "\nU1NIU0lH\n" + armorEnd + "\n"))
	f.Add([]byte("garbage"))
	allowed := mustAllowed(f, allowedLine("p", k, ""))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse(b)
		if err == nil && s.PublicKey == nil {
			t.Fatal("Parse returned no key and no error")
		}
		_, _ = Verify(b, []byte("seed"), Namespace, allowed, now)
	})
}

func FuzzParseAllowedSigners(f *testing.F) {
	k := testKey(f, 4)
	f.Add([]byte(allowedLine("alice@example.com", k, `namespaces="agent-skills",valid-after="20260101Z"`)))
	f.Add([]byte("# c\n\n\"a b\" cert-authority " + allowedLine("x", k, "")))
	f.Add([]byte("bob ssh-ed25519 AAAA"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAllowedSigners(b)
		if err == nil {
			for _, s := range a {
				if s.Key == nil || len(s.Principals) == 0 || s.Line < 1 {
					t.Fatalf("ParseAllowedSigners accepted an incomplete signer %+v", s)
				}
			}
		}
	})
}
