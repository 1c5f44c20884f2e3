package gitrun

import "testing"

func TestScrub(t *testing.T) {
	for _, tt := range []struct {
		in      string
		secrets []string
		want    string
	}{
		{"fatal: https://alice:pw@host/x not found", nil, "fatal: https://host/x not found"},
		{"token tok-12345 leaked", []string{"tok-12345"}, "token *** leaked"},
		{"header eC1hY2Nlc3MtdG9rZW46dG9rLTEyMzQ1", []string{"tok-12345"}, "header ***"},
		{"abc stays", []string{"abc"}, "abc stays"},
	} {
		if got := Scrub(tt.in, tt.secrets); got != tt.want {
			t.Errorf("Scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
