package readhook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fixture returns a payload captured from a real agent (testdata/, copied
// verbatim from the hosts helper's capture; see docs/evidence-hooks.md).
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseCapturedPayloads(t *testing.T) {
	tests := []struct {
		host, file string
		want       Candidate // Returned is compared by length only
		notRead    bool
	}{
		{"claude", "claude-read.json", Candidate{Host: "claude", EventKey: "claude:toolu_e2e", Session: "0276a2a0-87ac-4450-9bbe-d6270a03716f",
			Path: "/tmp/h36-lab/claude-read/proj/.claude/skills/demo/SKILL.md"}, false},
		{"claude", "claude-partial.json", Candidate{Host: "claude", EventKey: "claude:toolu_e2e", Session: "48b799dd-3a75-4fd0-bb73-6d326898625d",
			Path: "/tmp/h36-lab/claude-partial/proj/.claude/skills/demo/SKILL.md", Partial: true}, false},
		{"claude", "claude-missing-failure.json", Candidate{}, true},
		{"codex", "codex-cat.json", Candidate{Host: "codex", EventKey: "codex:01a23c5c-0ed6-7450-91bd-305a72f371d6:call_e2e", Session: "01a23c5c-0ed6-7450-91bd-305a72f371d6",
			Path: "/tmp/h36-lab/codex-cat/proj/.agents/skills/demo/SKILL.md"}, false},
		{"codex", "codex-sed.json", Candidate{Host: "codex", EventKey: "codex:01a23c5c-20a3-76b3-92bf-5b9b7849d951:call_e2e", Session: "01a23c5c-20a3-76b3-92bf-5b9b7849d951",
			Path: "/tmp/h36-lab/codex-sed/proj/.agents/skills/demo/SKILL.md", Partial: true, Lines: [2]int{1, 5}}, false},
		{"codex", "codex-relative-workdir.json", Candidate{Host: "codex", EventKey: "codex:01a23c5c-3c65-7181-bc45-d1b1cec6cfc0:call_e2e", Session: "01a23c5c-3c65-7181-bc45-d1b1cec6cfc0",
			Path: "/tmp/h36-lab/codex-relworkdir/proj/.agents/skills/demo/SKILL.md"}, false},
		// A failed cat still fires PostToolUse: Parse passes it on, Confine
		// refuses it because the output is not the file's bytes.
		{"codex", "codex-missing.json", Candidate{Host: "codex", EventKey: "codex:01a23c5c-23de-7fc0-bcc1-932c51c7c56c:call_e2e", Session: "01a23c5c-23de-7fc0-bcc1-932c51c7c56c",
			Path: "/tmp/h36-lab/codex-missing/proj/.agents/skills/demo/MISSING.md"}, false},
		{"gemini", "gemini-read.json", Candidate{Host: "gemini", Session: "91037880-35fb-4988-b5f4-641a76000bf9",
			At: time.Date(2026, 12, 3, 14, 43, 40, 792e6, time.UTC), Path: "/tmp/h36-lab/gemini-read/proj/.gemini/skills/demo/SKILL.md"}, false},
		{"gemini", "gemini-partial.json", Candidate{Host: "gemini", Session: "096a2647-754b-45c2-877b-20266c8eba6e",
			At: time.Date(2026, 12, 3, 14, 43, 47, 741e6, time.UTC), Path: "/tmp/h36-lab/gemini-partial/proj/.gemini/skills/demo/SKILL.md", Partial: true}, false},
		{"gemini", "gemini-missing.json", Candidate{}, true},
		{"copilot", "copilot-read.json", Candidate{Host: "copilot", Session: "b5623e31-9a3b-4137-8737-3be644e089e8",
			At: time.UnixMilli(1796309046935).UTC(), Path: "/tmp/h36-lab/copilot-read/proj/.github/skills/demo/SKILL.md"}, false},
		{"copilot", "copilot-partial.json", Candidate{Host: "copilot", Session: "2494db08-fffb-45ac-b6e3-9add42650e1e",
			At: time.UnixMilli(1796309054645).UTC(), Path: "/tmp/h36-lab/copilot-partial/proj/.github/skills/demo/SKILL.md", Partial: true}, false},
		{"copilot", "copilot-missing-failure.json", Candidate{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := Parse(tt.host, fixture(t, tt.file))
			if tt.notRead {
				if !errors.Is(err, ErrNotRead) {
					t.Fatalf("Parse = %+v, %v; want ErrNotRead", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.host == "codex" {
				if len(got.Returned) == 0 {
					t.Errorf("Returned is empty")
				}
			} else if got.Returned != nil {
				t.Errorf("Returned = %q, want nil: only Codex passes the output on", got.Returned)
			}
			got.Returned = nil
			if tt.want.EventKey == "" {
				if !strings.HasPrefix(got.EventKey, tt.host+":") || len(got.EventKey) != len(tt.host)+1+32 {
					t.Errorf("EventKey = %q", got.EventKey)
				}
				tt.want.EventKey = got.EventKey
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestParseKeepsNoBody checks that no part of the file body or the command
// survives in a Candidate of the hosts that are not Codex.
func TestParseKeepsNoBody(t *testing.T) {
	for _, f := range []string{"claude-read.json", "gemini-read.json", "copilot-read.json"} {
		host, _, _ := strings.Cut(f, "-")
		c, err := Parse(host, fixture(t, f))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(c)
		if strings.Contains(string(b), "line 2") {
			t.Errorf("%s: candidate holds the body: %s", f, b)
		}
	}
}

// TestParseEventKeys: a retry of the same event keeps its key; the same
// Gemini receipt at another timestamp or path gets another.
func TestParseEventKeys(t *testing.T) {
	base := string(fixture(t, "gemini-read.json"))
	key := func(s string) string {
		c, err := Parse("gemini", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c.EventKey
	}
	k := key(base)
	if key(base) != k {
		t.Error("the same receipt gave two keys")
	}
	if key(strings.Replace(base, "14:43:40.792Z", "14:43:40.793Z", 1)) == k {
		t.Error("another timestamp gave the same key")
	}
	if key(strings.Replace(base, "demo/SKILL.md", "demo/other.md", 1)) == k {
		t.Error("another path gave the same key")
	}
}

func TestParseRefusals(t *testing.T) {
	claude := string(fixture(t, "claude-read.json"))
	gemini := string(fixture(t, "gemini-read.json"))
	copilot := string(fixture(t, "copilot-read.json"))
	tests := []struct {
		name, host, payload string
		notRead             bool // else a malformed-payload error
	}{
		{"not JSON", "claude", "{", false},
		{"unknown host", "vim", claude, false},
		{"other tool", "claude", strings.Replace(claude, `"tool_name":"Read"`, `"tool_name":"Write"`, 1), true},
		{"other event", "claude", strings.Replace(claude, `"PostToolUse"`, `"PreToolUse"`, 1), true},
		{"no tool_use_id", "claude", strings.Replace(claude, `"tool_use_id":"toolu_e2e"`, `"tool_use_id":""`, 1), false},
		{"id with a space", "claude", strings.Replace(claude, `"tool_use_id":"toolu_e2e"`, `"tool_use_id":"a b"`, 1), false},
		{"no file in response", "claude", strings.Replace(claude, `"tool_response":{"type":"text","file"`, `"tool_response":{"type":"image","x"`, 1), true},
		{"relative path, relative cwd", "claude", strings.Replace(strings.Replace(claude, `"file_path":"/tmp`, `"file_path":"tmp`, 1), `"cwd":"/tmp`, `"cwd":"tmp`, 1), false},
		{"NUL in path", "claude", strings.Replace(claude, `"file_path":"/tmp`, `"file_path":"/t\u0000mp`, 1), false},
		{"gemini error object", "gemini", strings.Replace(gemini, `"returnDisplay":""`, `"returnDisplay":"","error":{"message":"x"}`, 1), true},
		{"gemini error string", "gemini", strings.Replace(gemini, `"returnDisplay":""`, `"returnDisplay":"","error":"denied"`, 1), true},
		{"gemini no timestamp", "gemini", strings.Replace(gemini, `"timestamp":"2026-12-03T14:43:40.792Z",`, ``, 1), false},
		{"gemini bad timestamp", "gemini", strings.Replace(gemini, `2026-12-03T14:43:40.792Z`, `yesterday`, 1), false},
		{"gemini other tool", "gemini", strings.Replace(gemini, `"read_file"`, `"read_many_files"`, 1), true},
		{"copilot other tool", "copilot", strings.Replace(copilot, `"toolName":"view"`, `"toolName":"bash"`, 1), true},
		{"copilot failure", "copilot", strings.Replace(copilot, `"resultType":"success"`, `"resultType":"failure"`, 1), true},
		{"copilot denied", "copilot", strings.Replace(copilot, `"resultType":"success"`, `"resultType":"denied"`, 1), true},
		{"copilot timestamp in seconds far past", "copilot", strings.Replace(copilot, `1796309046935`, `17963`, 1), false},
		{"copilot timestamp string", "copilot", strings.Replace(copilot, `1796309046935`, `"soon"`, 1), false},
		{"oversized", "claude", `{"x":"` + strings.Repeat("a", MaxPayload) + `"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.host, []byte(tt.payload))
			if err == nil {
				t.Fatalf("Parse = %+v, want an error", c)
			}
			if errors.Is(err, ErrNotRead) != tt.notRead {
				t.Fatalf("Parse error %v: ErrNotRead = %v, want %v", err, !tt.notRead, tt.notRead)
			}
		})
	}
}

// TestParseCopilotArgsString accepts toolArgs as the JSON string the
// documentation describes, beside the object the real agent sends.
func TestParseCopilotArgsString(t *testing.T) {
	p := `{"sessionId":"s","timestamp":1796309046935,"cwd":"/p","toolName":"view","toolArgs":"{\"path\":\"x/SKILL.md\"}","toolResult":{"resultType":"success"}}`
	c, err := Parse("copilot", []byte(p))
	if err != nil || c.Path != "/p/x/SKILL.md" {
		t.Fatalf("Parse = %+v, %v", c, err)
	}
}

func TestCommandForms(t *testing.T) {
	accepted := []struct {
		cmd   string
		path  string
		lines [2]int
	}{
		{`"cat /p/s/SKILL.md"`, "/p/s/SKILL.md", [2]int{}},
		{`"cat  '/p/my skill/SKILL.md'"`, "/p/my skill/SKILL.md", [2]int{}},
		{`"cat \"/p/s/SKILL.md\""`, "/p/s/SKILL.md", [2]int{}},
		{`"sed -n '1,5p' /p/s/SKILL.md"`, "/p/s/SKILL.md", [2]int{1, 5}},
		{`"sed -n 1,5p /p/s/SKILL.md"`, "/p/s/SKILL.md", [2]int{1, 5}},
		{`"sed -n 3p SKILL.md"`, "SKILL.md", [2]int{3, 3}},
		{`["cat","/p/s/SKILL.md"]`, "/p/s/SKILL.md", [2]int{}},
		{`["bash","-lc","cat /p/s/SKILL.md"]`, "/p/s/SKILL.md", [2]int{}},
		{`["/bin/sh","-c","sed -n '2,4p' /p/s/SKILL.md"]`, "/p/s/SKILL.md", [2]int{2, 4}},
		{`["cat","/p/odd $name/SKILL.md"]`, "/p/odd $name/SKILL.md", [2]int{}}, // argv: no shell, literal
	}
	for _, tt := range accepted {
		r, err := commandRead(json.RawMessage(tt.cmd))
		if err != nil || r.path != tt.path || r.lines != tt.lines {
			t.Errorf("commandRead(%s) = %+v, %v; want %s %v", tt.cmd, r, err, tt.path, tt.lines)
		}
	}
	refused := []string{
		`"cat /p/s/SKILL.md | head"`,
		`"cat /p/s/SKILL.md; rm -rf /"`,
		`"cat /p/s/SKILL.md && echo"`,
		`"cat /p/s/SKILL.md > /tmp/x"`,
		`"cat < /p/s/SKILL.md"`,
		`"cat /p/s/*.md"`,
		`"cat /p/s/SKILL.?d"`,
		`"cat $HOME/s/SKILL.md"`,
		`"cat \"$HOME/s/SKILL.md\""`,
		"\"cat `pwd`/SKILL.md\"",
		`"cat $(pwd)/SKILL.md"`,
		`"cat <<EOF\nx\nEOF"`,
		`"cat ~/s/SKILL.md"`,
		`"cat /p/s/SKILL.md /p/s/other.md"`,
		`"cat -A /p/s/SKILL.md"`,
		`"cat /p/'s'/SKILL.md"`,
		`"cat '/p/s/SKILL.md"`,
		`"cat /p/s\\ x/SKILL.md"`,
		`"sed -n '1,5p;w /tmp/x' /p/s/SKILL.md"`,
		`"sed -n '5,1p' /p/s/SKILL.md"`,
		`"sed -n '0,3p' /p/s/SKILL.md"`,
		`"sed -n '1,$p' /p/s/SKILL.md"`,
		`"sed '1,5p' /p/s/SKILL.md"`,
		`"sed -n 'e id' /p/s/SKILL.md"`,
		`"head -n 5 /p/s/SKILL.md"`,
		`"nl /p/s/SKILL.md"`,
		`"cat\n/p/s/SKILL.md"`,
		`"cat /p/s/SKILL.md &"`,
		`"FOO=1 cat /p/s/SKILL.md"`,
		`""`,
		`["bash","-lc","cat /p/s/SKILL.md | sh"]`,
		`["bash","-c","cat","/p/s/SKILL.md"]`,
		`["cat","-n","/p/s/SKILL.md"]`,
		`["cat","/p/s\nx"]`,
		`{"cmd":"cat /p"}`,
		`42`,
	}
	for _, cmd := range refused {
		if r, err := commandRead(json.RawMessage(cmd)); !errors.Is(err, ErrNotRead) {
			t.Errorf("commandRead(%s) = %+v, %v; want ErrNotRead", cmd, r, err)
		}
	}
}

func TestPrinted(t *testing.T) {
	data := []byte("a\nb\nc\nd")
	for _, tt := range []struct {
		lines [2]int
		want  string
	}{
		{[2]int{}, "a\nb\nc\nd"}, {[2]int{1, 1}, "a\n"}, {[2]int{2, 3}, "b\nc\n"},
		{[2]int{3, 9}, "c\nd"}, {[2]int{4, 4}, "d"}, {[2]int{5, 9}, ""},
	} {
		if got := string(printed(data, tt.lines)); got != tt.want {
			t.Errorf("printed(%v) = %q, want %q", tt.lines, got, tt.want)
		}
	}
}

// layout makes a project with one installed skill and returns the skill.
func layout(t *testing.T) (InstalledSkill, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "proj", ".claude", "skills")
	dir := filepath.Join(root, "demo")
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: demo\ndescription: d\n---\n# Demo\nline 2\n")
	write(t, filepath.Join(dir, "references", "guide.md"), "# Guide\n")
	write(t, filepath.Join(dir, "scripts", "run.sh"), "echo\n")
	return InstalledSkill{Name: "demo", Scope: "project", Project: filepath.Join(base, "proj"), Root: root, Dir: dir, Version: "1.0.0"}, base
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfine(t *testing.T) {
	s, base := layout(t)
	skills := []InstalledSkill{s}
	obs, err := Confine(Candidate{Host: "claude", Path: filepath.Join(s.Dir, "SKILL.md")}, skills)
	if err != nil {
		t.Fatal(err)
	}
	if obs.Skill.Name != "demo" || obs.File != "SKILL.md" || obs.Kind != "entrypoint" || obs.Skill.Version != "1.0.0" ||
		obs.Digest != "sha256:"+sha("---\nname: demo\ndescription: d\n---\n# Demo\nline 2\n") {
		t.Errorf("Confine = %+v", obs)
	}
	obs, err = Confine(Candidate{Host: "gemini", Path: filepath.Join(s.Dir, "references", "guide.md")}, skills)
	if err != nil || obs.File != "references/guide.md" || obs.Kind != "reference" {
		t.Errorf("reference: %+v, %v", obs, err)
	}

	// A link into the skill from elsewhere resolves into it and counts.
	link := filepath.Join(base, "proj", "alias.md")
	if err := os.Symlink(filepath.Join(s.Dir, "SKILL.md"), link); err != nil {
		t.Fatal(err)
	}
	if obs, err := Confine(Candidate{Host: "claude", Path: link}, skills); err != nil || obs.File != "SKILL.md" {
		t.Errorf("link into the skill: %+v, %v", obs, err)
	}

	// Links out of the skill: a reference that points outside it.
	write(t, filepath.Join(base, "outside.md"), "# secret\n")
	if err := os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(s.Dir, "references", "out.md")); err != nil {
		t.Fatal(err)
	}
	// A skill folder that is a link out of its root.
	write(t, filepath.Join(base, "elsewhere", "SKILL.md"), "---\nname: linked\n---\n")
	linked := InstalledSkill{Name: "linked", Scope: "project", Root: s.Root, Dir: filepath.Join(s.Root, "linked")}
	if err := os.Symlink(filepath.Join(base, "elsewhere"), linked.Dir); err != nil {
		t.Fatal(err)
	}
	// A root that is a link elsewhere is fine when the folder stays in it;
	// here the skill folder inside the resolved root links back out.
	if err := os.MkdirAll(filepath.Join(s.Dir, "adir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	refused := []struct{ name, path string }{
		{"link out of the skill", filepath.Join(s.Dir, "references", "out.md")},
		{"skill folder linked out of the root", filepath.Join(linked.Dir, "SKILL.md")},
		{"non-skill file", filepath.Join(base, "outside.md")},
		{"a directory", filepath.Join(s.Dir, "adir.md")},
		{"the skill folder itself", s.Dir},
		{"missing file", filepath.Join(s.Dir, "MISSING.md")},
		{"not Markdown", filepath.Join(s.Dir, "scripts", "run.sh")},
		{"the root", s.Root},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			obs, err := Confine(Candidate{Host: "claude", Path: tt.path}, append(skills, linked))
			if !errors.Is(err, ErrNotSkill) {
				t.Fatalf("Confine = %+v, %v; want ErrNotSkill", obs, err)
			}
		})
	}
}

func TestConfineCodex(t *testing.T) {
	s, _ := layout(t)
	skills := []InstalledSkill{s}
	body := "---\nname: demo\ndescription: d\n---\n# Demo\nline 2\n"
	entry := filepath.Join(s.Dir, "SKILL.md")
	ok := []Candidate{
		{Host: "codex", Path: entry, Returned: []byte(body)},
		{Host: "codex", Path: entry, Returned: []byte("---\nname: demo\n"), Lines: [2]int{1, 2}},
		{Host: "codex", Path: entry, Returned: []byte("line 2\n"), Lines: [2]int{6, 6}},
	}
	for _, c := range ok {
		if obs, err := Confine(c, skills); err != nil || obs.Kind != "entrypoint" {
			t.Errorf("Confine(%q %v) = %+v, %v", c.Returned, c.Lines, obs, err)
		}
	}
	bad := []Candidate{
		{Host: "codex", Path: entry, Returned: []byte(body + "x")},
		{Host: "codex", Path: entry, Returned: []byte("cat: " + entry + ": No such file or directory\n")},
		{Host: "codex", Path: entry, Returned: []byte(""), Lines: [2]int{50, 60}},
		{Host: "codex", Path: entry, Returned: []byte("---\n"), Lines: [2]int{1, 2}},
		{Host: "codex", Path: filepath.Join(s.Dir, "references", "guide.md"), Returned: []byte("# Guide\n")},
	}
	for _, c := range bad {
		if obs, err := Confine(c, skills); !errors.Is(err, ErrNotSkill) {
			t.Errorf("Confine(%q %v) = %+v, %v; want ErrNotSkill", c.Returned, c.Lines, obs, err)
		}
	}
}

// FuzzParse: no payload panics Parse, and what it accepts is bounded and
// absolute.
func FuzzParse(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			b, _ := os.ReadFile(filepath.Join("testdata", e.Name()))
			host, _, _ := strings.Cut(e.Name(), "-")
			f.Add(host, b)
		}
	}
	f.Add("codex", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"x","cwd":"/","tool_input":{"command":["bash","-lc","sed -n '1,2p' a"]},"tool_response":"a"}`))
	f.Fuzz(func(t *testing.T, host string, payload []byte) {
		c, err := Parse(host, payload)
		if err != nil {
			return
		}
		if !filepath.IsAbs(c.Path) || c.EventKey == "" || len(c.EventKey) > 2*maxIDLen+64 || c.Host != host {
			t.Fatalf("accepted %+v", c)
		}
		if c.Host != "codex" && c.Returned != nil {
			t.Fatalf("Returned kept for %s", host)
		}
	})
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestConfineSymlinkedFolder: a skill folder that links to a sibling in
// its root (captured: the hosts send the path as typed, unresolved) is
// counted for the folder the host named, whichever sorts first.
func TestConfineSymlinkedFolder(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj", ".claude", "skills")
	write(t, filepath.Join(root, "alpha", "SKILL.md"), "---\nname: alpha\n---\n")
	if err := os.Symlink("alpha", filepath.Join(root, "zeta")); err != nil {
		t.Fatal(err)
	}
	skills := []InstalledSkill{
		{Name: "alpha", Scope: "project", Root: root, Dir: filepath.Join(root, "alpha")},
		{Name: "zeta", Scope: "project", Root: root, Dir: filepath.Join(root, "zeta")},
	}
	for _, name := range []string{"alpha", "zeta"} {
		obs, err := Confine(Candidate{Host: "claude", Path: filepath.Join(root, name, "SKILL.md")}, skills)
		if err != nil || obs.Skill.Name != name || obs.File != "SKILL.md" {
			t.Errorf("%s: Confine = %+v, %v", name, obs, err)
		}
	}
}

// TestParseSkillTools: the hosts' own skill tools (captured) are no file
// read.
func TestParseSkillTools(t *testing.T) {
	for _, f := range []string{"claude-skill-tool.json", "copilot-skill-tool.json"} {
		host, _, _ := strings.Cut(f, "-")
		if c, err := Parse(host, fixture(t, f)); !errors.Is(err, ErrNotRead) {
			t.Errorf("%s: Parse = %+v, %v; want ErrNotRead", f, c, err)
		}
	}
	for _, f := range []string{"claude-symlinked-folder.json", "gemini-symlinked-folder.json", "copilot-symlinked-folder.json"} {
		host, _, _ := strings.Cut(f, "-")
		if c, err := Parse(host, fixture(t, f)); err != nil || !strings.HasSuffix(c.Path, "/skills/demo/SKILL.md") {
			t.Errorf("%s: Parse = %+v, %v", f, c, err)
		}
	}
}
