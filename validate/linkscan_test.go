package validate

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// checkCandidates asserts that every destination Links finds in body is
// one of linkCandidates', when linkCandidates is sure; it returns whether
// it was.
func checkCandidates(t *testing.T, body string) bool {
	t.Helper()
	dests, ok := linkCandidates([]byte(body))
	if !ok {
		return false
	}
	for _, l := range Links([]byte(body), 1, ".") {
		if !slices.Contains(dests, l.Destination) {
			t.Fatalf("Links(%q) found destination %q, which linkCandidates(%q) = %q misses", body, l.Destination, body, dests)
		}
	}
	return true
}

func TestLinkCandidatesSuperset(t *testing.T) {
	sure := []string{
		"See [guide](references/guide.md) and ![logo](assets/logo.png \"Logo\").\n",
		"[a](\n  b.md)\n[ref][r] [r] [x]: not\n\n[r]:\n  references/r.md 'title'\n",
		"`[code](in-code.md)` and\n```\n[fenced](x.md)\n```\n    [indented](y.md)\n",
		"> [quoted](q.md)\n- [item](i.md)\n  1. [deep](d.md)\n\n[foo\nbar]: /multi-line-label\n[foo bar]\n",
		"[a]() [b]( ) [c](#f) [d](?q) [e](https://x.y/z) [f](x.md) [g]({baseDir}/h.md)",
		"*[emph*](e.md) [nested [inner](in.md)](out.md) [a](b.md)c)",
		"no links at all",
	}
	for _, b := range sure {
		if !checkCandidates(t, b) {
			t.Errorf("linkCandidates(%q) declined, want it sure", b)
		}
	}
	for _, b := range []string{`[a](b\).md)`, "[a](&#46;&#46;/x)", "[a](%2E%2E/x)", "[a](<b c.md>)", "[a](b(c).md)", "<a href=x>"} {
		if _, ok := linkCandidates([]byte(b)); ok {
			t.Errorf("linkCandidates(%q) is sure, want it to decline", b)
		}
	}
}

func FuzzLinkCandidates(f *testing.F) {
	for _, s := range []string{"[a](b.md)", "![i](../x.png)", "[r]\n\n[r]: /abs", "`[c](d)`", "[a](\nb)", "[a]:\n b", "[a [b](c)](d)", "[x](y \"t\")", "[a]( \"t\")"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) { checkCandidates(t, body) })
}

// The prefilter never changes what Package reports: with and without it
// (a body that makes linkCandidates decline), the same diagnostics.
func TestLinksHarmlessSameDiagnostics(t *testing.T) {
	bodies := []string{
		"See [x](references/x.md) and [web](https://e.x) [top](#t).\n",
		"See [x](references/x.md), [gone](references/gone.md).\n",
		"See [up](../other/SKILL.md) and [abs](/etc/passwd).\n",
		"See [dir](references) and [base]({baseDir}/references/x.md).\n",
		"`[in code](missing.md)` only.\n",
	}
	for _, body := range bodies {
		for _, gate := range []Gate{GateDefault, GateStrict, GateInstall} {
			fast := bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\n" + body)
			fast["references/x.md"] = &fstest.MapFile{Data: []byte("# x\n")}
			slow := bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\n" + body + "\\\n") // a backslash: no prefilter
			slow["references/x.md"] = &fstest.MapFile{Data: []byte("# x\n")}
			got, want := Dir(fast, "pkg", Options{Gate: gate}), Dir(slow, "pkg", Options{Gate: gate})
			if len(got) != len(want) {
				t.Fatalf("gate %v, %q: prefiltered %v, parsed %v", gate, body, got, want)
			}
			for i := range got {
				if got[i].String() != want[i].String() {
					t.Errorf("gate %v, %q: prefiltered %v, parsed %v", gate, body, got[i], want[i])
				}
			}
		}
	}
	c := &checker{pkg: &format.Package{Files: []string{"SKILL.md", "references/x.md"}}}
	for body, want := range map[string]bool{
		"[x](references/x.md) [w](https://e) [f](#a) [e]()": true,
		"[x](references/y.md)":                              false,
		"[x](../y.md)":                                      false,
		"[x](/y.md)":                                        false,
		"`[x](../y.md)` in code":                            false, // a candidate, so parsed
		strings.Repeat("plain text ", 10):                   true,
	} {
		if got := c.linksHarmless([]byte(body), "."); got != want {
			t.Errorf("linksHarmless(%q) = %v, want %v", body, got, want)
		}
	}
}
