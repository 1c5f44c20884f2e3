package agents

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// FuzzLayoutFor projects arbitrary SKILL.md files for Claude Code, Codex
// and their shared union, and checks that the result always decodes again
// with the same name, description and body bytes.
func FuzzLayoutFor(f *testing.F) {
	f.Add([]byte("---\nname: a-skill\ndescription: Does things.\n---\nbody\n"))
	f.Add([]byte("---\nname: 123\ndescription: >\n  folded\n  text\nmetadata:\n  short-description: x\n  n: 1\nhooks: {a: [1, 2.5, true, null]}\n---\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\nname: crlf\r\ndescription: 'quoted: colon'\r\n---\r\n# T\r\n"))
	f.Add([]byte("---\nname: x\ndescription: \"---\\n---\"\nallowed-tools: [Read, Write]\n---\n---\n"))
	f.Add([]byte("no front matter at all\n"))
	claude, _ := Default().Lookup("claude-code")
	codex, _ := Default().Lookup("codex")
	readerSets := [][]Adapter{{claude}, {codex}, {claude, codex}}
	f.Fuzz(func(t *testing.T, data []byte) {
		pkg, ds := format.Load(fstest.MapFS{"SKILL.md": {Data: data}}, format.LoadOptions{})
		if ds.HasErrors() || pkg.Entrypoint == nil {
			return
		}
		for _, readers := range readerSets {
			l, err := LayoutForRoot(pkg, readers)
			if err != nil {
				t.Fatalf("LayoutForRoot(%q) error = %v", data, err)
			}
			var entry []byte
			for _, e := range l.Entries {
				if e.Path == "SKILL.md" {
					entry = e.Content
				}
			}
			back, bds := format.DecodeEntrypoint(entry, "SKILL.md", format.KindSkill)
			if bds.HasErrors() || back == nil {
				t.Fatalf("projection of %q does not decode: %v\n%s", data, bds, entry)
			}
			if !bytes.Equal(back.Body, pkg.Entrypoint.Body) {
				t.Fatalf("projection of %q changed the body: %q, want %q", data, back.Body, pkg.Entrypoint.Body)
			}
			if got, _ := back.String("name"); got != pkg.Name() {
				t.Fatalf("projection of %q has name %q, want %q", data, got, pkg.Name())
			}
			wantDesc, _ := pkg.Entrypoint.String("description")
			if got, _ := back.String("description"); wantDesc != "" && got != wantDesc {
				t.Fatalf("projection of %q has description %q, want %q", data, got, wantDesc)
			}
		}
	})
}
