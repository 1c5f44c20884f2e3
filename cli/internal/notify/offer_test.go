package notify

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

func TestOfferSkipsDeprecatedAndPrereleases(t *testing.T) {
	idx, err := registry.DecodeIndex([]byte(`{"schemaVersion":1,"skills":[{"name":"a","description":"Does a.","versions":[
{"version":"1.0.0","path":"a/1","integrity":"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="},
{"version":"1.2.0","path":"a/2","integrity":"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=","publishedAt":"2026-11-01T00:00:00Z"},
{"version":"1.3.0","path":"a/3","integrity":"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=","deprecated":true},
{"version":"2.0.0-rc.1","path":"a/4","integrity":"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="}]}]}`), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	sk, _ := idx.Skill("a")
	o := OfferOf(sk)
	if o.Version != "1.2.0" || o.Description != "Does a." {
		t.Fatalf("offer = %+v, want 1.2.0 (1.3.0 deprecated, 2.0.0-rc.1 a prerelease)", o)
	}
	want := []OfferVersion{{"1.2.0", "2026-11-01T00:00:00Z"}, {"1.0.0", ""}}
	if !reflect.DeepEqual(o.Versions, want) {
		t.Fatalf("versions = %+v, want %+v", o.Versions, want)
	}
	if !o.Newer("1.0.0") || o.Newer("1.2.0") || o.Newer("2.0.0") {
		t.Fatal("Newer compares wrongly")
	}
	if got := o.Since("1.0.0"); len(got) != 1 || got[0].Version != "1.2.0" {
		t.Fatalf("Since(1.0.0) = %+v", got)
	}
	if o := OfferOf(nil); o.Version != "" || o.Versions != nil {
		t.Fatal("a skill the index no longer lists offers something")
	}
}

func TestOfferDescriptionBounded(t *testing.T) {
	sk := &registry.Skill{Name: "a", Description: strings.Repeat("é", 400)}
	d := OfferOf(sk).Description
	if len(d) > maxOfferDescription+len("…") || !strings.HasSuffix(d, "…") || !strings.HasPrefix(d, "é") {
		t.Fatalf("description not cut at a rune boundary: %d bytes", len(d))
	}
}

func TestOutsideCaret(t *testing.T) {
	for _, tt := range []struct {
		from, to string
		want     bool
	}{
		{"1.2.0", "1.9.0", false},
		{"1.2.0", "2.0.0", true},
		{"0.2.0", "0.2.5", false},
		{"0.2.0", "0.3.0", true},
		{"0.0.1", "0.0.2", true},
		{"1.2.0", "not-semver", true},
	} {
		if got := OutsideCaret(tt.from, tt.to); got != tt.want {
			t.Errorf("OutsideCaret(%s, %s) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestUnapproved(t *testing.T) {
	moves := []Move{
		{"target", "1.0.0", "2.0.0"}, // approved by its own confirmation
		{"dep-minor", "1.0.0", "1.4.0"},
		{"dep-major", "1.0.0", "2.0.0"},
		{"dep-down", "1.4.0", "1.3.0"},
		{"new-dep", "", "1.0.0"},
		{"same", "1.0.0", "1.0.0"},
	}
	got := Unapproved(moves, "target")
	want := []Move{{"dep-major", "1.0.0", "2.0.0"}, {"dep-down", "1.4.0", "1.3.0"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unapproved = %+v, want %+v", got, want)
	}
	if got := Unapproved([]Move{{"target", "2.0.0", "1.0.0"}}, "target"); len(got) != 1 {
		t.Fatal("a downgrade of the target itself is not refused")
	}
}
