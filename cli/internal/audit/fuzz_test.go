package audit

import (
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFileURI: a package file name (untrusted: it comes from the package)
// always becomes a relative URI reference without a scheme, host, query or
// fragment, whose decoded path is the file's path.
func FuzzFileURI(f *testing.F) {
	for _, s := range []string{"SKILL.md", "references/b c.md", "gpj.\u202emd", "a:b/c", "100%#?.md", "//x", "?q", "#f", "ü/ö.md"} {
		f.Add("skills/a", s)
		f.Add(".", s)
	}
	f.Fuzz(func(t *testing.T, rel, file string) {
		if !utf8.ValidString(file) || !utf8.ValidString(rel) || strings.HasPrefix(file, "/") || strings.HasPrefix(rel, "/") {
			t.Skip()
		}
		want := path.Join(rel, file)
		if want == "" || strings.HasPrefix(want, "/") {
			t.Skip()
		}
		got := FileURI(rel, file)
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("FileURI(%q, %q) = %q: %v", rel, file, got, err)
		}
		if u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.HasPrefix(got, "/") {
			t.Fatalf("FileURI(%q, %q) = %q: not a plain relative reference (%+v)", rel, file, got, u)
		}
		if p := strings.TrimPrefix(u.Path, "./"); p != want {
			t.Fatalf("FileURI(%q, %q) = %q decodes to %q, want %q", rel, file, got, p, want)
		}
	})
}
