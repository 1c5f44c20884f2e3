package gitrun

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, tt := range []struct {
		url, proto string // proto "" = refused
	}{
		{"https://github.com/acme/skills.git", "https"},
		{"HTTPS://github.com/acme/skills", "https"},
		{"http://127.0.0.1:8080/acme/skills.git", "http"},
		{"ssh://git@github.com/acme/skills.git", "ssh"},
		{"git+ssh://git@host/x", "ssh"},
		{"git://host/x.git", "git"},
		{"file:///srv/git/x.git", "file"},
		{"git@github.com:acme/skills.git", "ssh"},
		{"host.example:org/repo", "ssh"},
		{"/srv/git/x.git", "file"},
		{"", ""},
		{"-uhttps://x", ""},
		{"--upload-pack=touch x", ""},
		{"ext::sh -c touch% /tmp/x", ""},
		{"fd::3", ""},
		{"hg::https://x", ""},
		{"ftp://host/x", ""},
		{"s3://bucket/x", ""},
		{"https://host/x\nusername=evil", ""},
		{"https://host/x\x00", ""},
		{"https://host/\x1b[2Jx", ""},
		{"ssh://-oProxyCommand=touch%20x/y", ""},
		{"ssh://-oProxyCommand=x@host/y", ""},
		{"-oProxyCommand=x:y", ""},
		{"a@-oProxyCommand=x:y", ""},
		{"https:///nohost", ""},
		{"relative/path.git", ""},
		{"./x.git", ""},
	} {
		proto, err := CheckURL(tt.url)
		if proto != tt.proto || (err == nil) != (tt.proto != "") {
			t.Errorf("CheckURL(%q) = %q, %v, want %q", tt.url, proto, err, tt.proto)
		}
		var ue *URLError
		if err != nil && !errors.As(err, &ue) {
			t.Errorf("CheckURL(%q) = %#v, want a *URLError", tt.url, err)
		}
	}
}

// A refused URL is shown without its user information and escaped.
func TestURLErrorIsScrubbed(t *testing.T) {
	_, err := CheckURL("ext::https://alice:s3cret@host/x\x1b")
	if err == nil || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("CheckURL(ext with password) = %v, want a refusal without the password or the escape", err)
	}
}

// FuzzCheckURL holds CheckURL to its promise: an accepted remote never
// starts with '-', never uses the transport::address form and carries no
// control character or line break.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://h/x", "git@h:x", "/srv/x", "ext::sh", "-u", "ssh://-o/x", "https://h/\nx", "file:///x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := CheckURL(s); err != nil {
			return
		}
		if s == "" || s[0] == '-' || transportRE.MatchString(s) ||
			strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("CheckURL(%q) = ok, want a refusal", s)
		}
	})
}
