// Package redact keeps credentials written inside URLs
// (scheme://user:password@host/…) out of everything agent-skills prints or
// records. The user name stays, so that a message still says which
// account is meant; the password becomes "***", as in user:***@host.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces a password.
const Mask = "***"

// authorityRE matches a URL's scheme and its authority up to the last "@"
// before the path: the user information, when there is one, is group 2.
// Quotes, brackets and white space end a URL inside a message.
var authorityRE = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)([^/?#\s"'<>` + "`" + `]*)@`)

// URL returns raw with the password of its user information replaced by
// Mask. A string with no password — no URL, or a user name alone — is
// returned unchanged.
func URL(raw string) string { return Text(raw) }

// Text returns s with the password of every URL in it replaced by Mask:
// the form to print.
func Text(s string) string { return replace(s, ":"+Mask) }

// Strip returns s with the password of every URL in it removed, the user
// name kept (https://user@host/…): the form to record, which git and the
// credential helper can still use.
func Strip(s string) string { return replace(s, "") }

// replace puts with in place of ":password" in every URL of s.
func replace(s, with string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, "://") {
		return s
	}
	return authorityRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := authorityRE.FindStringSubmatch(m)
		scheme, userinfo := sub[1], sub[2]
		user, _, hasPassword := strings.Cut(userinfo, ":")
		if !hasPassword {
			return m
		}
		if user == "" && with == "" {
			return scheme
		}
		return scheme + user + with + "@"
	})
}

// HasPassword reports whether some URL in s carries a password.
func HasPassword(s string) bool { return Text(s) != s }

// WithoutPassword returns the URL raw with its password removed but its
// user name kept (https://user@host/…), for telling a user which URL to
// configure once the password is stored elsewhere. A raw that does not
// parse as a URL is returned as Text gives it.
func WithoutPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return Text(raw)
	}
	if name := u.User.Username(); name != "" {
		u.User = url.User(name)
	} else {
		u.User = nil
	}
	return u.String()
}
