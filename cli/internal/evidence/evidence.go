// Package evidence is the evidence store of issue 20: a SQLite database
// (skills-usage.db) holding the read observations the hosts' read hooks
// report, the lifecycle events callers assert and the complete catalog
// inventories callers report, with the queries the evidence commands and
// MCP tools run over them.
//
// A read observation is a count of a host reading an installed skill's
// file, never proof that the skill was activated or used. Lifecycle
// events are assertions of their emitter. Every query result carries its
// Coverage: the period, the days each host's hook was seen and sentences
// naming what the evidence does not cover.
//
// The store is written only through OpenWriter / OpenExisting, which verify
// the checksummed schema history and migrate in one BEGIN IMMEDIATE
// transaction, and read through OpenReader, which opens the file read-only,
// never creates, migrates or writes anything and leaves the folder's file
// set as it found it. The package stores no raw commands, bodies or
// prompts: the record types have no field for them.
package evidence

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// The ASK_* codes the evidence store raises. Exit codes are in
// cli/exitcodes.go, meanings in docs/errors.md.
const (
	// CodeInvalid: a record or query fails validation (exit 2).
	CodeInvalid = "ASK_EVIDENCE_INVALID"
	// CodeConflict: a retry carries other content than the recorded event
	// of the same identity, or a lifecycle event contradicts its attempt
	// (exit 5). Nothing is written.
	CodeConflict = "ASK_EVIDENCE_CONFLICT"
	// CodeSchema: the file is not an evidence store this agent-skills
	// knows: not SQLite, tables without a schema history, an altered,
	// unknown, missing or future migration (exit 5). The file is left
	// byte-for-byte untouched.
	CodeSchema = "ASK_EVIDENCE_SCHEMA"
	// CodeSchemaOld: a query found a store of an older known schema;
	// queries never migrate, any record upgrades it (exit 5).
	CodeSchemaOld = "ASK_EVIDENCE_SCHEMA_OLD"
	// CodeStore: reading or writing the store failed: I/O, a busy lock
	// past the timeout, a full disk, an unsafe path (exit 1).
	CodeStore = "ASK_EVIDENCE_STORE"
	// CodeBudget: a query did not finish within its time budget (exit 1).
	CodeBudget = "ASK_EVIDENCE_BUDGET"
)

// ErrNoStore reports that the store does not exist; OpenExisting and
// OpenReader return it (wrapped in nothing) and create nothing.
var ErrNoStore = errors.New("no evidence store")

// DefaultFileName is the store's file name under the agent-state root.
const DefaultFileName = "skills-usage.db"

// Location is where the store is.
type Location struct {
	// Path is the absolute path of the database file.
	Path string
	// From names what chose it: "--db", "AGENT_SKILLS_USAGE_DB",
	// "I9_SKILLS_USAGE_DB" or "default".
	From string
}

// Locate returns where the store is, without touching the filesystem:
// the flag, else $AGENT_SKILLS_USAGE_DB, else $I9_SKILLS_USAGE_DB, else
// <root>/skills-usage.db where root is $AGENT_SKILLS_STATE_ROOT, else
// $I9_AGENT_STATE_ROOT, else home/.agents. A relative path is made
// absolute against cwd. Plugin data variables (CLAUDE_PLUGIN_DATA …)
// never choose the store.
func Locate(flag string, getenv func(string) string, home, cwd string) (Location, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	abs := func(p, from string) (Location, error) {
		if !filepath.IsAbs(p) {
			if cwd == "" || !filepath.IsAbs(cwd) {
				return Location{}, &askerr.Error{Code: askerr.CodeUsage,
					Message: fmt.Sprintf("the evidence store path %q (from %s) is relative and there is no working folder to resolve it against", p, from),
					Try:     []string{"give an absolute path"}}
			}
			p = filepath.Join(cwd, p)
		}
		return Location{Path: filepath.Clean(p), From: from}, nil
	}
	if flag != "" {
		return abs(flag, "--db")
	}
	for _, name := range []string{"AGENT_SKILLS_USAGE_DB", "I9_SKILLS_USAGE_DB"} {
		if v := getenv(name); v != "" {
			return abs(v, name)
		}
	}
	root := ""
	for _, name := range []string{"AGENT_SKILLS_STATE_ROOT", "I9_AGENT_STATE_ROOT"} {
		if v := getenv(name); v != "" {
			root = v
			break
		}
	}
	if root == "" {
		if home == "" {
			return Location{}, &askerr.Error{Code: askerr.CodeUsage,
				Message: "cannot locate the evidence store: no home folder and no AGENT_SKILLS_STATE_ROOT",
				Try:     []string{"set AGENT_SKILLS_STATE_ROOT or AGENT_SKILLS_USAGE_DB, or pass --db <path>"}}
		}
		root = filepath.Join(home, ".agents")
	}
	return abs(filepath.Join(root, DefaultFileName), "default")
}

// storeErr wraps an I/O or SQLite failure on the store at path.
func storeErr(path, what string, err error) *askerr.Error {
	return &askerr.Error{Code: CodeStore,
		Message: fmt.Sprintf("evidence store %s: %s", path, what), Err: err,
		Try: []string{"check the free disk space and the permissions of " + path + ", then run the command again"}}
}

// schemaErr reports a store this agent-skills does not know.
func schemaErr(path, what string, detail ...string) *askerr.Error {
	return &askerr.Error{Code: CodeSchema,
		Message: fmt.Sprintf("evidence store %s: %s", path, what), Detail: append([]string{"the file was left untouched"}, detail...),
		Try: []string{"upgrade agent-skills if a newer one wrote it, or select another store with --db <path>; never edit the schema history"}}
}

// invalid reports a record or query that fails validation.
func invalid(format string, args ...any) *askerr.Error {
	return &askerr.Error{Code: CodeInvalid, Message: fmt.Sprintf(format, args...),
		Try: []string{"fix the record and send it again; nothing was written"}}
}

// conflict reports a retry or event that contradicts the recorded history.
func conflict(path, format string, args ...any) *askerr.Error {
	return &askerr.Error{Code: CodeConflict, Message: fmt.Sprintf(format, args...),
		Detail: []string{"evidence store " + path + ": nothing was written"},
		Try:    []string{"use a new event id for a new event; recorded events are never overwritten"}}
}
