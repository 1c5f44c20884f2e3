package source

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
)

func TestParseMCP(t *testing.T) {
	tests := []struct {
		in, command, url, identity, err string
	}{
		{in: "mcp:python3 server.py", command: "python3 server.py", identity: "mcp:python3 server.py"},
		{in: `mcp:  'python3'   "server.py"  `, command: "python3 server.py", identity: "mcp:python3 server.py"},
		{in: `mcp:node 'my server.js' --flag="a b" it\'s`, command: `node 'my server.js' '--flag=a b' 'it'\''s'`},
		{in: `mcp:x 'a|b' "c;d" ~/y a~b`, command: `x 'a|b' 'c;d'`, err: "~"},
		{in: `mcp:x a~b c#d`, command: `x 'a~b' 'c#d'`},
		{in: "mcp:python3 server.py | tee", err: `"|"`},
		{in: "mcp:echo $HOME", err: `"$"`},
		{in: "mcp:a 'b", err: "never closed"},
		{in: `mcp:a "b`, err: "never closed"},
		{in: `mcp:a \`, err: "backslash"},
		{in: "mcp:", err: "write mcp:"},
		{in: "mcp:-x", err: "must not start with '-'"},
		{in: "mcp+https://Example.COM/mcp/", url: "https://Example.COM/mcp/", identity: "mcp+https://example.com/mcp"},
		{in: "mcp+http://127.0.0.1:8080/mcp", url: "http://127.0.0.1:8080/mcp", identity: "mcp+http://127.0.0.1:8080/mcp"},
		{in: "mcp+http://example.com/mcp", err: "plain http"},
		{in: "mcp+https://u:secret@example.com/mcp", err: "user information"},
		{in: "mcp+https://example.com/mcp#x", err: "fragment"},
		{in: "mcp+https:///mcp", err: "write mcp+https://"},
	}
	for _, tt := range tests {
		r, ok, err := Parse(tt.in, "/cwd", nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !askerr.Is(err, CodeSourceInvalid) {
				t.Errorf("Parse(%q) = %+v, %v; want an ASK_SOURCE_INVALID error containing %q", tt.in, r, err, tt.err)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("Parse(%q): the error shows the password: %v", tt.in, err)
			}
			continue
		}
		if err != nil || !ok || r.Kind != KindMCP || r.Command != tt.command || r.URL != tt.url {
			t.Errorf("Parse(%q) = %+v, %v, %v; want command %q url %q", tt.in, r, ok, err, tt.command, tt.url)
			continue
		}
		if tt.identity != "" && Identity(r, nil) != tt.identity {
			t.Errorf("Identity(%q) = %q, want %q", tt.in, Identity(r, nil), tt.identity)
		}
		// The recorded source reads back as the same server.
		back, err := pinRef(Pin{Source: Record(r, nil), Subpath: "a/b"})
		if err != nil || back.Kind != KindMCP || back.Command != r.Command || back.Subpath != "a/b" {
			t.Errorf("pinRef(Record(%q)) = %+v, %v", tt.in, back, err)
		}
	}
}

func TestSplitJoinWords(t *testing.T) {
	for _, words := range [][]string{
		{"a"}, {"a", "b c"}, {"it's", `"q"`, `back\slash`, ""}, {"x|y", "$HOME", "~", "#c", "tab\there"},
	} {
		got, why := splitWords(joinWords(words))
		if why != "" || !slices.Equal(got, words) {
			t.Errorf("splitWords(joinWords(%q)) = %q, %q", words, got, why)
		}
	}
}

// fixture returns the argv of the SEP-2640 fixture server of the
// testscripts, skipping the test when python3 is missing.
func fixture(t *testing.T) string {
	t.Helper()
	py, server := fixtureArgs(t)
	return joinWords([]string{py, server})
}

// fixtureArgs returns python3 and the fixture server's path, skipping the
// test when either is missing.
func fixtureArgs(t *testing.T) (string, string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	server, err := filepath.Abs(filepath.Join("..", "..", "..", "testscripts", "testdata", "sep2640", "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(server); err != nil {
		t.Skip("no fixture server:", err)
	}
	return py, server
}

// Every file of a skill is verified before it is written: a tampered file
// leaves nothing in the tree.
func TestMCPTamperedNothingWritten(t *testing.T) {
	cmd := fixture(t)
	t.Setenv("SEP_FIXTURE", "tamper-bytes")
	root := t.TempDir()
	r := Ref{Kind: KindMCP, Command: cmd, Input: "mcp:" + cmd}
	err := openMCP(context.Background(), r, root, "acme/billing/refunds", &Options{})
	if !askerr.Is(err, registry.CodeIntegrityMismatch) {
		t.Fatalf("openMCP = %v; want ASK_INTEGRITY_MISMATCH", err)
	}
	if _, err := os.Stat(filepath.Join(root, "acme", "billing", "refunds", "references", "policy.md")); err == nil {
		t.Error("the tampered file was written")
	}
}

// A command that skills.lock names is not run without the user's leave;
// with it, the restore runs it and checks the digest.
func TestMCPLockedCommandNeedsLeave(t *testing.T) {
	cmd := fixture(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("SEP_FIXTURE_PIDFILE", pidfile)
	pin := Pin{Name: "greeting", Version: "1.0.0", Source: "mcp:" + cmd, Subpath: "greeting", Integrity: "sha256-AAAA"}
	env := map[string]string{}
	opts := Options{CacheDir: t.TempDir(), Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }}
	_, err := Restore(context.Background(), pin, opts)
	if !askerr.Is(err, CodeSourceCommandUnapproved) {
		t.Fatalf("Restore = %v; want ASK_SOURCE_COMMAND_UNAPPROVED", err)
	}
	if _, err := os.Stat(pidfile); err == nil {
		t.Fatal("the command ran")
	}
	env[mcpCommandEnv] = "1"
	_, err = Restore(context.Background(), pin, opts)
	if !askerr.Is(err, registry.CodeIntegrityMismatch) {
		t.Fatalf("Restore = %v; want ASK_INTEGRITY_MISMATCH against the made-up digest", err)
	}
	if _, err := os.Stat(pidfile); err != nil {
		t.Fatal("the command did not run:", err)
	}
}

func TestCheckEntry(t *testing.T) {
	d := "sha256:" + strings.Repeat("a", 64)
	res := func(uris ...string) string {
		var parts []string
		for _, u := range uris {
			parts = append(parts, `{"uri":"`+u+`","digest":"`+d+`","size":1}`)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	many := make([]string, 513)
	for i := range many {
		many[i] = "skill://x/f" + strconv.Itoa(i)
	}
	many[0] = "skill://x/SKILL.md"
	tests := []struct {
		uri, front, resources, err string
		folder                     string
	}{
		{uri: "skill://acme/x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://acme/x/SKILL.md", "skill://acme/x/a/b.md"), folder: "acme/x"},
		{uri: "https://h/p/x/SKILL.md", front: `{"name":"x"}`, resources: res("https://h/p/x/SKILL.md"), folder: "x"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `"dynamic"`, folder: "x"},
		{uri: "skill://x/README.md", front: `{"name":"x"}`, resources: res(), err: "does not name a SKILL.md"},
		{uri: "skill://y/SKILL.md", front: `{"name":"x"}`, resources: res("skill://y/SKILL.md"), err: "last segment is not its frontmatter name"},
		{uri: "skill://x/SKILL.md", front: `{"name":"../x"}`, resources: res(), err: "no valid frontmatter name"},
		{uri: "skill://../x/SKILL.md", front: `{"name":"x"}`, resources: res(), err: "not a plain relative folder path"},
		{uri: "skill://x/SKILL.md", front: `[]`, resources: res(), err: "no frontmatter object"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `null`, err: "no resources array"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://x/a.md"), err: "does not list its own SKILL.md"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://x/SKILL.md", "skill://x/SKILL.md"), err: "twice"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://x/SKILL.md", "skill://x/../y"), err: "not a plain relative file path"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://x/SKILL.md", "skill://xy/a"), err: "not under its root"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res("skill://x/SKILL.md", "skill://x/a\\u001b[2J"), err: "not a plain relative file path"},
		{uri: "skill://registry/SKILL.md", front: `{"name":"registry"}`, resources: res("skill://registry/SKILL.md", "skill://registry/skills.yaml"), err: "registry index"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `[{"uri":"skill://x/SKILL.md","digest":"sha256:ABC","size":1}]`, err: "digest"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `[{"uri":"skill://x/SKILL.md","digest":"` + d + `"}]`, err: "no size"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `[{"uri":"skill://x/SKILL.md","digest":"` + d + `","size":16777217}]`, err: "out of range"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: `[{"uri":"skill://x/SKILL.md","digest":"` + d + `","size":16777216},{"uri":"skill://x/b","digest":"` + d + `","size":1}]`, err: "adds up to"},
		{uri: "skill://x/SKILL.md", front: `{"name":"x"}`, resources: res(many...), err: "513 resources"},
	}
	s := &mcpSession{shown: "test"}
	for _, tt := range tests {
		k, err := checkEntry(s, mcpEntry{URI: tt.uri, Frontmatter: []byte(tt.front), Resources: []byte(tt.resources)})
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("checkEntry(%s, %s) = %v", tt.uri, tt.resources, err)
		case tt.err == "" && k.folder != tt.folder:
			t.Errorf("checkEntry(%s).folder = %q, want %q", tt.uri, k.folder, tt.folder)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !askerr.Is(err, CodeSourceInvalid)):
			t.Errorf("checkEntry(%s, %.80s) = %v; want ASK_SOURCE_INVALID with %q", tt.uri, tt.resources, err, tt.err)
		}
	}
}

func TestSameFrontmatter(t *testing.T) {
	const md = "---\nname: x\ndescription: \"Do x.\"\ndate: 2024-01-01\nn: 3\nf: 1.5\nok: yes\nq: 'yes'\nnone: ~\nlist: [a, 2]\nmeta:\n  owner: me\n---\nbody\n"
	tests := []struct {
		front string
		ok    bool
	}{
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2],"meta":{"owner":"me"}}`, true},
		{`{"name":"x","description":"Do x.","date":"2024-01-01T00:00:00Z","n":3,"f":1.5,"ok":"yes","q":"yes","none":null,"list":["a",2],"meta":{"owner":"me"}}`, true},
		{`{"name":"x","description":"Do x.","date":"2024-01-01T00:00:00.000Z","n":3.0,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a","2"],"meta":{"owner":"me"}}`, true},
		{`{"name":"x","description":"Do y.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2],"meta":{"owner":"me"}}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-02","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2],"meta":{"owner":"me"}}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":true,"none":null,"list":["a",2],"meta":{"owner":"me"}}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2],"meta":{"owner":"me","extra":1}}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a"],"meta":{"owner":"me"}}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2]}`, false},
		{`{"name":"x","description":"Do x.","date":"2024-01-01","n":3,"f":1.5,"ok":true,"q":"yes","none":null,"list":["a",2],"meta":{"owner":"me"},"license":"MIT"}`, false},
	}
	s := &mcpSession{shown: "test"}
	for _, tt := range tests {
		var front map[string]any
		if err := json.Unmarshal([]byte(tt.front), &front); err != nil {
			t.Fatal(err)
		}
		err := sameFrontmatter(s, mcpSkill{name: "x", front: front}, []byte(md))
		if (err == nil) != tt.ok {
			t.Errorf("sameFrontmatter(%s) = %v, want ok=%v", tt.front, err, tt.ok)
		}
	}
}

