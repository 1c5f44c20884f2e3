package evidence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// Store is a writable evidence store. It is safe for one goroutine at a
// time per write; each write is its own BEGIN IMMEDIATE transaction.
type Store struct {
	db   *sql.DB
	path string
}

// Path returns the store's file path.
func (s *Store) Path() string { return s.path }

// Close closes the store, leaving an idle file in rollback-journal mode
// (see sqlitedb.CloseWriter) so that queries create no file.
func (s *Store) Close() error {
	if err := sqlitedb.CloseWriter(s.db); err != nil {
		return storeErr(s.path, "closing", err)
	}
	return nil
}

// checkFile inspects path without opening it with SQLite: it returns
// exists=false when it is missing, refuses a symbolic link, a non-regular
// file and a non-empty file without the SQLite header, and reports
// whether the file is empty.
func checkFile(path string) (exists, empty bool, err error) {
	st, err := sqlitedb.Inspect(path)
	switch {
	case errors.Is(err, sqlitedb.ErrSymlink):
		return true, false, &askerr.Error{Code: CodeStore,
			Message: fmt.Sprintf("evidence store %s is a symbolic link; agent-skills does not open a store through one", path),
			Try:     []string{"pass the link's target with --db <path>"}}
	case errors.Is(err, sqlitedb.ErrNotRegular):
		return true, false, storeErr(path, "is not a regular file", nil)
	case errors.Is(err, sqlitedb.ErrNotSQLite):
		return true, false, schemaErr(path, "the file is not a SQLite database")
	case err != nil:
		return false, false, storeErr(path, "cannot inspect the file", err)
	}
	return st != sqlitedb.Missing, st == sqlitedb.Empty, nil
}

// OpenWriter opens the store, creating it (0600) and its missing parent
// folders (0700) when absent, and migrates it. Call it only with an
// already validated record in hand. It refuses a path that is a symbolic
// link or not a regular file, a parent folder that is a symbolic link
// owned by another user, a non-SQLite file and a store whose schema
// history is unknown, altered or future (ASK_EVIDENCE_SCHEMA; the file is
// left byte-for-byte untouched, since the history is verified through a
// read-only connection before the first writable one).
func OpenWriter(ctx context.Context, loc Location) (*Store, error) {
	return openWriter(ctx, loc, true)
}

// OpenExisting is OpenWriter without creation: a missing store returns
// ErrNoStore and creates nothing.
func OpenExisting(ctx context.Context, loc Location) (*Store, error) {
	return openWriter(ctx, loc, false)
}

func openWriter(ctx context.Context, loc Location, create bool) (*Store, error) {
	path := loc.Path
	if !filepath.IsAbs(path) {
		return nil, askerr.Usage("the evidence store path %q is not absolute", path)
	}
	exists, empty, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	switch {
	case !exists && !create:
		return nil, ErrNoStore
	case !exists:
		if err := safeParent(path); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, storeErr(path, "cannot create its folder", err)
		}
		if err := sqlitedb.CreateEmpty(path, 0o600); err != nil {
			return nil, storeErr(path, "cannot create the file", err)
		}
		if _, _, err := checkFile(path); err != nil {
			return nil, err
		}
	case !empty:
		// Verify the history read-only first: opening a writable
		// connection on an unknown store could already change it (the
		// WAL pragma rewrites the header of a rollback-journal file).
		r, err := openReader(ctx, path, false)
		if err != nil {
			return nil, err
		}
		_ = r.Close()
	}
	db, err := sqlitedb.OpenWriter(ctx, path)
	if err != nil {
		return nil, historyErr(ctx, path, err)
	}
	if err := migrate(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	// The driver's VFS creates the -wal and -shm files with the default
	// mode (0644 under the usual umask), not the database's 0600, and the
	// -wal holds the same evidence: set the mode once they exist.
	// (Creating them 0600 beforehand raced with concurrent openers:
	// "disk I/O error" in TestConcurrentMigration.)
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600 {
			_ = os.Chmod(p, 0o600)
		}
	}
	return &Store{db: db, path: path}, nil
}

