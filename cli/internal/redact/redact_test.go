package redact

import (
	"net/url"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"bundled:", "bundled:"},
		{"/home/u/reg", "/home/u/reg"},
		{"https://example.com/index.json", "https://example.com/index.json"},
		{"ssh://git@example.com/r.git", "ssh://git@example.com/r.git"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"http://user:s3cretPassw0rd@127.0.0.1:9/repo.git", "http://user:***@127.0.0.1:9/repo.git"},
		{"HTTPS://u:p@HOST/x", "HTTPS://u:***@HOST/x"},
		{"https://:tok@host/x", "https://:***@host/x"},
		{"https://u:p%40ss@host/x", "https://u:***@host/x"},
		{"https://u:p@ss@host/x", "https://u:***@host/x"},
		{"https://host/path@v1", "https://host/path@v1"},
		{"https://host?q=a:b@c", "https://host?q=a:b@c"},
		{`cannot fetch "https://u:pw@h/i.json": 401; also see https://h/x`, `cannot fetch "https://u:***@h/i.json": 401; also see https://h/x`},
		{"  \"url\": \"http://a:b@h/r.git\",", "  \"url\": \"http://a:***@h/r.git\","},
		{"two http://a:b@h1/ http://c:d@h2/", "two http://a:***@h1/ http://c:***@h2/"},
		{"mail me at a:b@example.com", "mail me at a:b@example.com"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got, want := HasPassword(tt.in), tt.in != tt.want; got != want {
			t.Errorf("HasPassword(%q) = %v, want %v", tt.in, got, want)
		}
	}
}

func TestStrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://alice:s3cret@127.0.0.1:8080/archives/x-1.0.0.tar.gz", "http://alice@127.0.0.1:8080/archives/x-1.0.0.tar.gz"},
		{"https://:tok@host/x", "https://host/x"},
		{"https://bob@host/x", "https://bob@host/x"},
		{"/home/u/reg:skills/x", "/home/u/reg:skills/x"},
	}
	for _, tt := range tests {
		if got := Strip(tt.in); got != tt.want {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWithoutPassword(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://user:s3cret@127.0.0.1:9/repo.git", "http://user@127.0.0.1:9/repo.git"},
		{"https://:tok@host/x", "https://host/x"},
		{"https://host/x", "https://host/x"},
	}
	for _, tt := range tests {
		if got := WithoutPassword(tt.in); got != tt.want {
			t.Errorf("WithoutPassword(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzText checks that the password of a URL written anywhere in a
// message never survives, whatever it and the user name hold.
func FuzzText(f *testing.F) {
	f.Add("user", "s3cretPassw0rd", "cannot fetch")
	f.Add("", "tok", "")
	f.Add("a@b", "p:w@d/x", "x https://c:d@e/ y")
	f.Fuzz(func(t *testing.T, user, pass, prefix string) {
		u := (&url.URL{Scheme: "https", User: url.UserPassword(user, pass), Host: "example.com", Path: "/r.git"}).String()
		enc := url.User(user).String()
		s := prefix + " " + u + " done"
		out := Text(s)
		if want := " https://" + enc + ":" + Mask + "@example.com/r.git done"; !strings.HasSuffix(out, want) {
			t.Fatalf("Text(%q) = %q, want it to end with %q", s, out, want)
		}
		if Text(out) != out {
			t.Fatalf("Text(Text(%q)) = %q changed %q again", s, Text(out), out)
		}
	})
}
