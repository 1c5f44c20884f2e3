package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// receiptSchema is the receipt's schemaVersion.
const receiptSchema = 1

// maxReceipt bounds a receipt's size.
const maxReceipt = 1 << 20

// Receipt lists the entries setup wrote for one host and scope. It lives
// in agent-skills' own folders, never beside the host's files (Copilot
// reads every *.json in its hooks folder): $AGENT_SKILLS_HOME/setup/<host>.json
// for user scope, <project>/.agent-skills/setup/<host>.json for a project.
type Receipt struct {
	SchemaVersion int    `json:"schemaVersion"`
	Host          string `json:"host"`
	Scope         Scope  `json:"scope"`
	// Entries are the entries setup owns, in the order it wrote them.
	Entries []Owned `json:"entries"`
}

// Owned is one entry setup wrote.
type Owned struct {
	// File is the file: relative to the project root for project scope;
	// for user scope "~/…" below the home folder, else absolute.
	File string `json:"file"`
	// Format is the file's format name (see Format).
	Format string `json:"format"`
	Entry
	// Created is the path of the first object member setup created for
	// the entry; disable removes it again once it is empty.
	Created []string `json:"created,omitempty"`
	// NewFile says the file did not exist before setup wrote the entry:
	// disable removes it again when nothing else is left in it.
	NewFile bool `json:"newFile,omitempty"`
	// NewDirs are the folders setup created to hold the new file, named
	// as File is, deepest first: disable removes each again when it is
	// empty once the file is gone, so that an agent's folder setup made
	// (e.g. ~/.claude) does not stay behind to look like an installed
	// agent.
	NewDirs []string `json:"newDirs,omitempty"`
	// Version is the agent-skills version that wrote the entry.
	Version string `json:"version"`
	// Written is when, in RFC 3339 UTC.
	Written string `json:"written"`
}

// receiptPath returns where the receipt of host and scope lives.
func receiptPath(env Env, host string, scope Scope) string {
	if scope == Project {
		return filepath.Join(env.ProjectRoot, ".agent-skills", "setup", host+".json")
	}
	return filepath.Join(env.StateDir, "setup", host+".json")
}

// loadReceipt reads the receipt of host and scope; a missing one is an
// empty receipt.
func loadReceipt(env Env, host string, scope Scope) (*Receipt, error) {
	path := receiptPath(env, host, scope)
	data, err := atomicfile.ReadPlain(path, scope == User, maxReceipt)
	if err != nil {
		return nil, &askerr.Error{Code: CodeReceiptInvalid, Message: "cannot read the setup receipt " + path, Err: err,
			Try: []string{"move " + path + " away; setup then treats the entries as not its own"}}
	}
	r := &Receipt{SchemaVersion: receiptSchema, Host: host, Scope: scope}
	if data == nil {
		return r, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil || r.SchemaVersion != receiptSchema || r.Host != host || r.Scope != scope {
		if err == nil {
			err = fmt.Errorf("schemaVersion %d, host %q, scope %q; want %d, %q, %q", r.SchemaVersion, r.Host, r.Scope, receiptSchema, host, scope)
		}
		return nil, &askerr.Error{Code: CodeReceiptInvalid, Message: "the setup receipt " + path + " is not valid", Err: err,
			Try: []string{"move " + path + " away; setup then treats the entries as not its own"}}
	}
	for i := range r.Entries {
		o := &r.Entries[i]
		if scope == Project && !filepath.IsLocal(filepath.FromSlash(o.File)) && !codexTrust(env, *o) {
			return nil, &askerr.Error{Code: CodeReceiptInvalid, Message: "the setup receipt " + path + " names a file outside the project: " + o.File,
				Try: []string{"move " + path + " away; setup then treats the entries as not its own"}}
		}
		o.Entry.File = fromReceipt(env, scope, o.File)
		if o.Entry.Format, err = formatNamed(o.Format); err != nil {
			return nil, &askerr.Error{Code: CodeReceiptInvalid, Message: "the setup receipt " + path + " is not valid", Err: err}
		}
	}
	return r, nil
}

// save writes the receipt, or removes it when it lists nothing.
func (r *Receipt) save(env Env) error {
	path := receiptPath(env, r.Host, r.Scope)
	if len(r.Entries) == 0 {
		if err := removeFile(path); err != nil {
			return askerr.IO("cannot remove the setup receipt "+path, err)
		}
		return nil
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return askerr.Internal("encoding the setup receipt", err)
	}
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		return askerr.IO("cannot create the folder of the setup receipt "+path, err)
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return askerr.IO("cannot write the setup receipt "+path, err)
	}
	return nil
}

// find returns the index of the receipt's entry for e (same file, part,
// kind and path), or -1.
func (r *Receipt) find(e Entry) int {
	for i, o := range r.Entries {
		if o.Entry.File == e.File && o.Part == e.Part && o.Kind == e.Kind && strings.Join(o.Path, "\x00") == strings.Join(e.Path, "\x00") {
			return i
		}
	}
	return -1
}

// toReceipt returns how a receipt names file.
func toReceipt(env Env, scope Scope, file string) string {
	if scope == Project {
		if rel, err := filepath.Rel(env.ProjectRoot, file); err == nil {
			return filepath.ToSlash(rel)
		}
		return file
	}
	return Shown(env, file)
}

// fromReceipt turns a receipt's file name back into a path.
func fromReceipt(env Env, scope Scope, name string) string {
	if scope == Project {
		if filepath.IsAbs(name) {
			return name
		}
		return filepath.Join(env.ProjectRoot, filepath.FromSlash(name))
	}
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		return filepath.Join(env.Home, filepath.FromSlash(rest))
	}
	return name
}

// Shown returns how messages name file: relative to the project root
// inside the project, "~/…" inside the home folder, else absolute.
func Shown(env Env, file string) string {
	if env.ProjectRoot != "" {
		if rel, err := filepath.Rel(env.ProjectRoot, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	if env.Home != "" {
		if rel, err := filepath.Rel(env.Home, file); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return file
}

// formatNamed returns the format a receipt names.
func formatNamed(name string) (Format, error) {
	for _, f := range []Format{JSON(), JSONC(), OwnedJSON(), OwnedText(), TOML()} {
		if f.Name() == name {
			return f, nil
		}
	}
	return nil, errors.New("unknown format " + name)
}

// HasReceipt reports whether setup holds a receipt for host and scope.
func HasReceipt(env Env, host string, scope Scope) bool {
	if scope == Project && env.ProjectRoot == "" {
		return false
	}
	return exists(receiptPath(env, host, scope))
}

// codexTrust reports whether o is a Codex hook's trust record, which a
// project's receipt names in the user's config.toml, outside the project.
func codexTrust(env Env, o Owned) bool {
	if o.Format != "toml" || len(o.Path) != 3 || o.Path[0] != "hooks" || o.Path[1] != "state" {
		return false
	}
	dir := env.env("CODEX_HOME", filepath.Join(env.Home, ".codex"))
	return filepath.Clean(filepath.FromSlash(o.File)) == filepath.Join(dir, "config.toml")
}
