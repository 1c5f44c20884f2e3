package cli

import (
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/config"
)

// TestRegistryURLReading: the kind is read from the URL as written, #ref
// included; a scheme agent-skills cannot read is refused, never a path;
// only paths are made absolute.
func TestRegistryURLReading(t *testing.T) {
	kinds := map[string]string{
		"bundled:":                              "bundled",
		"./reg":                                 "local",
		"file:///srv/reg":                       "local",
		"file:///srv/reg#main":                  "git",
		"./reg#v1":                              "git",
		"https://host/org/skills.git":           "git",
		"https://host/index.json":               "http",
		"git@host:org/skills.git":               "git",
		"ssh://git@host/org/skills":             "git",
		"https://skills.example.com/index.yaml": "http",
	}
	for url, want := range kinds {
		if got := inferKind(url); got != want {
			t.Errorf("inferKind(%q) = %q, want %q", url, got, want)
		}
	}
	for url, refused := range map[string]bool{
		"oci://host/x": false, "s3://bucket/x": true, "HTTPS://host/x.git": false,
		"file:///x": false, "git+ssh://host/x": false, "./plain": false, "git@host:x.git": false,
	} {
		if err := checkScheme(url); (err != nil) != refused {
			t.Errorf("checkScheme(%q) = %v, want refused=%v", url, err, refused)
		}
	}
	for url, path := range map[string]bool{
		"./reg": true, "reg": true, "/abs/reg": true, `C:\reg`: true, "../a:b/reg": true,
		"file:///x": false, "git@host:org/x.git": false, "host.tld:org/x": false, "bundled:": false,
	} {
		if got := config.IsPath(url); got != path {
			t.Errorf("config.IsPath(%q) = %v, want %v", url, got, path)
		}
	}
}
