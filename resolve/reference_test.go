package resolve

import (
	"errors"
	"testing"
)

func TestParseReference(t *testing.T) {
	tests := []struct {
		in   string
		want Reference
		ok   bool
	}{
		{"java-basics", Reference{Name: "java-basics"}, true},
		{"java-basics@^1.2", Reference{Name: "java-basics", Range: "^1.2"}, true},
		{"official:java-basics@1.2.3", Reference{Registry: "official", Name: "java-basics", Range: "1.2.3"}, true},
		{"java-basics@latest", Reference{Name: "java-basics", Range: "latest"}, true},
		{"java-basics@>=1 <2", Reference{Name: "java-basics", Range: ">=1 <2"}, true},
		{"java-basics@1.x", Reference{Name: "java-basics", Range: "1.x"}, true},
		{"java-basics@~1.1.0", Reference{Name: "java-basics", Range: "~1.1.0"}, true},
		{"my.reg:ab@2.0.0-beta.1", Reference{Registry: "my.reg", Name: "ab", Range: "2.0.0-beta.1"}, true},
		{"a", Reference{Name: "a"}, true},
		{"", Reference{}, false},
		{"java--basics", Reference{}, false},
		{"-", Reference{}, false},
		{"Java", Reference{}, false},
		{"-ab", Reference{}, false},
		{"ab-", Reference{}, false},
		{"ab@", Reference{}, false},
		{"ab@nope", Reference{}, false},
		{":ab", Reference{}, false},
		{"Reg:ab", Reference{}, false},
		{"a:b:cc", Reference{}, false},
		{"ab@1.2.3@4", Reference{}, false},
	}
	for _, tt := range tests {
		got, err := ParseReference(tt.in)
		if tt.ok {
			if err != nil || got != tt.want {
				t.Errorf("ParseReference(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
			}
			if back, err := ParseReference(got.String()); err != nil || back != got {
				t.Errorf("ParseReference(%q.String()) = %+v, %v, want %+v", tt.in, back, err, got)
			}
			continue
		}
		var e interface{ ErrorCode() string }
		if !errors.As(err, &e) || e.ErrorCode() != "ASK_REFERENCE_INVALID" {
			t.Errorf("ParseReference(%q) = %+v, %v, want ASK_REFERENCE_INVALID", tt.in, got, err)
		}
	}
}

func FuzzParseReference(f *testing.F) {
	for _, s := range []string{"java-basics", "official:java-basics@^1.2", "ab@>=1 <2", "ab@", ":", "@", "a:b@c:d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseReference(s)
		if err != nil {
			return
		}
		back, err := ParseReference(ref.String())
		if err != nil || back != ref {
			t.Fatalf("ParseReference(%q) = %+v; reparsing its String() = %+v, %v", s, ref, back, err)
		}
	})
}

func TestSatisfies(t *testing.T) {
	for _, tc := range []struct {
		version, rng string
		want         bool
	}{
		{"1.2.0", "^1.2.0", true},
		{"1.9.3", "^1.2.0", true},
		{"2.0.0", "^1.2.0", false},
		{"1.1.9", "^1.2.0", false},
		{"1.2.0", "1.2.0", true},
		{"1.2.1", "=1.2.0", false},
		{"0.0.0-local-699a54e065fd", "", true},
		{"0.0.0-local-699a54e065fd", "latest", true},
		{"0.0.0-local-699a54e065fd", "*", true},
		{"0.0.0-local-699a54e065fd", "^1.0.0", false},
	} {
		got, err := Satisfies(tc.version, tc.rng)
		if err != nil || got != tc.want {
			t.Errorf("Satisfies(%q, %q) = %v, %v; want %v", tc.version, tc.rng, got, err, tc.want)
		}
	}
	if _, err := Satisfies("1.2", "^1"); err == nil {
		t.Error("Satisfies accepted a version that is not strict semver")
	}
	if _, err := Satisfies("1.2.0", "^^1"); err == nil {
		t.Error("Satisfies accepted a malformed range")
	}
}
