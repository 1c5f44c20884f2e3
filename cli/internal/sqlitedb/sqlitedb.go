// Package sqlitedb holds what the CLI's SQLite databases (the evidence
// store, the catalog index) share: the driver's data source names, the
// inspection of a file before SQLite opens it, the first connection's
// retry, and ordered, checksummed migrations recorded in a history table
// and verified on every open. It returns plain errors and *Problem; each
// database wraps them in its own ASK_* codes and words.
package sqlitedb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
)

// BusyTimeout is how long a connection waits for another process's lock:
// the DSN's busy_timeout, and the retry window of Connect.
const BusyTimeout = 10 * time.Second

// DSN returns the driver's data source name for path with the pragmas
// set through the driver, so that every pooled connection gets them. A
// reader is read-only (mode=ro, query_only) with deferred transactions; a
// writer uses WAL, synchronous=NORMAL and BEGIN IMMEDIATE transactions.
// extra are more pragmas, e.g. "foreign_keys(1)".
func DSN(path string, readOnly bool, extra ...string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // C:/x → /C:/x, the SQLite URI form
	}
	q := []string{fmt.Sprintf("_pragma=busy_timeout(%d)", BusyTimeout.Milliseconds())}
	for _, p := range extra {
		q = append(q, "_pragma="+p)
	}
	if readOnly {
		q = append(q, "mode=ro", "_pragma=query_only(1)", "_txlock=deferred")
	} else {
		q = append(q, "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)", "_txlock=immediate")
	}
	return "file:" + u.EscapedPath() + "?" + strings.Join(q, "&")
}

// State is what Inspect found at a path.
type State int

const (
	// Missing: nothing is there.
	Missing State = iota
	// Empty: an empty regular file (one just created, not yet migrated).
	Empty
	// Database: a regular file that starts with the SQLite header.
	Database
)

// Inspect's refusals.
var (
	ErrSymlink    = errors.New("is a symbolic link")
	ErrNotRegular = errors.New("is not a regular file")
	ErrNotSQLite  = errors.New("is not a SQLite database")
)

var header = []byte("SQLite format 3\x00")

// Inspect looks at path without SQLite: a symbolic link, a non-regular
// file and a non-empty file without the SQLite header are refused with
// ErrSymlink, ErrNotRegular or ErrNotSQLite; any other error is the file
// system's.
func Inspect(path string) (State, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Missing, nil
	case err != nil:
		return Missing, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return Missing, ErrSymlink
	case !fi.Mode().IsRegular():
		return Missing, ErrNotRegular
	case fi.Size() == 0:
		return Empty, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Missing, err
	}
	defer f.Close()
	head := make([]byte, len(header))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, header) {
		return Missing, ErrNotSQLite
	}
	return Database, nil
}

// CreateEmpty creates path as an empty file with perm. A file another
// process created first is fine: the caller inspects it again.
func CreateEmpty(path string, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return err
	}
	return f.Close()
}

// Connect opens db's first connection, retrying while SQLite reports the
// file busy, for up to BusyTimeout: switching a database left in
// rollback-journal mode to WAL needs a moment's exclusive lock, and
// SQLite answers that pragma with SQLITE_BUSY at once, without its busy
// handler, when another process holds the file. The waits grow to 50 ms
// and are jittered, so that parallel openers do not retry in step.
func Connect(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(BusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := db.PingContext(ctx)
		if err == nil || !IsBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait + time.Duration(time.Now().UnixNano()%int64(wait))):
		}
	}
}

// IsBusy reports whether err is SQLite's busy or locked.
func IsBusy(err error) bool {
	s := err.Error()
	return strings.Contains(s, "database is locked") || strings.Contains(s, "busy")
}

// OpenWriter opens path for writing (DSN with readOnly false and extra):
// one connection, since every write is a BEGIN IMMEDIATE transaction, and
// that connection made at once with Connect's retry. A failure is a
// *StepError.
func OpenWriter(ctx context.Context, path string, extra ...string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", DSN(path, false, extra...))
	if err != nil {
		return nil, &StepError{"cannot open", err}
	}
	db.SetMaxOpenConns(1)
	if err := Connect(ctx, db); err != nil {
		db.Close()
		return nil, &StepError{"cannot open", err}
	}
	return db, nil
}

// OpenReader opens path read-only with one connection, made on first use.
func OpenReader(path string, extra ...string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", DSN(path, true, extra...))
	if err != nil {
		return nil, &StepError{"cannot open", err}
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// CloseWriter closes a writer's db. The last writer to close switches the
// file back to rollback-journal mode (checkpointing and removing the -wal
// and -shm files), so that a later read-only open finds a file it can
// read without creating any: SQLite opens (and so creates) the -wal file
// even for a read-only connection whenever the header says WAL. While
// another connection is open the switch fails at once (busy_timeout 0)
// and the file stays in WAL mode for that connection's own close.
func CloseWriter(db *sql.DB) error {
	ctx := context.Background()
	if c, err := db.Conn(ctx); err == nil {
		if _, err := c.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err == nil {
			_, _ = c.ExecContext(ctx, `PRAGMA journal_mode = DELETE`)
		}
		_ = c.Close()
	}
	return db.Close()
}
