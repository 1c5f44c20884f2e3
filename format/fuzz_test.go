package format

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
)

func FuzzDecodeManifest(f *testing.F) {
	for _, seed := range []string{
		fullManifest,
		typicalManifest,
		"",
		"name: a\n---\nname: b\n",
		"a: &a [1]\nb: *a\n",
		"schemaVersion: 2\n",
		"files: 3\nkeywords: {a: b}\n",
		"authors: [\"A <a@b> (u)\", {name: B}]\nrepository: https://x\n",
		"agentOverrides: {codex: {interface: {display_name: X}}}\n",
		"\ufeffname: a\r\nversion: 1.0\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags := DecodeManifest(data, "skill.yaml")
		for _, d := range diags {
			if d.Code == "" || d.Message == "" || d.File != "skill.yaml" {
				t.Fatalf("DecodeManifest(%q) produced a malformed diagnostic %+v", data, d)
			}
		}
		if m == nil && len(diags) == 0 {
			t.Fatalf("DecodeManifest(%q) = nil manifest without diagnostics", data)
		}
	})
}

func FuzzSplitFrontMatter(f *testing.F) {
	for _, seed := range []string{
		typicalSkill,
		"",
		"---",
		"---\n---",
		"\ufeff---\r\na: 1\r\n---\r\nbody",
		"---\nd: |\n  ---\n---\n",
		"# no front matter\n",
		"---\nunclosed\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := SplitFrontMatter(data)
		if err != nil {
			return
		}
		if !fm.Present {
			if !bytes.Equal(fm.Body, bytes.TrimPrefix(data, []byte("\ufeff"))) || fm.BodyLine != 1 {
				t.Fatalf("SplitFrontMatter(%q) without front matter changed the body", data)
			}
			return
		}
		// Body must be a suffix of the input, Data must precede it, and the
		// body line must count the lines before the body.
		if !bytes.HasSuffix(data, fm.Body) {
			t.Fatalf("SplitFrontMatter(%q).Body is not a suffix of the input", data)
		}
		prefix := data[:len(data)-len(fm.Body)]
		if got := bytes.Count(prefix, []byte("\n")) + 1; got != fm.BodyLine && !(len(fm.Body) == 0 && got == fm.BodyLine-1) {
			t.Fatalf("SplitFrontMatter(%q).BodyLine = %d, want %d", data, fm.BodyLine, got)
		}
		if !bytes.Contains(prefix, fm.Data) {
			t.Fatalf("SplitFrontMatter(%q).Data is not inside the front matter", data)
		}
		_, _ = DecodeEntrypoint(data, "SKILL.md", KindSkill)
	})
}

func FuzzReadWorkflowMeta(f *testing.F) {
	for _, seed := range []string{
		"export const meta = { name: 'w', description: \"d\", n: -1.5e3, h: 0xff, a: [1, {b: null}], t: true, };\n",
		"const s = `${ {a: `x${'}'}`} }`; /* c */ const r = /[/]/g\nexport const meta = {}\n",
		"export const meta = { name: make() }\n",
		"export const meta = { ...x }\n",
		"export const meta = { [k]: 1 }\n",
		"export const meta = { a: '\\u{1F600}\\x41\\n\\\n' }\n",
		"export const meta = { a: 1 } + 2\n",
		"`${`${`${",
		"/*",
		"'",
		"export const meta = {",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, diags := ReadWorkflowMeta(data, "WORKFLOW.js")
		if e == nil && len(diags) == 0 {
			t.Fatalf("ReadWorkflowMeta(%q) = nil without diagnostics", data)
		}
		for _, d := range diags {
			if d.Code != "ASK_WORKFLOW_META_INVALID" && d.Code != "ASK_PACKAGE_TOO_LARGE" {
				t.Fatalf("ReadWorkflowMeta(%q) produced code %s", data, d.Code)
			}
		}
	})
}

// FuzzCheckPaths checks the portability rules on arbitrary path sets: a
// path CheckPath accepts is a valid, relative fs path free of the
// characters Windows refuses, and the paths CheckPaths does not report
// never name one file on a case-insensitive, normalising file system.
func FuzzCheckPaths(f *testing.F) {
	for _, s := range []string{"SKILL.md\nreferences/a.md", "A.md\na.md", "caf\u00e9\ncafe\u0301", "aux.md\nCOM\u00b9", "a\na/b", `x\y`, "../x\n/abs", "\u212a\nk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		paths := strings.Split(list, "\n")
		bad := map[string]bool{}
		for _, pe := range CheckPaths(paths) {
			bad[pe.Path] = true
		}
		folded := map[string]string{}
		for _, p := range paths {
			if err := CheckPath(p); err == nil {
				if !fs.ValidPath(p) || strings.ContainsAny(p, "\\<>:\"|?*") {
					t.Fatalf("CheckPath(%q) = nil, want an error", p)
				}
			} else if !bad[p] {
				t.Fatalf("CheckPaths(%q) does not report %q, which CheckPath refuses: %v", paths, p, err)
			}
			if bad[p] {
				continue
			}
			if q, ok := folded[FoldPath(p)]; ok && q != p {
				t.Fatalf("CheckPaths(%q) accepts both %q and %q, which FoldPath makes one", paths, q, p)
			}
			folded[FoldPath(p)] = p
		}
	})
}

// FuzzName keeps the two forms of the name grammar in step: ValidName
// accepts exactly the names CheckName finds nothing wrong with, and
// SuggestName proposes only names both accept.
func FuzzName(f *testing.F) {
	for _, seed := range []string{"java-basics", "a", "", "-", "a--b", "Java_Basics", "@org/skill", "héllo", strings.Repeat("a", 65)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		reasons := CheckName(name)
		if ValidName(name) != (len(reasons) == 0) {
			t.Fatalf("ValidName(%q) = %v, but CheckName(%q) = %q", name, ValidName(name), name, reasons)
		}
		if s := SuggestName(name); s != "" && (!ValidName(s) || len(CheckName(s)) != 0) {
			t.Fatalf("SuggestName(%q) = %q, which the grammar rejects: %q", name, s, CheckName(s))
		}
	})
}
