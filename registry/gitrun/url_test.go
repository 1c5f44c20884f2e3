package gitrun

import (
	"errors"
	"slices"
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

func TestConfigArgs(t *testing.T) {
	pairs := func(proto string) map[string]string {
		args := ConfigArgs(proto)
		m := map[string]string{}
		for i := 0; i+1 < len(args); i += 2 {
			if args[i] != "-c" {
				t.Fatalf("ConfigArgs(%q)[%d] = %q, want -c", proto, i, args[i])
			}
			k, v, _ := strings.Cut(args[i+1], "=")
			m[k] = v
		}
		return m
	}
	https := pairs("https")
	for k, want := range map[string]string{
		"core.hooksPath": "/dev/null", "core.fsmonitor": "false", "core.symlinks": "false", "core.autocrlf": "false",
		"submodule.recurse": "false", "fetch.recurseSubmodules": "false", "protocol.allow": "never",
		"protocol.ext.allow": "never", "protocol.fd.allow": "never", "protocol.https.allow": "always",
		"init.templateDir": "", "core.protectNTFS": "true",
	} {
		if got, ok := https[k]; !ok || got != want {
			t.Errorf("ConfigArgs(https)[%s] = %q, %v, want %q", k, got, ok, want)
		}
	}
	if https["protocol.file.allow"] != "never" || https["protocol.git.allow"] != "never" || https["protocol.http.allow"] != "never" {
		t.Errorf("ConfigArgs(https) allows file, git or http; want them only for a remote that is one")
	}
	if pairs("file")["protocol.file.allow"] != "always" || pairs("http")["protocol.http.allow"] != "always" {
		t.Errorf("ConfigArgs(file/http) do not allow their own protocol")
	}
}

func TestEnviron(t *testing.T) {
	in := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GIT_CONFIG_GLOBAL=/home/u/.gitconfig", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_DIR=/elsewhere", "GIT_WORK_TREE=/w", "GIT_INDEX_FILE=/i", "GIT_OBJECT_DIRECTORY=/o",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=/a", "GIT_COMMON_DIR=/c", "GIT_NAMESPACE=n", "GIT_TEMPLATE_DIR=/t",
		"GIT_CONFIG=/cfg", "GIT_CONFIG_PARAMETERS='core.hooksPath'='/evil'", "GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=/evil", "GIT_TRACE=1", "GIT_TRACE_CURL=1",
		"GIT_CURL_VERBOSE=1", "GIT_TERMINAL_PROMPT=1", "GIT_ATTR_SOURCE=HEAD",
	}
	got := Environ(in)
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "GIT_CONFIG_GLOBAL=/home/u/.gitconfig", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0", "GIT_SSH_COMMAND=ssh -o BatchMode=yes"}
	if !slices.Equal(got, want) {
		t.Errorf("Environ(...) = %q, want %q", got, want)
	}
	// The user's own ssh command stays.
	got = Environ([]string{"GIT_SSH_COMMAND=ssh -i key"})
	if !slices.Equal(got, []string{"GIT_SSH_COMMAND=ssh -i key", "GIT_TERMINAL_PROMPT=0"}) {
		t.Errorf("Environ(GIT_SSH_COMMAND) = %q, want it kept and no batch-mode default", got)
	}
}

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