// A restore asks skills/get for a skill the listing leaves out: SEP-2640
// servers must answer for unlisted skills too.
func TestMCPRestoreUnlisted(t *testing.T) {
	cmd := fixture(t)
	t.Setenv("SEP_FIXTURE", "unlisted")
	root := t.TempDir()
	r := Ref{Kind: KindMCP, Command: cmd, Input: "mcp:" + cmd}
	if err := openMCP(context.Background(), r, root, "acme/billing/refunds", &Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "acme", "billing", "refunds", "references", "policy.md")); err != nil {
		t.Error(err)
	}
	err := openMCP(context.Background(), r, t.TempDir(), "acme/billing/nothing", &Options{})
	var e *askerr.Error
	if !errors.As(err, &e) || e.Code != CodeSourceNotFound {
		t.Fatalf("openMCP of an unknown skill = %v; want ASK_SOURCE_NOT_FOUND", err)
	}
	// The command under Try: pastes back as one argument.
	if want := "agent-skills install 'mcp:" + cmd; !strings.Contains(strings.Join(e.Try, "\n"), want) {
		t.Errorf("Try = %q; want it to contain %q", e.Try, want)
	}
}

// skills/list is read page by page; a cursor handed out twice is refused
// instead of looping.
func TestMCPPagedListing(t *testing.T) {
	cmd := fixture(t)
	r := Ref{Kind: KindMCP, Command: cmd, Input: "mcp:" + cmd}
	t.Setenv("SEP_FIXTURE", "paged")
	res, err := Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), List: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Found) != 2 {
		t.Errorf("found %d skills over two pages, want 2", len(res.Found))
	}
	t.Setenv("SEP_FIXTURE", "cursor-loop")
	_, err = Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), List: true})
	if !askerr.Is(err, CodeSourceInvalid) || !strings.Contains(err.Error(), "cursor it had returned before") {
		t.Errorf("Fetch = %v; want the repeated cursor refused", err)
	}
}
