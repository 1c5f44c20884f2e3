package registry

import (
	"fmt"
	"testing"
)

func TestSetSimilar(t *testing.T) {
	company := memRegistry(t, "company", false, pkgSpec{"java-basics", "1.0.0", nil}, pkgSpec{"skill-naming", "1.0.0", nil})
	official := memRegistry(t, "official", false, pkgSpec{"java-basics", "2.0.0", nil}, pkgSpec{"java-basic-x", "1.0.0", nil},
		pkgSpec{"jvm-gc-tuning", "1.0.0", nil}, pkgSpec{"java-basic", "1.0.0", nil})
	wild := memRegistry(t, "wild", true, pkgSpec{"skill-namer", "1.0.0", nil}, pkgSpec{"java-basix", "1.0.0", nil})
	var n notices
	set := NewSet(n.add, downRegistry(t, "down"), company, official, wild)
	tests := []struct {
		registry, name string
		want           string
	}{
		// Nearest first, then by precedence; a name two registries have is
		// offered once, from the one that answers for it.
		{"", "java-basicz", "[{java-basics company} {java-basic official} {java-basic-x official}]"},
		{"", "jvm-gc-tunin", "[{jvm-gc-tuning official}]"},
		// A name some registry has is not a slip.
		{"", "java-basic", "[]"},
		{"", "jvm-gc-tuning", "[]"},
		// Untrusted registries own no bare name, so their names are not
		// offered for one; a qualified lookup offers its registry's names only.
		{"", "skill-namng", "[{skill-naming company}]"},
		{"wild", "skill-namng", "[{skill-namer wild}]"},
		{"company", "jvm-gc-tunin", "[]"},
		{"elsewhere", "java-basicz", "[]"},
		{"", "flame-graph-analysis", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(set.Similar(t.Context(), tt.registry, tt.name)); got != tt.want {
			t.Errorf("Similar(%q, %q) = %s, want %s", tt.registry, tt.name, got, tt.want)
		}
	}
	if len(n.list) != 1 {
		t.Errorf("notices = %q, want one for the registry that is down", n.list)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		near []SimilarName
		want string
	}{
		{nil, ""},
		{[]SimilarName{{"java-basics", "bundled"}}, "did you mean java-basics (registry bundled)?"},
		{[]SimilarName{{"a", "x"}, {"b", "y"}}, "did you mean a (registry x) or b (registry y)?"},
	} {
		if got := DidYouMean(tt.near); got != tt.want {
			t.Errorf("DidYouMean(%v) = %q, want %q", tt.near, got, tt.want)
		}
	}
}
