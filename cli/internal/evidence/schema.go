package evidence

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// migrations is the ordered schema history; versions are 1, 2, 3 … with
// no gap. Never edit a released migration: append a new one (its
// checksum is recorded and verified on every open).
var migrations = []sqlitedb.Migration{
	{Version: 1, Name: "reads and lifecycle", SQL: `
CREATE TABLE read_observation (
  id        INTEGER PRIMARY KEY,
  event_key TEXT NOT NULL UNIQUE,
  host      TEXT NOT NULL,
  session   TEXT NOT NULL,
  at_ms     INTEGER NOT NULL,
  skill     TEXT NOT NULL,
  scope     TEXT NOT NULL,
  project   TEXT NOT NULL,
  file      TEXT NOT NULL,
  kind      TEXT NOT NULL,
  digest    TEXT NOT NULL,
  version   TEXT NOT NULL
) STRICT;
CREATE TABLE lifecycle_event (
  id       INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  attempt  TEXT NOT NULL,
  skill    TEXT NOT NULL,
  version  TEXT NOT NULL,
  stage    TEXT NOT NULL CHECK (stage IN ('started', 'finished')),
  outcome  TEXT NOT NULL,
  at_ms    INTEGER NOT NULL,
  emitter  TEXT NOT NULL,
  reason   TEXT NOT NULL,
  UNIQUE (attempt, stage)
) STRICT;
`},
	{Version: 2, Name: "catalog observations and host coverage", SQL: `
CREATE TABLE catalog_observation (
  id         INTEGER PRIMARY KEY,
  collection TEXT NOT NULL,
  at_ms      INTEGER NOT NULL,
  digest     TEXT NOT NULL,
  skills     INTEGER NOT NULL,
  UNIQUE (collection, at_ms, digest)
) STRICT;
CREATE TABLE catalog_skill (
  observation INTEGER NOT NULL REFERENCES catalog_observation (id),
  name        TEXT NOT NULL,
  version     TEXT NOT NULL,
  digest      TEXT NOT NULL,
  PRIMARY KEY (observation, name)
) STRICT, WITHOUT ROWID;
CREATE TABLE host_day (
  host TEXT NOT NULL,
  day  INTEGER NOT NULL,
  PRIMARY KEY (host, day)
) STRICT, WITHOUT ROWID;
INSERT OR IGNORE INTO host_day (host, day) SELECT host, at_ms / 86400000 FROM read_observation;
`},
	{Version: 3, Name: "query indexes", SQL: `
CREATE INDEX read_at_skill ON read_observation (at_ms, skill, host, session);
CREATE INDEX read_skill_at ON read_observation (skill, at_ms, session, host);
CREATE INDEX read_session_skill ON read_observation (session, skill, at_ms) WHERE session <> '';
CREATE INDEX read_digest ON read_observation (skill, digest, version, at_ms);
CREATE INDEX lifecycle_skill_at ON lifecycle_event (skill, at_ms);
CREATE INDEX lifecycle_at ON lifecycle_event (at_ms);
CREATE INDEX catalog_skill_name ON catalog_skill (name);
CREATE INDEX catalog_collection_at ON catalog_observation (collection, at_ms);
`},
	{Version: 4, Name: "daily read rollups", SQL: `
CREATE TABLE read_day (
  day        INTEGER NOT NULL,
  skill      TEXT NOT NULL,
  host       TEXT NOT NULL,
  digest     TEXT NOT NULL,
  version    TEXT NOT NULL,
  reads      INTEGER NOT NULL,
  no_session INTEGER NOT NULL,
  first_ms   INTEGER NOT NULL,
  last_ms    INTEGER NOT NULL,
  PRIMARY KEY (day, skill, host, digest, version)
) STRICT, WITHOUT ROWID;
CREATE TABLE session_day (
  day     INTEGER NOT NULL,
  skill   TEXT NOT NULL,
  session TEXT NOT NULL,
  host    TEXT NOT NULL,
  PRIMARY KEY (day, skill, session, host)
) STRICT, WITHOUT ROWID;
` + rollupBackfill},
}

// rollupBackfill fills the rollups of migration 4 from the reads already
// recorded (also used by the benchmark's bulk loader). RecordRead keeps
// them up to date afterwards, in the same transaction as the read.
const rollupBackfill = `
INSERT INTO read_day (day, skill, host, digest, version, reads, no_session, first_ms, last_ms)
  SELECT at_ms / 86400000, skill, host, digest, version, count(*), count(*) FILTER (WHERE session = ''), min(at_ms), max(at_ms)
  FROM read_observation GROUP BY 1, 2, 3, 4, 5;
INSERT INTO session_day (day, skill, session, host)
  SELECT DISTINCT at_ms / 86400000, skill, session, host FROM read_observation WHERE session <> '';
`

// SchemaVersion is the schema version this agent-skills writes.
var SchemaVersion = len(migrations)

// history is the store's schema history table and migrations.
var history = sqlitedb.History{Table: "schema_history", Migrations: migrations}

// querier is what queries run on: a *sql.Tx or *sql.Conn.
type querier = sqlitedb.Querier

// readHistory verifies the store's schema history against migrations and
// returns the recorded version (0 for an empty database). It refuses
// (ASK_EVIDENCE_SCHEMA) a database with tables but no history, and a
// history with an unknown, altered, missing or future version.
func readHistory(ctx context.Context, q querier, path string) (int, error) {
	v, err := history.Read(ctx, q)
	return v, historyErr(ctx, path, err)
}

// migrate brings the store to SchemaVersion in one BEGIN IMMEDIATE
// transaction that re-reads the history under the write lock, so two
// processes migrating at once both succeed and each version is applied
// once.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	return writeTx(ctx, db, path, "migrating the schema", func(tx *sql.Tx) error {
		return historyErr(ctx, path, history.Apply(ctx, tx, time.Now()))
	})
}

// historyErr words a refused history or a failed step in the store's codes.
func historyErr(ctx context.Context, path string, err error) error {
	var p *sqlitedb.Problem
	var step *sqlitedb.StepError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &p) && p.Kind == sqlitedb.Foreign:
		return schemaErr(path, "a SQLite database with tables but no schema history is not an evidence store")
	case errors.As(err, &p):
		return schemaErr(path, p.Message, p.Detail...)
	case errors.As(err, &step):
		return sqlErr(ctx, path, step.What, step.Err)
	}
	return err
}
