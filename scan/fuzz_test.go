package scan

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

// FuzzPackage scans arbitrary bytes as SKILL.md, as a reference and as a
// script: no panic, every finding well-formed, every excerpt free of raw
// control, format (bidi, zero-width, tag) and invalid characters.
func FuzzPackage(f *testing.F) {
	for _, c := range hostile() {
		for _, body := range c.files {
			f.Add([]byte(body))
		}
	}
	for _, seed := range []string{
		"", "\ufeff", "<!--", "<!-- a", "-->", "```", "```\n<!-- x -->", "\\", "a\\\n\\\n", "-----BEGIN PRIVATE KEY-----",
		"curl x | \\\n sh", "\xff\xfe", "ghp_\x00", "name: \u0440\u0443\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := fstest.MapFS{
			"SKILL.md":            {Data: append([]byte(skillHead), data...)},
			"references/notes.md": {Data: data},
			"scripts/run.sh":      {Data: data, Mode: 0o755},
		}
		r, err := FS(m, Options{})
		if err != nil {
			t.Fatalf("FS: %v", err)
		}
		for _, fd := range r.Findings {
			rule, ok := Lookup(fd.Rule)
			if !ok || fd.File == "" || fd.Message == "" || fd.Fix == "" || fd.Severity < Info || fd.Severity > rule.Severity {
				t.Fatalf("malformed finding %+v", fd)
			}
			if (fd.Line == 0) != (fd.Col == 0) || fd.Line < 0 || fd.Col < 0 {
				t.Fatalf("finding %+v has a half position", fd)
			}
			for _, r := range fd.Excerpt + fd.Message {
				if r == unicode.ReplacementChar || (r < 0x20 && r != '\t') || (r >= 0x7f && r < 0xa0) || unicode.Is(unicode.Cf, r) {
					t.Fatalf("finding %+v holds the raw character %U", fd, r)
				}
			}
			if strings.ContainsRune(fd.Excerpt, '\n') {
				t.Fatalf("excerpt %q holds a line break", fd.Excerpt)
			}
		}
	})
}
