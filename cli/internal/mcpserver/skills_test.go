package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// memStore serves skills from memory.
type memStore struct {
	skills map[SkillRef]map[string]string
}

func (m *memStore) ServedSkills(context.Context) ([]SkillRef, error) {
	var refs []SkillRef
	for r := range m.skills {
		refs = append(refs, r)
	}
	return refs, nil
}

func (m *memStore) OpenSkill(_ context.Context, ref SkillRef) (SkillFiles, error) {
	files, ok := m.skills[ref]
	if !ok {
		return SkillFiles{}, NotServed("no skill %s", ref.Name)
	}
	var names []string
	for p := range files {
		names = append(names, p)
	}
	slices.Sort(names)
	return SkillFiles{Files: names, Read: func(rel string) ([]byte, error) {
		b, ok := files[rel]
		if !ok {
			return nil, errors.New("missing")
		}
		return []byte(b), nil
	}}, nil
}

// skillMDOf is a SKILL.md with a description of n bytes.
func skillMDOf(name string, n int) string {
	return "---\nname: " + name + "\ndescription: " + strings.Repeat("d", n) + "\n---\nBody.\n"
}

// TestListPageBounds: pages hold at most SkillsPageSize entries and stop
// after SkillsPageBytes, never split an entry, skip unservable skills and
// together list every servable skill once, in URI order.
func TestListPageBounds(t *testing.T) {
	st := &memStore{skills: map[SkillRef]map[string]string{}}
	var want []string
	for i := range 130 {
		ref := SkillRef{Origin: OriginGlobal, Name: fmt.Sprintf("k-%03d", i)}
		size := 10
		if i%20 == 0 {
			size = 300 << 10 // four of these fill a page by bytes
		}
		st.skills[ref] = map[string]string{"SKILL.md": skillMDOf(ref.Name, size), "a/b.txt": "x"}
		want = append(want, ref.FileURI("SKILL.md"))
	}
	// Not servable: front matter names another skill.
	st.skills[SkillRef{Origin: OriginProject, Name: "liar"}] = map[string]string{"SKILL.md": skillMDOf("other", 5)}
	var got []string
	after, pages := "", 0
	for {
		page, next, err := listPage(context.Background(), st, after)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page) == 0 || len(page) > SkillsPageSize {
			t.Fatalf("page %d has %d entries", pages, len(page))
		}
		size := 0
		for i, b := range page {
			if len(b.entry.Resources) != 2 {
				t.Errorf("%s: %d resources, want 2", b.entry.URI, len(b.entry.Resources))
			}
			enc, _ := json.Marshal(b.entry)
			if i < len(page)-1 {
				size += len(enc)
			}
			got = append(got, b.entry.URI)
		}
		if size >= SkillsPageBytes {
			t.Errorf("page %d went on after %d bytes", pages, size)
		}
		if next == "" {
			break
		}
		if after, err = DecodeCursor(next); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("listed %d skills, want %d in order", len(got), len(want))
	}
	if pages < 3 {
		t.Errorf("%d pages; the byte bound should add pages", pages)
	}
}

