package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// rpcClient speaks raw JSON-RPC lines to a server over a pipe.
type rpcClient struct {
	t      *testing.T
	in     io.WriteCloser
	mu     sync.Mutex
	nextID int
	resps  map[int]chan rpcResponse
}

// rpcResponse is one response line.
type rpcResponse struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call sends one request and waits for its response.
func (c *rpcClient) call(method string, params any) rpcResponse {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan rpcResponse, 1)
	c.resps[id] = ch
	c.mu.Unlock()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
	select {
	case r := <-ch:
		return r
	case <-time.After(60 * time.Second):
		c.t.Fatalf("%s: no response", method)
	}
	return rpcResponse{}
}

// result decodes a successful response's result into v.
func (c *rpcClient) result(method string, params, v any) {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s %v: error %d %s", method, params, r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		c.t.Fatalf("%s: %v in %s", method, err, r.Result)
	}
}

// invalid checks that a call fails with -32602 and a message holding want.
func (c *rpcClient) invalid(method string, params any, want string) {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, want) {
		c.t.Errorf("%s %v = %s %+v, want -32602 with %q", method, params, r.Result, r.Error, want)
	}
}

// startServe runs "mcp serve --offline" in-process on pipes, with getenv
// as its environment, and returns a client; the server ends with the test.
func startServe(t *testing.T, getenv func(string) string) *rpcClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rpcClient{t: t, in: inW, resps: map[int]chan rpcResponse{}}
	done := make(chan int, 1)
	go func() {
		code := run(context.Background(), []string{"--offline", "mcp", "serve"}, inR, outW, io.Discard, getenv)
		outW.Close()
		done <- code
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r rpcResponse
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == nil {
				continue
			}
			c.mu.Lock()
			ch := c.resps[*r.ID]
			c.mu.Unlock()
			if ch != nil {
				ch <- r
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("mcp serve exited %d", code)
			}
		case <-time.After(60 * time.Second):
			t.Error("mcp serve did not end at the end of its input")
		}
	})
	return c
}

// writeFiles writes files (slash paths relative to dir) with their contents.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sepEntry is a skills/list or skills/get entry as a client sees it.
type sepEntry struct {
	URI         string         `json:"uri"`
	Frontmatter map[string]any `json:"frontmatter"`
	Resources   []struct {
		URI    string `json:"uri"`
		Digest string `json:"digest"`
		Size   int64  `json:"size"`
	} `json:"resources"`
}

