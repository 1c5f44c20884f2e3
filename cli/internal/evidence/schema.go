package evidence

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
// store. Never edit a released migration: append a new one.
type migration struct {
	Version int
	Name    string
	SQL     string
}

// migrations is the ordered schema history; versions are 1, 2, 3 … with
// no gap.
var migrations = []migration{
	{1, "reads and lifecycle", `
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
	{2, "catalog observations and host coverage", `
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
	{3, "query indexes", `
CREATE INDEX read_at_skill ON read_observation (at_ms, skill, host, session);
CREATE INDEX read_skill_at ON read_observation (skill, at_ms, session, host);
CREATE INDEX read_session_skill ON read_observation (session, skill, at_ms) WHERE session <> '';
CREATE INDEX read_digest ON read_observation (skill, digest, version, at_ms);
CREATE INDEX lifecycle_skill_at ON lifecycle_event (skill, at_ms);
CREATE INDEX lifecycle_at ON lifecycle_event (at_ms);
CREATE INDEX catalog_skill_name ON catalog_skill (name);
CREATE INDEX catalog_collection_at ON catalog_observation (collection, at_ms);
`},
	{4, "daily read rollups", `
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

// checksum returns the recorded checksum of a migration's SQL.
func checksum(sqlText string) string {
	sum := sha256.Sum256([]byte(sqlText))
	return "sha256:" + hex.EncodeToString(sum[:])
}

const historyDDL = `CREATE TABLE schema_history (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  checksum   TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`

// querier is what schema checks run on: a *sql.Tx or *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readHistory verifies the store's schema history against migrations and
// returns the recorded version (0 for an empty database). It refuses
// (ASK_EVIDENCE_SCHEMA) a database with tables but no history, and a
// history with an unknown, altered, missing or future version.
func readHistory(ctx context.Context, q querier, path string) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_history'`).Scan(&n); err != nil {
		return 0, sqlErr(ctx, path, "reading the schema", err)
	}
	if n == 0 {
		var tables int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
			return 0, sqlErr(ctx, path, "reading the schema", err)
		}
		if tables > 0 {
			return 0, schemaErr(path, "a SQLite database with tables but no schema history is not an evidence store")
		}
		return 0, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT version, name, checksum FROM schema_history ORDER BY version`)
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
		return 0, schemaErr(path, "the schema history is empty but the table exists")
	}
	return got, nil
}

// migrate brings the store to SchemaVersion in one BEGIN IMMEDIATE
// transaction that re-reads the history under the write lock, so two
// processes migrating at once both succeed and each version is applied
// once.
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
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_history (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
				m.Version, m.Name, checksum(m.SQL), stamp); err != nil {
				return sqlErr(ctx, path, "recording migration "+fmt.Sprint(m.Version), err)
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
