package scaffold

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"unicode"
)

// author is one entry of the manifest's authors list in its mapping form.
type author struct {
	name, email, url string
}

// parseAuthor reads the npm-style short form "Name <email> (url)", where the
// email and the url are optional. The result is written to skill.yaml in
// the mapping form, which cannot be misread.
func parseAuthor(s string) (author, error) {
	bad := func(why string) (author, error) {
		return author{}, usageError(
			fmt.Sprintf("author %q is not usable: %s", s, why),
			`pass --author "Jane Doe <jane@example.com>" or --author "Jane Doe <jane@example.com> (https://example.com)"`)
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return bad("it contains a control character")
	}
	rest := strings.TrimSpace(s)
	var a author
	if strings.HasSuffix(rest, ")") {
		i := strings.LastIndex(rest, "(")
		if i < 0 {
			return bad(`")" without "("`)
		}
		a.url = strings.TrimSpace(rest[i+1 : len(rest)-1])
		rest = strings.TrimSpace(rest[:i])
		u, err := url.Parse(a.url)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return bad(fmt.Sprintf("%q is not an http or https URL", a.url))
		}
	}
	if strings.HasSuffix(rest, ">") {
		i := strings.LastIndex(rest, "<")
		if i < 0 {
			return bad(`">" without "<"`)
		}
		a.email = strings.TrimSpace(rest[i+1 : len(rest)-1])
		rest = strings.TrimSpace(rest[:i])
		addr, err := mail.ParseAddress(a.email)
		if err != nil || addr.Address != a.email {
			return bad(fmt.Sprintf("%q is not an email address", a.email))
		}
	}
	if strings.ContainsAny(rest, "<>()") {
		return bad("use the form Name <email> (url)")
	}
	a.name = rest
	if a.name == "" {
		return bad("the name is empty")
	}
	return a, nil
}
