package gitrun

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// userinfoRE matches the user information of a URL.
var userinfoRE = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@`)

// Scrub removes from s every URL's user information and every secret (and
// its base64 forms, as sent in a Basic authorization header for the users
// GitHub and GitLab tokens go with), so that no message, log line or
// recorded string carries a credential. Secrets shorter than four bytes
// are ignored: replacing them would mangle the message without hiding
// anything.
func Scrub(s string, secrets []string) string {
	s = userinfoRE.ReplaceAllString(s, "$1")
	for _, sec := range secrets {
		if len(sec) < 4 {
			continue
		}
		s = strings.ReplaceAll(s, sec, "***")
		for _, user := range []string{"x-access-token:", "oauth2:", ""} {
			s = strings.ReplaceAll(s, base64.StdEncoding.EncodeToString([]byte(user+sec)), "***")
		}
	}
	return s
}
