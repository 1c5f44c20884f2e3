package catindex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// Index is an open catalog index. A writable one (Open) runs each write
// in its own BEGIN IMMEDIATE transaction; a read-only one (OpenReader)
// refuses writes.
type Index struct {
	db       *sql.DB
	path     string
	readOnly bool
}

// Path returns the database file's path.
func (ix *Index) Path() string { return ix.path }

// Close closes the index. A writer switches the file back to
// rollback-journal mode first (removing the -wal and -shm files), so that
// a later read-only open creates no file: SQLite opens the -wal file even
// for a read-only connection when the header says WAL.
func (ix *Index) Close() error {
	closeDB := ix.db.Close
	if !ix.readOnly {
		closeDB = func() error { return sqlitedb.CloseWriter(ix.db) }
	}
	if err := closeDB(); err != nil {
		return storeErr(ix.path, "closing", err)
	}
	return nil
}

// foreignKeys is the pragma every connection of the index gets.
const foreignKeys = "foreign_keys(1)"

// checkFile inspects path without SQLite: exists=false when missing; a
// symbolic link, a non-regular file and a non-empty file without the
// SQLite header are refused.
func checkFile(path string) (exists, empty bool, err error) {
	st, err := sqlitedb.Inspect(path)
	switch {
	case errors.Is(err, sqlitedb.ErrSymlink):
		return true, false, &askerr.Error{Code: CodeStore,
			Message: fmt.Sprintf("catalog index %s is a symbolic link; agent-skills does not open an index through one", path),
			Try:     []string{"name the link's target folder with --index DIR"}}
	case errors.Is(err, sqlitedb.ErrNotRegular):
		return true, false, storeErr(path, "is not a regular file", nil)
	case errors.Is(err, sqlitedb.ErrNotSQLite):
		return true, false, schemaErr(path, "the file is not a SQLite database")
	case err != nil:
		return false, false, storeErr(path, "cannot inspect the file", err)
	}
	return st != sqlitedb.Missing, st == sqlitedb.Empty, nil
}

// Open opens the index in dir (an absolute folder), creating the folder
// and the database when absent, and migrates it. Call CheckPlace first.
// An unknown, altered or future history is refused with the file left
// untouched: it is verified read-only before the first writable
// connection.
func Open(ctx context.Context, dir string) (*Index, error) { return open(ctx, dir, true) }

// OpenExisting is Open without creation: a missing index (or an empty
// file) is ErrNoIndex and nothing is created.
func OpenExisting(ctx context.Context, dir string) (*Index, error) { return open(ctx, dir, false) }

func open(ctx context.Context, dir string, create bool) (*Index, error) {
	if !filepath.IsAbs(dir) {
		return nil, askerr.Usage("the index folder %q is not absolute", dir)
	}
	path := filepath.Join(dir, DBName)
	exists, empty, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	switch {
	case (!exists || empty) && !create:
		return nil, ErrNoIndex
	case !exists:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, storeErr(path, "cannot create its folder", err)
		}
		if err := sqlitedb.CreateEmpty(path, 0o644); err != nil {
			return nil, storeErr(path, "cannot create the file", err)
		}
		if _, _, err := checkFile(path); err != nil {
			return nil, err
		}
	case !empty:
		r, err := openReader(ctx, path, false)
		if err != nil {
			return nil, err
		}
		_ = r.Close()
	}
	db, err := sqlitedb.OpenWriter(ctx, path, foreignKeys)
	if err != nil {
		return nil, historyErr(ctx, path, err)
	}
	if err := migrate(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	return &Index{db: db, path: path}, nil
}

// OpenReader opens the index in dir read-only: it never creates, migrates
// or writes anything. A missing index (or an empty file) is ErrNoIndex;
// an older known schema is refused (ASK_CATALOG_INDEX_SCHEMA: any add
// upgrades it).
func OpenReader(ctx context.Context, dir string) (*Index, error) {
	if !filepath.IsAbs(dir) {
		return nil, askerr.Usage("the index folder %q is not absolute", dir)
	}
	return openReader(ctx, filepath.Join(dir, DBName), true)
}

func openReader(ctx context.Context, path string, current bool) (*Index, error) {
	exists, empty, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if !exists || empty {
		return nil, ErrNoIndex
	}
	db, err := sqlitedb.OpenReader(path, foreignKeys)
	if err != nil {
		return nil, historyErr(ctx, path, err)
	}
	ix := &Index{db: db, path: path, readOnly: true}
	var version int
	err = ix.view(ctx, "reading the schema history", func(tx *sql.Tx) error {
		version, err = readHistory(ctx, tx, path)
		return err
	})
	switch {
	case err != nil:
	case current && version == 0:
		err = ErrNoIndex
	case current && version < len(migrations):
		err = &askerr.Error{Code: CodeSchema,
			Message: fmt.Sprintf("catalog index %s has schema version %d; this agent-skills reads version %d", path, version, len(migrations)),
			Detail:  []string{"reading never migrates an index"},
			Try:     []string{"agent-skills catalog index add … or rebuild upgrades it"}}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

// writeTx runs fn in one BEGIN IMMEDIATE transaction and commits it; fn's
// error rolls it back.
func (ix *Index) writeTx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	if ix.readOnly {
		return askerr.Internal("catalog index "+ix.path+" is open read-only", nil)
	}
	return writeTx(ctx, ix.db, ix.path, what, fn)
}

func writeTx(ctx context.Context, db *sql.DB, path, what string, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return sqlErr(ctx, path, what, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return sqlErr(ctx, path, what, err)
	}
	if err := tx.Commit(); err != nil {
		return sqlErr(ctx, path, what, err)
	}
	return nil
}

// view runs fn in one read transaction.
func (ix *Index) view(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: ix.readOnly})
	if err != nil {
		return sqlErr(ctx, ix.path, what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return sqlErr(ctx, ix.path, what, err)
	}
	if err := tx.Commit(); err != nil {
		return sqlErr(ctx, ix.path, what, err)
	}
	return nil
}

// sqlErr wraps a SQLite failure as ASK_CATALOG_INDEX_STORE, keeping an
// error that already carries a code.
func sqlErr(ctx context.Context, path, what string, err error) error {
	var ae *askerr.Error
	if errors.As(err, &ae) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if sqlitedb.IsBusy(err) {
		return &askerr.Error{Code: CodeStore,
			Message: fmt.Sprintf("catalog index %s: %s: the index stayed locked by another process past the 10 s timeout", path, what), Err: err,
			Try: []string{"run the command again once the other agent-skills process has finished"}}
	}
	return storeErr(path, what, err)
}
