// Package catindex is the catalog index across collections (issue 21,
// part 4): a derived SQLite database, skills-catalog.db, in a folder the
// caller names, built from several collections' validated
// skills-catalog.json files.
//
// Each source is known by a logical identifier the caller gives
// (github.com/acme/skills), never by a local path. Every add records a
// timestamped observation of the source — the digest of its catalog
// file's bytes, its skill count, the full skill list and the normalised
// before/after change of each skill against the source's previous
// observation — and replaces that source's rows of the current
// projection (the source and skill tables) in the same transaction. The
// observations are the history; the projection is derived from them and
// Rebuild re-derives it. Projection.Encode is the JSON fallback,
// skills-catalog.index.json: the same projection, no history.
//
// The index is written only through Open, which verifies the checksummed
// schema history (its own table, index_schema_history) and migrates in
// one BEGIN IMMEDIATE transaction, and read through OpenReader, which
// never creates, migrates or writes anything. CheckPlace refuses an index
// folder inside a source collection or its repository, and the folder of
// the evidence database (skills-usage.db).
package catindex

import (
	"errors"
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// The ASK_* codes the catalog index raises. Exit codes are in
// cli/exitcodes.go, meanings in docs/errors.md.
const (
	// CodePlace: the index folder is refused: inside a source collection
	// or its repository, the evidence database's folder, or not a folder
	// (exit 2). Nothing is written.
	CodePlace = "ASK_CATALOG_INDEX_PLACE"
	// CodeSource: a source identifier is not a logical identifier (exit 2).
	CodeSource = "ASK_CATALOG_INDEX_SOURCE"
	// CodeCatalog: a collection's committed skills-catalog.json is
	// missing, too large or not a valid catalog (exit 3).
	CodeCatalog = "ASK_CATALOG_INDEX_CATALOG"
	// CodeNotFound: the source is not in the index (exit 1).
	CodeNotFound = "ASK_CATALOG_INDEX_NOT_FOUND"
	// CodeSchema: the file is not a catalog index this agent-skills knows:
	// not SQLite, tables without the index's schema history (the evidence
	// database among them), an altered, unknown or future migration
	// (exit 5). The file is left byte-for-byte untouched.
	CodeSchema = "ASK_CATALOG_INDEX_SCHEMA"
	// CodeStore: reading or writing the index failed: I/O, a busy lock
	// past the timeout, a path that is a link or not a regular file
	// (exit 1).
	CodeStore = "ASK_CATALOG_INDEX_STORE"
)

// File names in the index folder.
const (
	// DBName is the index database.
	DBName = "skills-catalog.db"
	// JSONName is the JSON fallback of the current projection.
	JSONName = "skills-catalog.index.json"
	// EvidenceName is the evidence database's default file name; a folder
	// that holds one is refused.
	EvidenceName = "skills-usage.db"
)

// ErrNoIndex reports that the index does not exist; OpenReader returns it
// and creates nothing.
var ErrNoIndex = errors.New("no catalog index")

func storeErr(path, what string, err error) *askerr.Error {
	return &askerr.Error{Code: CodeStore,
		Message: fmt.Sprintf("catalog index %s: %s", path, what), Err: err,
		Try: []string{"check the free disk space and the permissions of " + path + ", then run the command again"}}
}

func schemaErr(path, what string, detail ...string) *askerr.Error {
	return &askerr.Error{Code: CodeSchema,
		Message: fmt.Sprintf("catalog index %s: %s", path, what), Detail: append([]string{"the file was left untouched"}, detail...),
		Try: []string{"upgrade agent-skills if a newer one wrote it, or name another index folder with --index DIR; never edit the schema history"}}
}

func placeErr(msg string, try ...string) *askerr.Error {
	if len(try) == 0 {
		try = []string{"name a folder of its own outside every source collection, e.g. --index ~/.agents/catalog-index"}
	}
	return &askerr.Error{Code: CodePlace, Message: msg, Detail: []string{"nothing was written"}, Try: try}
}
