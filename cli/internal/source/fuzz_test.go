package source

import (
	"bytes"
	"context"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"owner/repo", "owner/repo/a/b@x#v1", "https://github.com/o/r/tree/main/x", "git@h.com:o/r.git#m",
		"./x", "~/x", "x.zip", "https://e.com/a.tar.gz#sub", "reg:name@1", "name", "gitlab:g/r", "file:///a/b.git", "-x", "a/b#..",
		"https://gitlab.com/a/b/-/tree/x/y", "ssh://git@h/x", "@/#", "a/b@", "a//b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok, err := Parse(s, "/cwd", func(string) bool { return false })
		if err != nil && ok {
			t.Fatalf("Parse(%q) = ok with error %v", s, err)
		}
		if !ok {
			return
		}
		if r.Subpath != "" {
			for _, e := range bytes.Split([]byte(r.Subpath), []byte("/")) {
				if len(e) == 0 || string(e) == "." || string(e) == ".." {
					t.Fatalf("Parse(%q).Subpath = %q, want a plain relative path", s, r.Subpath)
				}
			}
		}
		if len(r.Ref) > 0 && r.Ref[0] == '-' {
			t.Fatalf("Parse(%q).Ref = %q starts with '-'", s, r.Ref)
		}
		_ = Identity(r, nil)
	})
}

func FuzzExtractZip(f *testing.F) {
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := registry.DefaultExtractLimits()
		lim.MaxTotalBytes, lim.MaxFileBytes = 1<<20, 1<<20
		registry.ExtractZip(context.Background(), bytes.NewReader(data), int64(len(data)), t.TempDir(), lim)
	})
}