// busyTimeout is the DSN's busy_timeout.
const busyTimeout = sqlitedb.BusyTimeout

// writeTx runs fn in one BEGIN IMMEDIATE transaction (the writer DSN's
// _txlock) and commits it; fn's error rolls it back.
func writeTx(ctx context.Context, db *sql.DB, path, what string, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return sqlErr(ctx, path, what, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return sqlErr(ctx, path, what, err)
	}
	return nil
}

// sqlErr wraps a SQLite failure: an expired deadline is
// ASK_EVIDENCE_BUDGET, anything else ASK_EVIDENCE_STORE.
func sqlErr(ctx context.Context, path, what string, err error) error {
	var ae *askerr.Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &askerr.Error{Code: CodeBudget,
			Message: fmt.Sprintf("evidence store %s: %s did not finish within its time budget", path, what), Err: err,
			Try: []string{"narrow the period or filter by skill or host, then run the query again"}}
	}
	if sqlitedb.IsBusy(err) {
		return &askerr.Error{Code: CodeStore,
			Message: fmt.Sprintf("evidence store %s: %s: the store stayed locked by another process past the 10 s timeout", path, what), Err: err,
			Try: []string{"run the command again once the other agent-skills process has finished"}}
	}
	return storeErr(path, what, err)
}

// RecordRead records a read observation. The same EventKey with the same
// content (the time aside: a hook's retry may read another clock) is an
// identical retry (Inserted false); with another host, session, skill,
// scope, project, file, kind, digest or version it is ASK_EVIDENCE_CONFLICT
// and nothing is written. It also notes the host's day for coverage.
func (s *Store) RecordRead(ctx context.Context, r Read) (WriteResult, error) {
	if err := r.Validate(); err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	err := writeTx(ctx, s.db, s.path, "recording a read", func(tx *sql.Tx) error {
		var old Read
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id, host, session, skill, scope, project, file, kind, digest, version
			FROM read_observation WHERE event_key = ?`, r.EventKey).
			Scan(&id, &old.Host, &old.Session, &old.Skill, &old.Scope, &old.Project, &old.File, &old.Kind, &old.Digest, &old.Version)
		switch {
		case err == nil:
			old.EventKey, old.At = r.EventKey, r.At
			if old != r {
				return conflict(s.path, "read event %q is already recorded with other content (%s)", clip(r.EventKey), strings.Join(readDiff(old, r), ", "))
			}
			res = WriteResult{Inserted: false, ID: id}
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return sqlErr(ctx, s.path, "recording a read", err)
		}
		at := r.At.UnixMilli()
		out, err := tx.ExecContext(ctx, `INSERT INTO read_observation
			(event_key, host, session, at_ms, skill, scope, project, file, kind, digest, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.EventKey, r.Host, r.Session, at, r.Skill, r.Scope, r.Project, r.File, r.Kind, r.Digest, r.Version)
		if err != nil {
			return sqlErr(ctx, s.path, "recording a read", err)
		}
		id, _ = out.LastInsertId()
		day, noSession := floorDay(at), 0
		if r.Session == "" {
			noSession = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO host_day (host, day) VALUES (?, ?)`, r.Host, day); err != nil {
			return sqlErr(ctx, s.path, "recording a read", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO read_day (day, skill, host, digest, version, reads, no_session, first_ms, last_ms)
			VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT DO UPDATE SET reads = reads + 1, no_session = no_session + excluded.no_session,
			first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms)`,
			day, r.Skill, r.Host, r.Digest, r.Version, noSession, at, at); err != nil {
			return sqlErr(ctx, s.path, "recording a read", err)
		}
		if r.Session != "" {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO session_day (day, skill, session, host) VALUES (?, ?, ?, ?)`,
				day, r.Skill, r.Session, r.Host); err != nil {
				return sqlErr(ctx, s.path, "recording a read", err)
			}
		}
		res = WriteResult{Inserted: true, ID: id}
		return nil
	})
	return res, err
}

// readDiff names the fields in which a and b differ.
func readDiff(a, b Read) []string {
	var d []string
	for _, f := range []struct {
		name string
		x, y string
	}{{"host", a.Host, b.Host}, {"session", a.Session, b.Session}, {"skill", a.Skill, b.Skill}, {"scope", a.Scope, b.Scope},
		{"project", a.Project, b.Project}, {"file", a.File, b.File}, {"kind", a.Kind, b.Kind}, {"digest", a.Digest, b.Digest}, {"version", a.Version, b.Version}} {
		if f.x != f.y {
			d = append(d, f.name)
		}
	}
	return d
}

// RecordLifecycle records a lifecycle event. The same EventID with the
// same content is an identical retry; with other content, a second
// "started" or "finished" for the attempt under another EventID, a
// "finished" dated before the attempt's "started" (or the reverse), or
// another skill than the attempt's, it is ASK_EVIDENCE_CONFLICT and
// nothing is written.
func (s *Store) RecordLifecycle(ctx context.Context, l Lifecycle) (WriteResult, error) {
	if err := l.Validate(); err != nil {
		return WriteResult{}, err
	}
	at := l.At.UnixMilli()
	var res WriteResult
	err := writeTx(ctx, s.db, s.path, "recording a lifecycle event", func(tx *sql.Tx) error {
		var old Lifecycle
		var id, oldAt int64
		err := tx.QueryRowContext(ctx, `SELECT id, attempt, skill, version, stage, outcome, at_ms, emitter, reason
			FROM lifecycle_event WHERE event_id = ?`, l.EventID).
			Scan(&id, &old.Attempt, &old.Skill, &old.Version, &old.Stage, &old.Outcome, &oldAt, &old.Emitter, &old.Reason)
		switch {
		case err == nil:
			old.EventID, old.At = l.EventID, l.At
			if old != l || oldAt != at {
				return conflict(s.path, "lifecycle event %s is already recorded with other content", l.EventID)
			}
			res = WriteResult{Inserted: false, ID: id}
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return sqlErr(ctx, s.path, "recording a lifecycle event", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT event_id, skill, stage, at_ms FROM lifecycle_event WHERE attempt = ?`, l.Attempt)
		if err != nil {
			return sqlErr(ctx, s.path, "recording a lifecycle event", err)
		}
		defer rows.Close()
		for rows.Next() {
			var eid, skill, stage string
			var t int64
			if err := rows.Scan(&eid, &skill, &stage, &t); err != nil {
				return sqlErr(ctx, s.path, "recording a lifecycle event", err)
			}
			switch {
			case skill != l.Skill:
				return conflict(s.path, "attempt %s belongs to skill %s (event %s), not %s", l.Attempt, skill, eid, l.Skill)
			case stage == l.Stage:
				return conflict(s.path, "attempt %s already has a %q event (%s)", l.Attempt, stage, eid)
			case l.Stage == "finished" && t > at:
				return conflict(s.path, "attempt %s would finish before it started (started event %s is later)", l.Attempt, eid)
			case l.Stage == "started" && t < at:
				return conflict(s.path, "attempt %s would start after it finished (finished event %s is earlier)", l.Attempt, eid)
			}
		}
		if err := rows.Err(); err != nil {
			return sqlErr(ctx, s.path, "recording a lifecycle event", err)
		}
		rows.Close()
		out, err := tx.ExecContext(ctx, `INSERT INTO lifecycle_event
			(event_id, attempt, skill, version, stage, outcome, at_ms, emitter, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			l.EventID, l.Attempt, l.Skill, l.Version, l.Stage, l.Outcome, at, l.Emitter, l.Reason)
		if err != nil {
			return sqlErr(ctx, s.path, "recording a lifecycle event", err)
		}
		id, _ = out.LastInsertId()
		res = WriteResult{Inserted: true, ID: id}
		return nil
	})
	return res, err
}

// RecordCatalog records a complete catalog inventory. The same
// (Collection, At, Digest) with the same skill list is an identical retry;
// with another list it is ASK_EVIDENCE_CONFLICT.
func (s *Store) RecordCatalog(ctx context.Context, c CatalogObservation) (WriteResult, error) {
	if err := c.Validate(); err != nil {
		return WriteResult{}, err
	}
	at := c.At.UnixMilli()
	skills := slices.Clone(c.Skills)
	slices.SortFunc(skills, func(a, b CatalogSkill) int { return strings.Compare(a.Name, b.Name) })
	var res WriteResult
	err := writeTx(ctx, s.db, s.path, "recording a catalog observation", func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM catalog_observation WHERE collection = ? AND at_ms = ? AND digest = ?`,
			c.Collection, at, c.Digest).Scan(&id)
		switch {
		case err == nil:
			old, err := catalogSkills(ctx, tx, id)
			if err != nil {
				return sqlErr(ctx, s.path, "recording a catalog observation", err)
			}
			if !slices.Equal(old, skills) {
				return conflict(s.path, "catalog observation of %s at %s with digest %s is already recorded with another skill list",
					clip(c.Collection), c.At.UTC().Format("2006-01-02T15:04:05.000Z"), c.Digest)
			}
			res = WriteResult{Inserted: false, ID: id}
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return sqlErr(ctx, s.path, "recording a catalog observation", err)
		}
		out, err := tx.ExecContext(ctx, `INSERT INTO catalog_observation (collection, at_ms, digest, skills) VALUES (?, ?, ?, ?)`,
			c.Collection, at, c.Digest, len(skills))
		if err != nil {
			return sqlErr(ctx, s.path, "recording a catalog observation", err)
		}
		id, _ = out.LastInsertId()
		st, err := tx.PrepareContext(ctx, `INSERT INTO catalog_skill (observation, name, version, digest) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return sqlErr(ctx, s.path, "recording a catalog observation", err)
		}
		defer st.Close()
		for _, k := range skills {
			if _, err := st.ExecContext(ctx, id, k.Name, k.Version, k.Digest); err != nil {
				return sqlErr(ctx, s.path, "recording a catalog observation", err)
			}
		}
		res = WriteResult{Inserted: true, ID: id}
		return nil
	})
	return res, err
}

func catalogSkills(ctx context.Context, q querier, id int64) ([]CatalogSkill, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, version, digest FROM catalog_skill WHERE observation = ? ORDER BY name`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CatalogSkill
	for rows.Next() {
		var k CatalogSkill
		if err := rows.Scan(&k.Name, &k.Version, &k.Digest); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// NoteHostSeen records that host's hook ran on the UTC day of at, for
// coverage. Hooks call it through OpenExisting, so a non-skill read never
// creates the store.
func (s *Store) NoteHostSeen(ctx context.Context, host string, at time.Time) error {
	if !oneOf(host, Hosts) {
		return invalid("unknown host %q (want claude, codex, gemini or copilot)", clip(host))
	}
	if p := checkTime(at); p != "" {
		return invalid("host activity %s", p)
	}
	return writeTx(ctx, s.db, s.path, "noting host activity", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO host_day (host, day) VALUES (?, ?)`, host, floorDay(at.UnixMilli())); err != nil {
			return sqlErr(ctx, s.path, "noting host activity", err)
		}
		return nil
	})
}

const dayMS = 86_400_000

// floorDay returns the UTC day number (days since 1970-01-01) of ms.
func floorDay(ms int64) int64 {
	d := ms / dayMS
	if ms < 0 && ms%dayMS != 0 {
		d--
	}
	return d
}
