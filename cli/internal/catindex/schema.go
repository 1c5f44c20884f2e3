package catindex

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// migration is one step of the ordered schema history. Its checksum is
// the SHA-256 of SQL; a recorded row whose checksum differs refuses the
// index. Never edit a released migration: append a new one.
type migration struct {
	Version int
	Name    string
	SQL     string
}

// migrations is the ordered schema history; versions are 1, 2, 3 … with
// no gap.
var migrations = []migration{
	{1, "observations and projection", `
CREATE TABLE observation (
  id     INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  at_ms  INTEGER NOT NULL,
  event  TEXT NOT NULL CHECK (event IN ('observed', 'removed')),
  digest TEXT NOT NULL,
  skills INTEGER NOT NULL
) STRICT;
CREATE INDEX observation_source ON observation (source, id);
CREATE TABLE observed_skill (
  observation INTEGER NOT NULL REFERENCES observation (id),
  name        TEXT NOT NULL,
  path        TEXT NOT NULL,
  kind        TEXT NOT NULL,
  version     TEXT NOT NULL,
  digest      TEXT NOT NULL,
  description TEXT NOT NULL,
  PRIMARY KEY (observation, name, path)
) STRICT, WITHOUT ROWID;
CREATE TABLE skill_change (
  observation        INTEGER NOT NULL REFERENCES observation (id),
  name               TEXT NOT NULL,
  path               TEXT NOT NULL,
  change             TEXT NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
  fields             TEXT NOT NULL,
  before_kind        TEXT,
  before_version     TEXT,
  before_digest      TEXT,
  before_description TEXT,
  after_kind         TEXT,
  after_version      TEXT,
  after_digest       TEXT,
  after_description  TEXT,
  PRIMARY KEY (observation, name, path)
) STRICT, WITHOUT ROWID;
CREATE TABLE source (
  id          TEXT PRIMARY KEY,
  observation INTEGER NOT NULL REFERENCES observation (id),
  at_ms       INTEGER NOT NULL,
  digest      TEXT NOT NULL,
  skills      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE skill (
  source      TEXT NOT NULL REFERENCES source (id),
  name        TEXT NOT NULL,
  path        TEXT NOT NULL,
  kind        TEXT NOT NULL,
  version     TEXT NOT NULL,
  digest      TEXT NOT NULL,
  description TEXT NOT NULL,
  PRIMARY KEY (source, name, path)
) STRICT, WITHOUT ROWID;
CREATE INDEX skill_name ON skill (name);
`},
}

// SchemaVersion is the schema version this agent-skills writes.
var SchemaVersion = len(migrations)

// historyTable is the name of the schema history; it differs from the
// evidence store's schema_history, so neither is taken for the other.
const historyTable = "index_schema_history"

const historyDDL = `CREATE TABLE ` + historyTable + ` (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  checksum   TEXT NOT NULL,
  applied_at TEXT NOT NULL
) STRICT`

// checksum returns the recorded checksum of a migration's SQL.
func checksum(sqlText string) string {
	sum := sha256.Sum256([]byte(sqlText))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// querier is what schema checks run on: a *sql.Tx or *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readHistory verifies the index's schema history against migrations and
// returns the recorded version (0 for an empty database). It refuses
// (ASK_CATALOG_INDEX_SCHEMA) a database with tables but no history — the
// evidence database named as such — and a history with an unknown,
// altered, missing or future version.
func readHistory(ctx context.Context, q querier, path string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, historyTable).Scan(&n); err != nil {
		return 0, sqlErr(ctx, path, "reading the schema", err)
	}
	if n == 0 {
		var tables, evidence int
		if err := q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE name IN ('read_observation', 'lifecycle_event'))
			FROM sqlite_schema WHERE type = 'table'`).Scan(&tables, &evidence); err != nil {
			return 0, sqlErr(ctx, path, "reading the schema", err)
		}
		switch {
		case evidence > 0:
			return 0, schemaErr(path, "this is the evidence database, not a catalog index; the index never reads, resets or rebuilds it")
		case tables > 0:
			return 0, schemaErr(path, "a SQLite database with tables but no "+historyTable+" is not a catalog index")
		}
		return 0, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT version, name, checksum FROM `+historyTable+` ORDER BY version`)
	if err != nil {
		return 0, sqlErr(ctx, path, "reading the schema history", err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var v int
		var name, sum string
		if err := rows.Scan(&v, &name, &sum); err != nil {
			return 0, schemaErr(path, "the schema history holds a malformed row", err.Error())
		}
		switch {
		case v > len(migrations):
			return 0, schemaErr(path, fmt.Sprintf("schema version %d is newer than this agent-skills knows (%d)", v, len(migrations)),
				"a newer agent-skills wrote it")
		case v != got+1:
			return 0, schemaErr(path, fmt.Sprintf("the schema history has a gap or an unknown version: %d after %d", v, got))
		case sum != checksum(migrations[v-1].SQL):
			return 0, schemaErr(path, fmt.Sprintf("migration %d (%s) was altered: its recorded checksum differs", v, migrations[v-1].Name),
				"recorded "+clip(sum), "expected "+checksum(migrations[v-1].SQL))
		}
		got = v
	}
	if err := rows.Err(); err != nil {
		return 0, sqlErr(ctx, path, "reading the schema history", err)
	}
	if got == 0 {
		return 0, schemaErr(path, "the schema history is empty but its table exists")
	}
	return got, nil
}

// migrate brings the index to SchemaVersion in one BEGIN IMMEDIATE
// transaction that re-reads the history under the write lock.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	return writeTx(ctx, db, path, "migrating the schema", func(tx *sql.Tx) error {
		have, err := readHistory(ctx, tx, path)
		if err != nil {
			return err
		}
		if have == len(migrations) {
			return nil
		}
		if have == 0 {
			if _, err := tx.ExecContext(ctx, historyDDL); err != nil {
				return sqlErr(ctx, path, "creating the schema history", err)
			}
		}
		stamp := time.Now().UTC().Format(time.RFC3339Nano)
		for _, m := range migrations[have:] {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return sqlErr(ctx, path, fmt.Sprintf("applying migration %d (%s)", m.Version, m.Name), err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+historyTable+` (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
				m.Version, m.Name, checksum(m.SQL), stamp); err != nil {
				return sqlErr(ctx, path, fmt.Sprintf("recording migration %d", m.Version), err)
			}
		}
		return nil
	})
}

// isBusy reports whether err is SQLite's busy or locked.
func isBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "database is locked") || strings.Contains(s, "busy")
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
