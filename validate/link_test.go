package validate

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

func TestLinks(t *testing.T) {
	body := "# Title\n" + // line 5
		"\n" +
		"See [guide](references/guide%20v2.md#usage) and ![logo](assets/logo.png \"Logo\").\n" + // 7
		"\n" +
		"Inline `[code](not-a-link.md)` is skipped.\n" + // 9
		"\n" +
		"```\n[fenced](not-a-link.md)\n```\n" + // 11-13
		"\n" +
		"    [indented](not-a-link.md)\n" + // 15
		"\n" +
		"Use [the ref][r], [up](../outside.md), [abs](/etc/passwd) and [drive](C:/x).\n" + // 17
		"[web](https://example.com) [mail](mailto:a@b.c) <https://auto.link> [top](#top) [q](?x=1)\n" + // 18
		"- [é](ünï.md?raw=1) [dot](./scripts/../scripts/run.sh) [file](file:///etc/hosts) [net](//host/x)\n" + // 19
		"\n" +
		"[r]: references/ref.md\n"
	got := Links([]byte(body), 5, ".")
	want := []Link{
		{Pos: format.Pos{Line: 7, Col: 5}, Destination: "references/guide%20v2.md#usage", Kind: LinkRelative, Target: "references/guide v2.md"},
		{Pos: format.Pos{Line: 7, Col: 49}, Destination: "assets/logo.png", Image: true, Kind: LinkRelative, Target: "assets/logo.png"},
		{Pos: format.Pos{Line: 17, Col: 5}, Destination: "references/ref.md", Kind: LinkRelative, Target: "references/ref.md"},
		{Pos: format.Pos{Line: 17, Col: 19}, Destination: "../outside.md", Kind: LinkEscaping, Sibling: "outside.md"},
		{Pos: format.Pos{Line: 17, Col: 40}, Destination: "/etc/passwd", Kind: LinkAbsolute},
		{Pos: format.Pos{Line: 17, Col: 63}, Destination: "C:/x", Kind: LinkAbsolute},
		{Pos: format.Pos{Line: 18, Col: 1}, Destination: "https://example.com", Kind: LinkExternal},
		{Pos: format.Pos{Line: 18, Col: 28}, Destination: "mailto:a@b.c", Kind: LinkExternal},
		{Pos: format.Pos{Line: 18, Col: 69}, Destination: "#top", Kind: LinkFragment},
		{Pos: format.Pos{Line: 18, Col: 81}, Destination: "?x=1", Kind: LinkFragment},
		{Pos: format.Pos{Line: 19, Col: 3}, Destination: "ünï.md?raw=1", Kind: LinkRelative, Target: "ünï.md"},
		{Pos: format.Pos{Line: 19, Col: 21}, Destination: "./scripts/../scripts/run.sh", Kind: LinkRelative, Target: "scripts/run.sh"},
		{Pos: format.Pos{Line: 19, Col: 56}, Destination: "file:///etc/hosts", Kind: LinkAbsolute},
		{Pos: format.Pos{Line: 19, Col: 82}, Destination: "//host/x", Kind: LinkExternal},
	}
	if len(got) != len(want) {
		t.Fatalf("Links() = %d links %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Links()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestLinksInSubdirectory(t *testing.T) {
	got := Links([]byte("[a](../SKILL.md) [b](../../x.md) [c](d.md)"), 1, "references")
	want := []struct {
		kind   LinkKind
		target string
	}{{LinkRelative, "SKILL.md"}, {LinkEscaping, ""}, {LinkRelative, "references/d.md"}}
	if len(got) != len(want) {
		t.Fatalf("Links() = %+v, want %d links", got, len(want))
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].Target != w.target {
			t.Errorf("Links()[%d] = %v %q, want %v %q", i, got[i].Kind, got[i].Target, w.kind, w.target)
		}
	}
}

func TestLinkKindString(t *testing.T) {
	for k, want := range map[LinkKind]string{LinkRelative: "relative", LinkExternal: "external", LinkFragment: "fragment", LinkAbsolute: "absolute", LinkEscaping: "escaping"} {
		if got := k.String(); got != want {
			t.Errorf("LinkKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func FuzzLinks(f *testing.F) {
	for _, s := range []string{"[a](b.md)", "![i](../x.png)", "[r]\n\n[r]: /abs", "`[c](d)`", "[a](%zz)", "[é](ü%20.md#f)", "<https://x>", "[x](C:\\y)"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, body string, start int) {
		start = max(1, start%1000)
		lines := 1
		for i := 0; i < len(body); i++ {
			if body[i] == '\n' {
				lines++
			}
		}
		for _, l := range Links([]byte(body), start, ".") {
			if l.Pos.Line < start || l.Pos.Line >= start+lines || l.Pos.Col < 1 {
				t.Fatalf("Links(%q) position %v outside the body (lines %d-%d)", body, l.Pos, start, start+lines-1)
			}
			if l.Kind == LinkRelative && (l.Target == ".." || len(l.Target) > 2 && l.Target[:3] == "../" || l.Target != "" && l.Target[0] == '/') {
				t.Fatalf("Links(%q) relative target %q leaves the package", body, l.Target)
			}
		}
	})
}

// TestLinksBaseDir: Claude Code replaces {baseDir} with the skill's
// folder, so such a link points into the package from any file.
func TestLinksBaseDir(t *testing.T) {
	got := Links([]byte("[a]({baseDir}/references/x.md) [b](%7BbaseDir%7D/y.md) [c]({baseDir}) [d]({baseDir}/../z.md) [e](../../beta/SKILL.md) [f](../../../x/y.md)"), 1, "references")
	want := []struct {
		kind            LinkKind
		target, sibling string
	}{
		{LinkRelative, "references/x.md", ""},
		{LinkRelative, "y.md", ""},
		{LinkRelative, ".", ""},
		{LinkEscaping, "", "z.md"},
		{LinkEscaping, "", "beta"}, // from references/, into a sibling
		{LinkEscaping, "", ""},     // two levels above the package
	}
	if len(got) != len(want) {
		t.Fatalf("Links() = %+v, want %d links", got, len(want))
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].Target != w.target || got[i].Sibling != w.sibling {
			t.Errorf("Links()[%d] (%q) = %s %q %q, want %s %q %q", i, got[i].Destination, got[i].Kind, got[i].Target, got[i].Sibling, w.kind, w.target, w.sibling)
		}
	}
}

// TestBaseDirLinkIsChecked: a {baseDir} link to a shipped file is fine, one
// to a missing file is broken, at every gate.
func TestBaseDirLinkIsChecked(t *testing.T) {
	fsys := bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\nSee [x]({baseDir}/references/x.md) and [y]({baseDir}/references/y.md).\n")
	fsys["references/x.md"] = &fstest.MapFile{Data: []byte("# x\n")}
	got := Dir(fsys, "pkg", Options{})
	if len(got) != 1 || got[0].Code != CodeLinkBroken || !strings.Contains(got[0].Message, "references/y.md") {
		t.Errorf("Dir() = %v, want one ASK_LINK_BROKEN for references/y.md", got)
	}
}
