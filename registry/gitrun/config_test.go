package gitrun

import (
	"slices"
	"strings"
	"testing"
)

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
