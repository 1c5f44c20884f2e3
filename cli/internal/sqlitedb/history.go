package sqlitedb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"time"
)

// Migration is one step of an ordered schema. Its checksum is the SHA-256
// of SQL; a recorded row whose checksum differs refuses the database.
// Never edit a released migration: append a new one.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Checksum returns the recorded checksum of a migration's SQL.
func Checksum(sqlText string) string {
	sum := sha256.Sum256([]byte(sqlText))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// History is a database's schema: its migrations (versions 1, 2, 3 …
// without a gap) and the table that records which were applied.
type History struct {
	Table      string
	Migrations []Migration
}

// Querier is what the history is read through: a *sql.Tx or *sql.Conn.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ProblemKind says why a history was refused.
type ProblemKind int

const (
	// Foreign: a database with tables but no history table — another
	// program's, or another of ours. Its message is the caller's to word.
	Foreign ProblemKind = iota + 1
	// Newer: a version this build does not know (a newer one wrote it).
	Newer
	// Gap: versions out of order, missing or repeated.
	Gap
	// Altered: a recorded checksum that differs from the migration's.
	Altered
	// Malformed: a row that does not scan, or a history table without rows.
	Malformed
)

// Problem is a schema history the database is refused for. Nothing was
// written when it is returned.
type Problem struct {
	Kind    ProblemKind
	Message string
	Detail  []string
}

func (p *Problem) Error() string { return p.Message }

// StepError is a SQL failure at a named step of Read or Apply.
type StepError struct {
	What string
	Err  error
}

func (e *StepError) Error() string { return e.What + ": " + e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// Read verifies the recorded history against h.Migrations and returns the
// recorded version, 0 for an empty database. A refused history is a
// *Problem; a SQL failure a *StepError.
func (h History) Read(ctx context.Context, q Querier) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, h.Table).Scan(&n); err != nil {
		return 0, &StepError{"reading the schema", err}
	}
	if n == 0 {
		var tables int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
			return 0, &StepError{"reading the schema", err}
		}
		if tables > 0 {
			return 0, &Problem{Kind: Foreign, Message: fmt.Sprintf("a SQLite database with tables but no %s", h.Table)}
		}
		return 0, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT version, name, checksum FROM "`+h.Table+`" ORDER BY version`)
	if err != nil {
		return 0, &StepError{"reading the schema history", err}
	}
	defer rows.Close()
	got, known := 0, len(h.Migrations)
	for rows.Next() {
		var v int
		var name, sum string
		if err := rows.Scan(&v, &name, &sum); err != nil {
			return 0, &Problem{Kind: Malformed, Message: "the schema history holds a malformed row", Detail: []string{err.Error()}}
		}
		switch {
		case v > known:
			return 0, &Problem{Kind: Newer, Message: fmt.Sprintf("schema version %d is newer than this agent-skills knows (%d)", v, known),
				Detail: []string{"a newer agent-skills wrote it"}}
		case v != got+1:
			return 0, &Problem{Kind: Gap, Message: fmt.Sprintf("the schema history has a gap or an unknown version: %d after %d", v, got)}
		case sum != Checksum(h.Migrations[v-1].SQL):
			m := h.Migrations[v-1]
			return 0, &Problem{Kind: Altered, Message: fmt.Sprintf("migration %d (%s) was altered: its recorded checksum differs", v, m.Name),
				Detail: []string{"recorded " + clip(sum), "expected " + Checksum(m.SQL)}}
		}
		got = v
	}
	if err := rows.Err(); err != nil {
		return 0, &StepError{"reading the schema history", err}
	}
	if got == 0 {
		return 0, &Problem{Kind: Malformed, Message: "the schema history is empty but its table exists"}
	}
	return got, nil
}

// DDL is the statement that creates the history table.
func (h History) DDL() string {
	return `CREATE TABLE "` + h.Table + `" (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  checksum   TEXT NOT NULL,
  applied_at TEXT NOT NULL
) STRICT`
}

// Apply brings the database to the last migration inside tx, which must
// hold the write lock (BEGIN IMMEDIATE): it re-reads the history under
// the lock, so two processes migrating at once both succeed and each
// version is applied once. now stamps the applied rows.
func (h History) Apply(ctx context.Context, tx *sql.Tx, now time.Time) error {
	have, err := h.Read(ctx, tx)
	if err != nil || have == len(h.Migrations) {
		return err
	}
	if have == 0 {
		if _, err := tx.ExecContext(ctx, h.DDL()); err != nil {
			return &StepError{"creating the schema history", err}
		}
	}
	stamp := now.UTC().Format(time.RFC3339Nano)
	for _, m := range h.Migrations[have:] {
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return &StepError{fmt.Sprintf("applying migration %d (%s)", m.Version, m.Name), err}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO "`+h.Table+`" (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
			m.Version, m.Name, Checksum(m.SQL), stamp); err != nil {
			return &StepError{fmt.Sprintf("recording migration %d", m.Version), err}
		}
	}
	return nil
}

// clip shortens a recorded value for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
