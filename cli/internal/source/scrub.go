package source

import "github.com/agent-skills/agent-skills/registry/gitrun"

// tokenEnv lists the variables whose values are HTTPS credentials.
var tokenEnv = []string{"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN"}

// scrub removes from s every URL's user information and every secret (and
// its base64 forms, as sent in a Basic authorization header), so that no
// message, log line or recorded string carries a credential. It is the
// git runner's scrubbing (gitrun.Scrub), so errors from git and from
// archives are cleaned alike.
func scrub(s string, secrets []string) string { return gitrun.Scrub(s, secrets) }

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
