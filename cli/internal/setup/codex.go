package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/codexapp"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
	"github.com/agent-skills/agent-skills/cli/internal/tomledit"
)

// codex is Codex: the MCP server in config.toml [mcp_servers.agent-skills],
// the hook in hooks.json beside it, and the hook's trust, which Codex
// needs before it runs a hook, recorded in config.toml with the hash
// codex app-server reports (docs/hosts.md, Codex).
type codex struct{}

func (codex) Name() string { return "codex" }

// dir is the layer's folder: $CODEX_HOME (default ~/.codex), or the
// project's .codex.
func (codex) dir(env Env, scope Scope) (string, error) {
	if scope == Project {
		return inProject(env, ".codex")
	}
	return env.env("CODEX_HOME", filepath.Join(env.Home, ".codex")), nil
}

func (c codex) Installed(env Env) bool {
	d, _ := c.dir(env, User)
	return exists(d) || onPath(env, "codex")
}

func (c codex) Entries(env Env, scope Scope, o Options) ([]Entry, error) {
	dir, err := c.dir(env, scope)
	if err != nil {
		return nil, err
	}
	config := filepath.Join(dir, "config.toml")
	var out []Entry
	if o.wants(MCP) {
		out = append(out, Entry{Part: MCP, File: config, Format: TOML(), Kind: Member, Path: []string{"mcp_servers", mcpserver.ServerName},
			Command: o.command(), Value: obj("command", o.command(), "args", serveArgs)})
	}
	if o.wants(Hooks) || o.wants(Reads) {
		if inline, err := inlineHooks(config, scope); err != nil || inline {
			if err != nil {
				return nil, err
			}
			return nil, &askerr.Error{Code: CodeHostUnsupported,
				Message: Shown(env, config) + " defines hooks inline ([hooks.SessionStart] or another [hooks] event)",
				Detail:  []string{"Codex runs both forms of one layer and warns; setup writes hooks.json, so it leaves a layer with inline hooks alone"},
				Try:     []string{"agent-skills setup enable --host codex --mcp   registers the MCP server only", "agent-skills hook config --host codex   prints the hook to add yourself"}}
		}
	}
	if o.wants(Hooks) {
		out = append(out, Entry{Part: Hooks, File: filepath.Join(dir, "hooks.json"), Format: JSON(), Kind: Element, Path: []string{"hooks", "SessionStart"},
			Marker: hookMarker, Command: o.command(),
			Value: obj("hooks", []any{obj("type", "command", "command", hookCommand(o, "codex"), "timeout", hookTimeout)})})
	}
	if o.wants(Reads) {
		out = append(out, Entry{Part: Reads, File: filepath.Join(dir, "hooks.json"), Format: JSON(), Kind: Element, Path: []string{"hooks", "PostToolUse"},
			Marker: readMarker, Command: o.command(),
			Value: obj("matcher", readMatchers["codex"], "hooks", []any{obj("type", "command", "command", readCommand(o, "codex"), "timeout", hookTimeout)})})
	}
	return out, nil
}

// inlineHooks reports whether config.toml defines hooks itself: any key
// under [hooks] but the trust records in hooks.state.
func inlineHooks(config string, scope Scope) (bool, error) {
	data, err := readSettings(config, scope)
	if err != nil || data == nil {
		return false, nil
	}
	doc, err := tomledit.Parse(data)
	if err != nil {
		return false, nil // Enable reports the file as it reads it
	}
	h, ok := doc.Get([]string{"hooks"})
	if !ok {
		return false, nil
	}
	for k := range h {
		if k != "state" {
			return true, nil
		}
	}
	return false, nil
}

func (codex) Notes(scope Scope, o Options) []string {
	var out []string
	if o.wants(Hooks) || o.wants(Reads) {
		out = append(out, `Codex runs a hook only once it is trusted: with --write, setup asks "codex app-server" (codex on PATH) for the hook's trust hash and records [hooks.state."<key>"] trusted_hash in config.toml; without codex on PATH, trust it with /hooks in codex.`)
	}
	if scope == Project {
		out = append(out, "Codex reads a project's .codex/ only once the project is trusted.")
	}
	return out
}

