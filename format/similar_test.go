package format

import (
	"slices"
	"testing"
)

func TestSimilar(t *testing.T) {
	names := []string{"java-basics", "java-performance", "jvm-gc-tuning", "skill-naming", "java-basics"}
	tests := []struct {
		s          string
		candidates []string
		want       []string
	}{
		{"java-basic", names, []string{"java-basics"}},
		{"jav-basics", names, []string{"java-basics"}},
		{"java-basisc", names, []string{"java-basics"}}, // a swap is two edits
		{"skill-namign", names, []string{"skill-naming"}},
		{"java-basics", names, nil}, // itself is no suggestion
		{"flame-graph", names, nil},
		// Short names allow one edit, long ones two, never more.
		{"ab", []string{"ac", "abc", "b", "xy"}, []string{"ac", "abc", "b"}},
		{"abcdefghij", []string{"abcdefgh", "abcdefg", "abcdefghijk"}, []string{"abcdefghijk", "abcdefgh"}},
		// Nearest first; ties keep the order given.
		{"skill-namin", []string{"skill-name", "skill-naming", "skill-nami"}, []string{"skill-naming", "skill-nami", "skill-name"}},
		{"", []string{"a", "bc"}, []string{"a"}},
		{"x", nil, nil},
	}
	for _, tt := range tests {
		if got := Similar(tt.s, tt.candidates); !slices.Equal(got, tt.want) {
			t.Errorf("Similar(%q, %q) = %q, want %q", tt.s, tt.candidates, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"java-basics", "java-basic", 1}, {"ab", "ba", 2}, {"flaw", "lawn", 2},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
