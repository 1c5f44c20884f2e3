package source

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// userinfoRE matches the user information of a URL.
var userinfoRE = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@`)

// tokenEnv lists the variables whose values are HTTPS credentials.
var tokenEnv = []string{"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN"}

// scrub removes from s every URL's user information and every secret (and
// its base64 forms, as sent in a Basic authorization header), so that no
// message, log line or recorded string carries a credential.
func scrub(s string, secrets []string) string {
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

// secretsOf returns the token values getenv holds.
func secretsOf(getenv func(string) string) []string {
	if getenv == nil {
		return nil
	}
	var out []string
	for _, k := range tokenEnv {
		if v := getenv(k); v != "" {
			out = append(out, v)
		}
	}
	return out
}