// afterWrite trusts the hook setup wrote: it asks codex app-server for
// the keys and hashes of the hooks that run our command, records them in
// config.toml, and lists the trust tables in the receipt. It returns
// notes; a Codex that cannot be asked leaves the hook untrusted, said in
// a note, not an error.
func (c codex) afterWrite(env Env, scope Scope, o Options, rec *Receipt, stamp string) ([]string, error) {
	// The hooks to trust: the session hook and the read hook, as asked.
	var parts []Part
	var commands []string
	if o.wants(Hooks) {
		parts, commands = append(parts, Hooks), append(commands, hookCommand(o, "codex"))
	}
	if o.wants(Reads) {
		parts, commands = append(parts, Reads), append(commands, readCommand(o, "codex"))
	}
	if len(commands) == 0 {
		return nil, nil
	}
	dir, err := c.dir(env, scope)
	if err != nil {
		return nil, err
	}
	// Trust lives in the user's config.toml, whatever the hook's layer.
	userDir, _ := c.dir(env, User)
	config := filepath.Join(userDir, "config.toml")
	untrusted := `the hook stays untrusted, and Codex skips it: trust it with /hooks in an interactive codex session`
	exe, err := env.LookPath("codex")
	if err != nil {
		return []string{"codex is not on PATH, so " + untrusted}, nil
	}
	cwd := env.ProjectRoot
	if cwd == "" {
		cwd = env.Home
	}
	dirs, err := codexapp.ListHooks(context.Background(), codexapp.Options{Command: []string{exe, "app-server"}, Env: env.Environ, Dir: cwd,
		ClientName: "agent-skills", ClientVersion: env.Version}, []string{cwd})
	if err != nil {
		return []string{"asking codex app-server failed (" + oneLine(err.Error()) + "), so " + untrusted}, nil
	}
	ours := filepath.Join(dir, "hooks.json")
	var hooks []codexapp.Hook
	var hookParts []Part
	var notes []string
	for i, cmd := range commands {
		found := codexapp.Find(dirs, cmd)
		n := len(hooks)
		for _, h := range found {
			if samePath(h.SourcePath, ours) && !h.Trusted() {
				hooks, hookParts = append(hooks, h), append(hookParts, parts[i])
			}
		}
		if len(hooks) == n && len(found) == 0 {
			notes = append(notes, "codex app-server did not list the hook \""+cmd+"\" (Codex reads a project's .codex/ only once the project is trusted), so "+untrusted)
		}
	}
	if len(hooks) == 0 {
		return notes, nil // trusted already, or not listed
	}
	old, err := readSettings(config, User)
	if err != nil {
		return nil, fileInvalid(Shown(env, config), err.Error())
	}
	nb, err := codexapp.RecordTrust(old, hooks...)
	if err != nil {
		var pe *tomledit.ParseError
		if errors.As(err, &pe) {
			return nil, fileInvalid(Shown(env, config), pe.Error())
		}
		return nil, &askerr.Error{Code: CodeConflict, Message: "cannot record the hook's trust in " + Shown(env, config), Err: err}
	}
	if err := writeSettings(config, User, nb); err != nil {
		return nil, askerr.IO("cannot write "+Shown(env, config), err)
	}
	for i, h := range hooks {
		v, _ := marshal(map[string]any{"trusted_hash": h.CurrentHash})
		e := Entry{Part: hookParts[i], File: config, Format: TOML(), Kind: Member, Path: codexapp.TrustPath(h.Key), Command: o.command(), Value: v}
		o := Owned{File: toReceipt(env, scope, config), Format: TOML().Name(), Entry: e, NewFile: old == nil, Version: env.Version, Written: stamp}
		if scope == Project {
			// The trust table is in the user's file, outside the project:
			// the project's receipt names it absolutely.
			o.File = config
		}
		if i := rec.find(e); i >= 0 {
			rec.Entries[i] = o
		} else {
			rec.Entries = append(rec.Entries, o)
		}
		notes = append(notes, fmt.Sprintf("trusted the hook %s in %s with the hash codex app-server reported", oneLine(h.Key), Shown(env, config)))
	}
	return notes, nil
}

// samePath reports whether a and b name one file, their links resolved.
func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// oneLine folds s onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tomlFormat is a TOML file (Codex's config.toml) edited by whole tables
// with cli/internal/tomledit, every other byte kept.
type tomlFormat struct{}

// TOML returns the format of TOML settings files.
func TOML() Format { return tomlFormat{} }

func (tomlFormat) Name() string { return "toml" }

func (tomlFormat) Open(file string, data []byte) (Document, error) {
	doc, err := tomledit.Parse(data)
	if err != nil {
		return nil, &FileError{File: file, Reason: err.Error()}
	}
	return &tomlDoc{doc: doc}, nil
}

// tomlDoc is a parsed TOML file.
type tomlDoc struct{ doc *tomledit.Document }

func (d *tomlDoc) Find(e Entry) (State, json.RawMessage) {
	m, ok := d.doc.Get(e.Path)
	if !ok {
		if d.doc.Has(e.Path) {
			return Different, nil
		}
		return Absent, nil
	}
	got, err := marshal(m)
	if err != nil {
		return Different, nil
	}
	got = Canonical(got)
	if bytes.Equal(got, Canonical(e.Value)) {
		return Same, got
	}
	return Different, got
}

func (d *tomlDoc) Add(e Entry) ([]string, error) {
	if e.Kind != Member {
		return nil, errors.New("a TOML settings file holds tables only")
	}
	body, err := tomlBody(e.Value)
	if err != nil {
		return nil, err
	}
	out, err := d.doc.Set(e.Path, body)
	if err != nil {
		return nil, err
	}
	return nil, d.reparse(out)
}

func (d *tomlDoc) Remove(e Entry, _ []string) error {
	out, err := d.doc.Delete(e.Path)
	if err != nil {
		return err
	}
	return d.reparse(out)
}

// reparse makes out the document.
func (d *tomlDoc) reparse(out []byte) error {
	doc, err := tomledit.Parse(out)
	if err != nil {
		return err
	}
	d.doc = doc
	return nil
}

func (d *tomlDoc) Bytes() []byte { return d.doc.Bytes() }

// tomlBody turns a JSON object into a tomledit.Body, its key order kept.
func tomlBody(raw json.RawMessage) (tomledit.Body, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := orderedValue(dec)
	if err != nil {
		return nil, err
	}
	b, ok := v.(tomledit.Body)
	if !ok {
		return nil, errors.New("a table body must be an object")
	}
	return b, nil
}

// orderedValue decodes the next JSON value, objects as tomledit.Body.
func orderedValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var b tomledit.Body
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := orderedValue(dec)
				if err != nil {
					return nil, err
				}
				b = append(b, tomledit.KV{Key: k.(string), Value: v})
			}
			_, err := dec.Token()
			if b == nil {
				b = tomledit.Body{}
			}
			return b, err
		case '[':
			out := []any{}
			for dec.More() {
				v, err := orderedValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n, nil
		}
		return t.Float64()
	case string, bool:
		return t, nil
	}
	return nil, fmt.Errorf("cannot write %v in TOML", tok)
}
