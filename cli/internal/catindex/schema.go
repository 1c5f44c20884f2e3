package catindex

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// migrations is the ordered schema history; versions are 1, 2, 3 … with
// no gap.
var migrations = []sqlitedb.Migration{
	{Version: 1, Name: "observations and projection", SQL: `
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

// history is the index's schema history table and migrations.
var history = sqlitedb.History{Table: historyTable, Migrations: migrations}

// querier is what queries run on: a *sql.Tx or *sql.Conn.
type querier = sqlitedb.Querier

// readHistory verifies the index's schema history against migrations and
// returns the recorded version (0 for an empty database). It refuses
// (ASK_CATALOG_INDEX_SCHEMA) a database with tables but no history — the
// evidence database named as such — and a history with an unknown,
// altered, missing or future version.
func readHistory(ctx context.Context, q querier, path string) (int, error) {
	v, err := history.Read(ctx, q)
	var p *sqlitedb.Problem
	if errors.As(err, &p) && p.Kind == sqlitedb.Foreign {
		var evidence int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('read_observation', 'lifecycle_event')`).Scan(&evidence); err != nil {
			return 0, sqlErr(ctx, path, "reading the schema", err)
		}
		if evidence > 0 {
			return 0, schemaErr(path, "this is the evidence database, not a catalog index; the index never reads, resets or rebuilds it")
		}
		return 0, schemaErr(path, "a SQLite database with tables but no "+historyTable+" is not a catalog index")
	}
	return v, historyErr(ctx, path, err)
}

// migrate brings the index to SchemaVersion in one BEGIN IMMEDIATE
// transaction that re-reads the history under the write lock.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	return writeTx(ctx, db, path, "migrating the schema", func(tx *sql.Tx) error {
		return historyErr(ctx, path, history.Apply(ctx, tx, time.Now()))
	})
}

// historyErr words a refused history or a failed step in the index's codes.
func historyErr(ctx context.Context, path string, err error) error {
	var p *sqlitedb.Problem
	var step *sqlitedb.StepError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &p):
		return schemaErr(path, p.Message, p.Detail...)
	case errors.As(err, &step):
		return sqlErr(ctx, path, step.What, step.Err)
	}
	return err
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