// TestFrontmatter: every field passes through as JSON; timestamps stay
// text; what JSON cannot hold is refused.
func TestFrontmatter(t *testing.T) {
	fm, err := Frontmatter([]byte("---\nname: x\ndescription: >-\n  folded\n  text\nversion: 1.0\nwhen: 2026-01-02\n" +
		"metadata: {a: [1, true, null]}\nallowed-tools: Bash\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(fm)
	const want = `{"allowed-tools":"Bash","description":"folded text","metadata":{"a":[1,true,null]},"name":"x","version":1,"when":"2026-01-02"}`
	if string(b) != want {
		t.Errorf("front matter = %s\nwant %s", b, want)
	}
	for _, bad := range []string{
		"no front matter\n",
		"---\nname: x\n---\n",
		"---\nname: x\ndescription: y\n1: z\n---\n",
		"---\nname: x\ndescription: y\nn: .nan\n---\n",
		"---\n- a\n---\n",
		"---\nname: [x]\ndescription: y\n---\n",
		"---\nname: x\ndescription: y\na: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
			"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n---\n",
	} {
		if _, err := Frontmatter([]byte(bad)); err == nil {
			t.Errorf("Frontmatter(%q) accepted", bad)
		}
	}
}

// TestParseSkillURI: the origins, escaping, and the shapes refused.
func TestParseSkillURI(t *testing.T) {
	ref := SkillRef{Origin: RegistryOrigin("acme"), Name: "refunds"}
	uri := ref.FileURI("docs/a file%.md")
	if uri != "skill://registry/acme/refunds/docs/a%20file%25.md" {
		t.Errorf("FileURI = %s", uri)
	}
	got, rel, err := ParseSkillURI(uri)
	if err != nil || got != ref || rel != "docs/a file%.md" {
		t.Errorf("ParseSkillURI(%s) = %v %q %v", uri, got, rel, err)
	}
	for _, bad := range []string{"skill://installed/project/x", "skill://installed/other/x/SKILL.md",
		"skill://registry/Bad/x/SKILL.md", "skill://registry/acme/NOT_A_NAME/SKILL.md", "skill://installed/global/x//a",
		"skill://installed/global/x/a%2", "skill://installed/global/x/a?b", "file:///etc/passwd", "skill://installed/global/x/%2F"} {
		if _, _, err := ParseSkillURI(bad); err == nil {
			t.Errorf("ParseSkillURI(%q) accepted", bad)
		}
	}
}

// TestSkillMethodsOverLineTransport: skills/list and skills/get are
// answered by the transport, the SDK answers the rest, and the session
// declares the extension.
func TestSkillMethodsOverLineTransport(t *testing.T) {
	ref := SkillRef{Origin: OriginProject, Name: "demo"}
	st := &memStore{skills: map[SkillRef]map[string]string{ref: {"SKILL.md": skillMDOf("demo", 4), "x.bin": "\x00\xff", "a b%.md": "spaced"}}}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"skills/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://installed/project/demo/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"skills/get","params":{"uri":"skill://installed/project/gone/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"skills/get","params":"nope"}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"skill://installed/project/demo/x.bin"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"skill://installed/project/demo/y"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"skill://installed/project/demo/a%20b%25.md"}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	srv := New(&fakeBackend{}, Options{Skills: st})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Run(ctx, &LineTransport{In: strings.NewReader(in), Out: &out, Methods: SkillMethods(st)}); err != nil && !errors.Is(err, io.EOF) {
		t.Logf("Run: %v", err)
	}
	got := out.String()
	for _, want := range []string{
		`"extensions":{"io.modelcontextprotocol/skills":{}}`,
		`"id":2,"result":{"resultType":"complete","skills":[{"uri":"skill://installed/project/demo/SKILL.md"`,
		`"ttlMs":60000,"cacheScope":"private"`,
		`"id":3,"result":{"resultType":"complete","skill":{`,
		`"id":4,"error":{"code":-32602,"message":"No skill is served at skill://installed/project/gone/SKILL.md`,
		`"id":5,"error":{"code":-32602`,
		`"id":6,"result":{"ttlMs":60000,"cacheScope":"private","contents":[{"uri":"skill://installed/project/demo/x.bin","mimeType":"application/octet-stream","blob":"AP8="}]}`,
		`"id":7,"error":{"code":-32602,"message":"Resource not found`,
		`"id":8,"result":{"ttlMs":60000,"cacheScope":"private","contents":[{"uri":"skill://installed/project/demo/a%20b%25.md","mimeType":"text/markdown","text":"spaced"}]}`,
		`{"uri":"skill://installed/project/demo/a%20b%25.md","digest":"sha256:`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %s\n%s", want, got)
		}
	}
}

// FuzzDecodeCursor: decoding never panics, and an accepted cursor is the
// one EncodeCursor gives for what it carries.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(EncodeCursor("skill://installed/global/x"))
	f.Add(EncodeCursor("skill://registry/bundled/java-basics"))
	f.Add("")
	f.Add("djE6")
	f.Add(strings.Repeat("A", 3000))
	f.Fuzz(func(t *testing.T, c string) {
		after, err := DecodeCursor(c)
		if err != nil {
			return
		}
		if EncodeCursor(after) != c {
			t.Errorf("DecodeCursor(%q) = %q, which encodes as %q", c, after, EncodeCursor(after))
		}
		if _, _, err := ParseSkillURI(after + "/SKILL.md"); err != nil {
			t.Errorf("accepted cursor %q carries %q: %v", c, after, err)
		}
	})
}

// FuzzParseSkillURI: parsing never panics, and an accepted URI's skill and
// file give back a URI that parses to the same.
func FuzzParseSkillURI(f *testing.F) {
	f.Add("skill://installed/global/x/SKILL.md")
	f.Add("skill://registry/acme/refunds/a%20b/c.md")
	f.Add("skill://installed/project/x/%2e%2e/y")
	f.Fuzz(func(t *testing.T, uri string) {
		ref, rel, err := ParseSkillURI(uri)
		if err != nil {
			return
		}
		ref2, rel2, err := ParseSkillURI(ref.FileURI(rel))
		if err != nil || ref2 != ref || rel2 != rel {
			t.Errorf("%q → %v %q → %q → %v %q %v", uri, ref, rel, ref.FileURI(rel), ref2, rel2, err)
		}
	})
}
