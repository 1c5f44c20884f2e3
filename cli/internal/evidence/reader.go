package evidence

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// Reader is a read-only evidence store.
type Reader struct {
	db      *sql.DB
	path    string
	version int
}

// OpenReader opens an existing store read-only (mode=ro, query_only): it
// never creates, migrates or writes anything. A missing store (or an
// empty file) is ErrNoStore; an unknown, altered or future history is
// ASK_EVIDENCE_SCHEMA; an older known schema is ASK_EVIDENCE_SCHEMA_OLD —
// queries never migrate, any record upgrades it.
//
// What it leaves on disk: SQLite opens, and so creates, the -wal file
// even for a read-only connection whenever the database header says WAL
// (sqlite3WalOpen asks for read-write and create), and a read-only
// connection cannot checkpoint it away on close. The writer therefore
// leaves an idle store in rollback-journal mode (see Store.Close): a
// reader then takes a shared lock and creates nothing. With a live writer
// the -wal and -shm files exist already; the reader uses them and leaves
// them as it found them. `immutable=1` would create nothing but is unsafe
// with a live writer (SQLite then assumes the file cannot change), so it is
// not used. TestReaderLeavesNoFile checks both cases.
func OpenReader(ctx context.Context, loc Location) (*Reader, error) {
	if !filepath.IsAbs(loc.Path) {
		return nil, askerr.Usage("the evidence store path %q is not absolute", loc.Path)
	}
	return openReader(ctx, loc.Path, true)
}

func openReader(ctx context.Context, path string, current bool) (*Reader, error) {
	exists, empty, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if !exists || empty {
		return nil, ErrNoStore
	}
	db, err := sqlitedb.OpenReader(path)
	if err != nil {
		return nil, historyErr(ctx, path, err)
	}
	r := &Reader{db: db, path: path}
	err = r.view(ctx, "reading the schema history", func(tx *sql.Tx) error {
		v, err := readHistory(ctx, tx, path)
		r.version = v
		return err
	})
	if err == nil && current && r.version == 0 {
		err = ErrNoStore
	}
	if err == nil && current && r.version < len(migrations) {
		err = &askerr.Error{Code: CodeSchemaOld,
			Message: fmt.Sprintf("evidence store %s has schema version %d; this agent-skills queries version %d", path, r.version, len(migrations)),
			Detail:  []string{"queries never migrate a store"},
			Try:     []string{"any record upgrades it (the next read a hook records, or agent-skills evidence record …)"}}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return r, nil
}

// Close closes the reader.
func (r *Reader) Close() error {
	if err := r.db.Close(); err != nil {
		return storeErr(r.path, "closing", err)
	}
	return nil
}

// SchemaVersion returns the store's schema version.
func (r *Reader) SchemaVersion() int { return r.version }

// view runs fn in one read transaction (BEGIN … COMMIT on one
// connection), under QueryBudget when ctx has no deadline of its own.
func (r *Reader) view(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, QueryBudget)
		defer cancel()
	}
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return sqlErr(ctx, r.path, what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return sqlErr(ctx, r.path, what, err)
	}
	if err := tx.Commit(); err != nil {
		return sqlErr(ctx, r.path, what, err)
	}
	return nil
}

// Status summarises the store for `evidence status`.
type Status struct {
	Path                string     `json:"path"`
	SchemaVersion       int        `json:"schemaVersion"`
	Reads               int64      `json:"reads"`
	LifecycleEvents     int64      `json:"lifecycleEvents"`
	CatalogObservations int64      `json:"catalogObservations"`
	HostDays            int64      `json:"hostDays"`
	FirstObservation    *time.Time `json:"firstObservation,omitempty"`
	LastObservation     *time.Time `json:"lastObservation,omitempty"`
	HostsSeen           []string   `json:"hostsSeen"`
}

// Status returns the counts per table, the first and last observation
// (of any kind) and the hosts seen.
func (r *Reader) Status(ctx context.Context) (Status, error) {
	st := Status{Path: r.path, SchemaVersion: r.version, HostsSeen: []string{}}
	err := r.view(ctx, "reading the status", func(tx *sql.Tx) error {
		var first, last sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM read_observation), (SELECT count(*) FROM lifecycle_event),
			(SELECT count(*) FROM catalog_observation), (SELECT count(*) FROM host_day),
			min((SELECT min(at_ms) FROM read_observation), (SELECT min(at_ms) FROM lifecycle_event), (SELECT min(at_ms) FROM catalog_observation)),
			max((SELECT max(at_ms) FROM read_observation), (SELECT max(at_ms) FROM lifecycle_event), (SELECT max(at_ms) FROM catalog_observation))`).
			Scan(&st.Reads, &st.LifecycleEvents, &st.CatalogObservations, &st.HostDays, &first, &last)
		if err != nil {
			return err
		}
		// min()/max() of several arguments is NULL when any is NULL: take
		// each table's bounds separately then.
		if !first.Valid {
			for _, t := range []string{"read_observation", "lifecycle_event", "catalog_observation"} {
				var lo, hi sql.NullInt64
				if err := tx.QueryRowContext(ctx, `SELECT min(at_ms), max(at_ms) FROM `+t).Scan(&lo, &hi); err != nil {
					return err
				}
				if lo.Valid && (!first.Valid || lo.Int64 < first.Int64) {
					first = lo
				}
				if hi.Valid && (!last.Valid || hi.Int64 > last.Int64) {
					last = hi
				}
			}
		}
		st.FirstObservation, st.LastObservation = msPtr(first), msPtr(last)
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT host FROM host_day ORDER BY host`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				return err
			}
			st.HostsSeen = append(st.HostsSeen, h)
		}
		return rows.Err()
	})
	return st, err
}

func msPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}

// thousands formats n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