// TestMCPServeSkillsExtension drives the real "mcp serve" over stdio with
// raw JSON-RPC: the extension is declared; skills/list pages through every
// installed and bundled skill, entries whole; every resource's bytes match
// its digest, its size and the file on disk; a linked file, a skill over
// the size or count limit and bad URIs or cursors are -32602; and the
// read-only server writes nothing.
func TestMCPServeSkillsExtension(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	global := filepath.Join(home, ".claude", "skills")
	outside := filepath.Join(base, "secret.txt")
	writeFiles(t, base, map[string]string{"secret.txt": "not part of any skill\n", "proj/.git/HEAD": "ref: refs/heads/main\n"})
	const n = 57
	for i := range n {
		name := fmt.Sprintf("s-%02d", i)
		writeFiles(t, filepath.Join(global, name), map[string]string{
			"SKILL.md": fmt.Sprintf("---\nname: %s\ndescription: Skill number %d. Use in tests.\nlicense: MIT\n"+
				"released: 2026-01-02\nmetadata:\n  count: %d\n  tags: [a, b]\n---\n# %s\n", name, i, i, name),
			"references/guide.md": "A guide.\n",
			"scripts/run.sh":      "#!/bin/sh\necho hi\n",
			"assets/blob.bin":     "\x00\x01\x02\xff binary",
		})
	}
	writeFiles(t, filepath.Join(proj, ".claude", "skills", "proj-skill"), map[string]string{
		"SKILL.md": "---\nname: proj-skill\ndescription: A project skill.\n---\nBody.\n"})
	// The same name globally: shadowed in the listing, served by URI.
	writeFiles(t, filepath.Join(global, "proj-skill"), map[string]string{
		"SKILL.md": "---\nname: proj-skill\ndescription: The global copy.\n---\nBody.\n", "extra.md": "x\n"})
	writeFiles(t, filepath.Join(global, "git-commit-messages"), map[string]string{
		"SKILL.md": "---\nname: git-commit-messages\ndescription: Shadows the bundled one.\n---\n"})
	// A skill with a link to a file outside it and a linked folder.
	writeFiles(t, filepath.Join(global, "linky"), map[string]string{
		"SKILL.md": "---\nname: linky\ndescription: Has links.\n---\nBody.\n", "real.md": "real\n", "100%.md": "left out\n"})
	if err := os.Symlink(outside, filepath.Join(global, "linky", "secret.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(global, "linky", "up")); err != nil {
		t.Fatal(err)
	}
	// A skill above 16 MiB (a sparse file) and one with 513 files.
	writeFiles(t, filepath.Join(global, "huge"), map[string]string{"SKILL.md": "---\nname: huge\ndescription: Too big.\n---\n"})
	f, err := os.Create(filepath.Join(global, "huge", "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(16<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	many := map[string]string{"SKILL.md": "---\nname: many\ndescription: Too many files.\n---\n"}
	for i := range 512 {
		many[fmt.Sprintf("f/%03d.txt", i)] = "x"
	}
	writeFiles(t, filepath.Join(global, "many"), many)

	t.Chdir(proj)
	vars := map[string]string{"HOME": home, "AGENT_SKILLS_HOME": filepath.Join(home, ".agent-skills"),
		"AGENT_SKILLS_NO_UPDATE_NOTIFIER": "1", "NO_COLOR": "1"}
	c := startServe(t, func(k string) string { return vars[k] })

	var init struct {
		Capabilities struct {
			Extensions map[string]any  `json:"extensions"`
			Resources  json.RawMessage `json:"resources"`
		} `json:"capabilities"`
	}
	c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}}, &init)
	if _, ok := init.Capabilities.Extensions["io.modelcontextprotocol/skills"]; !ok || init.Capabilities.Resources == nil {
		t.Fatalf("capabilities do not declare the skills extension and resources: %+v", init.Capabilities)
	}

	// Page through the listing.
	var entries []sepEntry
	cursor, pages := "", 0
	for {
		var page struct {
			ResultType string     `json:"resultType"`
			Skills     []sepEntry `json:"skills"`
			NextCursor string     `json:"nextCursor"`
			TTLMs      *int       `json:"ttlMs"`
			CacheScope string     `json:"cacheScope"`
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		c.result("skills/list", params, &page)
		pages++
		if page.ResultType != "complete" || page.TTLMs == nil || page.CacheScope != "private" {
			t.Errorf("page %d: resultType %q ttlMs %v cacheScope %q", pages, page.ResultType, page.TTLMs, page.CacheScope)
		}
		entries = append(entries, page.Skills...)
		if page.NextCursor == "" || pages > 10 {
			break
		}
		cursor = page.NextCursor
	}
	if pages < 2 {
		t.Errorf("%d skills came in %d page(s); want more than one", len(entries), pages)
	}
	byURI := map[string]sepEntry{}
	for _, e := range entries {
		if _, dup := byURI[e.URI]; dup {
			t.Errorf("%s listed twice", e.URI)
		}
		byURI[e.URI] = e
	}
	for _, want := range []string{"skill://installed/global/s-00/SKILL.md", "skill://installed/global/s-56/SKILL.md",
		"skill://installed/project/proj-skill/SKILL.md", "skill://installed/global/linky/SKILL.md",
		"skill://registry/bundled/java-basics/SKILL.md", "skill://installed/global/git-commit-messages/SKILL.md"} {
		if _, ok := byURI[want]; !ok {
			t.Errorf("%s is not listed", want)
		}
	}
	for _, gone := range []string{"skill://installed/global/huge/SKILL.md", "skill://installed/global/many/SKILL.md",
		"skill://installed/global/proj-skill/SKILL.md", "skill://registry/bundled/git-commit-messages/SKILL.md"} {
		if _, ok := byURI[gone]; ok {
			t.Errorf("%s is listed, but it exceeds the extension's limits or another origin has its name", gone)
		}
	}

	// Front matter verbatim, as JSON.
	fm := byURI["skill://installed/global/s-07/SKILL.md"].Frontmatter
	if fm["name"] != "s-07" || fm["license"] != "MIT" || fm["released"] != "2026-01-02" {
		t.Errorf("front matter = %v", fm)
	}
	if md, _ := fm["metadata"].(map[string]any); md == nil || md["count"] != 7.0 || !slices.Equal(md["tags"].([]any), []any{"a", "b"}) {
		t.Errorf("front matter metadata = %v", fm["metadata"])
	}

	// Every resource of the installed skills matches the bytes on disk, and
	// the array is complete; bundled ones match what resources/read serves.
	for _, e := range entries {
		var dir string
		switch {
		case strings.HasPrefix(e.URI, "skill://installed/global/"):
			dir = filepath.Join(global, strings.Split(e.URI, "/")[4])
		case strings.HasPrefix(e.URI, "skill://installed/project/"):
			dir = filepath.Join(proj, ".claude", "skills", strings.Split(e.URI, "/")[4])
		}
		root := strings.TrimSuffix(e.URI, "/SKILL.md")
		var got []string
		for _, r := range e.Resources {
			var rr struct {
				Contents []struct {
					URI  string `json:"uri"`
					Text *string
					Blob *string
				} `json:"contents"`
			}
			c.result("resources/read", map[string]any{"uri": r.URI}, &rr)
			if len(rr.Contents) != 1 || rr.Contents[0].URI != r.URI {
				t.Fatalf("resources/read %s = %+v", r.URI, rr)
			}
			var data []byte
			switch {
			case rr.Contents[0].Text != nil:
				data = []byte(*rr.Contents[0].Text)
			case rr.Contents[0].Blob != nil:
				data, _ = base64.StdEncoding.DecodeString(*rr.Contents[0].Blob)
			}
			sum := sha256.Sum256(data)
			if r.Digest != "sha256:"+hex.EncodeToString(sum[:]) || r.Size != int64(len(data)) {
				t.Errorf("%s: entry says %s %d, the read gave %d bytes", r.URI, r.Digest, r.Size, len(data))
			}
			rel := strings.TrimPrefix(r.URI, root+"/")
			got = append(got, rel)
			if dir != "" {
				disk, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
				if err != nil || string(disk) != string(data) {
					t.Errorf("%s: served bytes differ from the file on disk (%v)", r.URI, err)
				}
			}
		}
		if dir == "" {
			continue
		}
		var want []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !strings.Contains(d.Name(), "%") {
				rel, _ := filepath.Rel(dir, p)
				want = append(want, filepath.ToSlash(rel))
			}
			return nil
		})
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s resources = %v, want every regular file %v", e.URI, got, want)
		}
	}

	// skills/get answers with the same entry.
	var got struct {
		ResultType string   `json:"resultType"`
		Skill      sepEntry `json:"skill"`
	}
	c.result("skills/get", map[string]any{"uri": "skill://installed/project/proj-skill/SKILL.md"}, &got)
	if got.ResultType != "complete" || got.Skill.URI != "skill://installed/project/proj-skill/SKILL.md" || len(got.Skill.Resources) != 1 {
		t.Errorf("skills/get = %+v", got)
	}

	// A shadowed copy is served by URI.
	c.result("skills/get", map[string]any{"uri": "skill://installed/global/proj-skill/SKILL.md"}, &got)
	if len(got.Skill.Resources) != 2 || got.Skill.Frontmatter["description"] != "The global copy." {
		t.Errorf("skills/get of the shadowed global copy = %+v", got)
	}
	c.result("skills/get", map[string]any{"uri": "skill://registry/bundled/git-commit-messages/SKILL.md"}, &got)

	// What is not served is -32602.
	c.invalid("skills/get", map[string]any{"uri": "skill://installed/global/huge/SKILL.md"}, "limits")
	c.invalid("skills/get", map[string]any{"uri": "skill://installed/global/many/SKILL.md"}, "limits")
	c.invalid("skills/get", map[string]any{"uri": "skill://installed/global/nope/SKILL.md"}, "No skill is served")
	c.invalid("skills/get", map[string]any{"uri": "skill://installed/global/s-01/references/guide.md"}, "SKILL.md")
	c.invalid("skills/get", map[string]any{"uri": "skill://elsewhere/x/s-01/SKILL.md"}, "unknown origin")
	c.invalid("skills/get", map[string]any{}, "uri")
	c.invalid("skills/list", map[string]any{"cursor": "bm9wZQ"}, "invalid cursor")
	c.invalid("resources/list", map[string]any{"cursor": "!!"}, "invalid cursor")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/linky/secret.md"}, "no such file")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/linky/up/secret.txt"}, "no such file")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/linky/100%25.md"}, "no such file")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/s-01/../linky/real.md"}, "")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/s-01/%2e%2e/%2e%2e/secret.txt"}, "")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/huge/SKILL.md"}, "limits")
	c.invalid("resources/read", map[string]any{"uri": "skill://installed/global/s-01/nope.md"}, "no such file")
	c.invalid("resources/read", map[string]any{"uri": "file:///etc/passwd"}, "")

	// resources/list pages through the same files.
	var files int
	cursor = ""
	for range 20 {
		var page struct {
			Resources []struct {
				URI  string `json:"uri"`
				Size int64  `json:"size"`
			} `json:"resources"`
			NextCursor string `json:"nextCursor"`
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		c.result("resources/list", params, &page)
		files += len(page.Resources)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	want := 0
	for _, e := range entries {
		want += len(e.Resources)
	}
	if files != want {
		t.Errorf("resources/list listed %d files, the skill entries %d", files, want)
	}
	if _, err := os.Lstat(filepath.Join(home, ".agent-skills")); err == nil {
		t.Error("the read-only server created AGENT_SKILLS_HOME")
	}
}
