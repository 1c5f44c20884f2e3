package registry

import (
	"fmt"
	"strings"
	"testing"
)

// searchIndex builds an index from "name|keywords|description" rows.
func searchIndex(t *testing.T, rows ...string) *Index {
	t.Helper()
	var b strings.Builder
	b.WriteString("skills:\n")
	for _, r := range rows {
		f := strings.Split(r, "|")
		fmt.Fprintf(&b, "  - name: %s\n    keywords: [%s]\n    description: %q\n    versions: [{version: 1.0.0, path: x, integrity: %s}]\n", f[0], f[1], f[2], goodIntegrity)
	}
	idx, err := DecodeIndex([]byte(b.String()), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func TestSearch(t *testing.T) {
	official := searchIndex(t,
		"java-performance|java, jvm, gc|JVM performance engineering.",
		"jvm-gc-tuning|java, gc|Garbage collection tuning.",
		"java|lang|The Java language.",
		"kotlin-basics|jvm|Kotlin for Java developers.",
		"java-optional|java|Optional.",
	)
	company := searchIndex(t,
		"java-performance|java|Company fork.",
		"internal-java|java|Internal.",
	)
	loaded := []Loaded{{Registry: "company", Index: company}, {Registry: "official", Index: official}}
	tests := []struct {
		query string
		limit int
		want  string
	}{
		{"java", 0, "official/java:exact-name official/java-optional:name-prefix company/java-performance:name-prefix! official/java-performance:name-prefix^company company/internal-java:name-substring official/jvm-gc-tuning:keyword official/kotlin-basics:description"},
		{"JAVA", 2, "official/java:exact-name official/java-optional:name-prefix"},
		{"java performance", 0, "company/java-performance:exact-name! official/java-performance:exact-name^company"},
		{"gc tuning", 0, "official/jvm-gc-tuning:name-substring"},
		{"jvm kotlin", 0, "official/kotlin-basics:name-prefix"},
		{"garbage", 0, "official/jvm-gc-tuning:description"},
		{"nothing-matches", 0, ""},
	}
	for _, tt := range tests {
		var got []string
		for _, h := range Search(loaded, tt.query, tt.limit) {
			s := h.Registry + "/" + h.Name + ":" + h.Match.String()
			if h.Shadowed {
				s += "^" + h.ShadowedBy
			} else if h.Registry == "company" && h.Name == "java-performance" {
				s += "!"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("Search(%q, %d) =\n  %s\nwant\n  %s", tt.query, tt.limit, g, tt.want)
		}
	}
	if all := Search(loaded, "", 0); len(all) != 7 {
		t.Errorf("Search(\"\") = %d hits, want 7", len(all))
	}
}

func TestSearchUntrusted(t *testing.T) {
	mirror := searchIndex(t, "java-basics|java|Mirror.", "only-mirror|java|Mirror only.")
	official := searchIndex(t, "java-basics|java|Official.")
	loaded := []Loaded{{Registry: "mirror", Index: mirror, Untrusted: true}, {Registry: "official", Index: official}}
	var got []string
	for _, h := range Search(loaded, "java", 0) {
		got = append(got, fmt.Sprintf("%s/%s:%v:%s", h.Registry, h.Name, h.Shadowed, h.ShadowedBy))
	}
	want := "official/java-basics:false: mirror/java-basics:true:official mirror/only-mirror:false:"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("Search(untrusted first) = %s, want %s", g, want)
	}
}

// TestContainsFold: matching a description without lower-casing it gives
// what lower-casing it gives, over ASCII, upper case and non-ASCII text.
func TestContainsFold(t *testing.T) {
	descs := []string{"", "JVM Performance", "jvm performance", "ÉCOLE Java", "Straße", "İstanbul", "A-B_c", "ZZZ"}
	terms := []string{"", "jvm", "performance", "java", "école", "strasse", "straße", "i̇stanbul", "a-b_c", "z", "zzzz", "[", "@"}
	for _, d := range descs {
		for _, term := range terms {
			want := strings.Contains(strings.ToLower(d), term)
			idx := &Index{Skills: []*Skill{{Name: "a", Description: d}}}
			got := matchTerm(&idx.rows()[0], term) == MatchDescription
			if term == "" || strings.Contains("a", term) {
				continue // matched by the name
			}
			if got != want {
				t.Errorf("matchTerm(description %q, %q) = %v, want %v", d, term, got, want)
			}
		}
	}
}
