package tomledit

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzSetDelete parses any bytes, adds a table setup would add, checks
// that the table reads back as written, deletes it again and expects the
// original bytes back (with a final newline added when the original had
// none) — or a clean *ParseError / *EditError, never a panic and never
// bytes that differ elsewhere.
func FuzzSetDelete(f *testing.F) {
	for _, seed := range []string{
		"",
		"\n",
		"a = 1",
		codexConfig,
		"[a]\nx = 1\n# about a\n\n\n# about b\n[b]\ny = 2\n",
		"[a]\ns = '''\n[b]\n'''\n",
		"a = 1\r\n[t]\r\nb = 2\r\n",
		"mcp_servers.agent-skills.command = \"x\"\n",
		"mcp_servers = { x = { command = \"x\" } }\n",
		"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ncommand = \"x\"\n",
		"[mcp_servers.agent-skills]\ncommand = \"old\"\n",
		"[mcp_servers.a.env]\nK = \"v\"\n[z]\n",
		"x = nan\n[hooks]\nstate.k.trusted_hash = \"h\"\n",
		"d = 1979-05-27T07:32:00-08:00\n[hooks.state]\n",
	} {
		f.Add([]byte(seed), "/abs/hooks.json:session_start:0:0")
	}
	f.Fuzz(func(t *testing.T, src []byte, key string) {
		d, err := Parse(src)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error %T %v, want a *ParseError", err, err)
			}
			return
		}
		for _, tc := range []struct {
			path []string
			body any
		}{
			{[]string{"mcp_servers", "agent-skills"}, Body{{"command", key}, {"args", []string{"mcp", key}}, {"env", map[string]string{key: "v"}}}},
			{[]string{"hooks", "state", key}, map[string]any{"trusted_hash": "sha256:" + key}},
		} {
			existed := d.Has(tc.path) || len(d.family(tc.path)) > 0
			out, err := d.Set(tc.path, tc.body)
			if err != nil {
				var ee *EditError
				if !errors.As(err, &ee) || ee.bug {
					t.Fatalf("Set(%q) error %T %v, want a refusal *EditError\n%q", tc.path, err, err, src)
				}
				continue
			}
			nd, err := Parse(out)
			if err != nil {
				t.Fatalf("Set(%q) returned bytes that do not parse: %v\n%q", tc.path, err, out)
			}
			if _, ok := nd.Get(tc.path); !ok {
				t.Fatalf("Set(%q): the table is not there afterwards\n%q", tc.path, out)
			}
			if existed {
				continue
			}
			back, err := nd.Delete(tc.path)
			if err != nil {
				t.Fatalf("Delete(%q) after Set: %v\n%q", tc.path, err, out)
			}
			want := src
			if len(want) > 0 && want[len(want)-1] != '\n' {
				want = append(bytes.Clone(want), d.eol...)
			}
			if !bytes.Equal(back, want) {
				t.Fatalf("Delete(Set(%q)) = %q, want %q (after Set: %q)", tc.path, back, want, out)
			}
		}
	})
}

// FuzzDeleteEach deletes every table of any document, one at a time, and
// replaces each with a small body: each edit either succeeds (and then the
// check inside Set/Delete has compared the decoded documents) or is a
// refusal, never a failed check, a panic or bytes that do not parse.
func FuzzDeleteEach(f *testing.F) {
	for _, seed := range []string{
		codexConfig,
		"[a]\nx = 1\n[a.b]\ny = 2\n[[a.c]]\n[c]\n",
		"x.y = 1\n[x.z]\n[[arr]]\n[arr.sub]\n",
		"[t]\nk = 1 # c\n\n\n# for u\n[u]\n'q k' = '''\n[v]\n'''\n",
		"[a]\r\nb = 1\r\n[c]\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		for _, tb := range d.Tables() {
			for _, op := range []string{"delete", "set"} {
				var out []byte
				if op == "delete" {
					out, err = d.Delete(tb.Path)
				} else {
					out, err = d.Set(tb.Path, Body{{"k", "v"}})
				}
				if err != nil {
					var ee *EditError
					if !errors.As(err, &ee) || ee.bug {
						t.Fatalf("%s(%q) error %T %v, want success or a refusal\n%q", op, tb.Path, err, err, src)
					}
					continue
				}
				if _, err := parse(out, 0); err != nil {
					t.Fatalf("%s(%q) returned bytes that do not parse: %v\n%q", op, tb.Path, err, out)
				}
			}
		}
	})
}
