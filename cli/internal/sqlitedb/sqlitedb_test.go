package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testHistory = History{Table: "test_history", Migrations: []Migration{
	{Version: 1, Name: "one", SQL: `CREATE TABLE a (x INTEGER)`},
	{Version: 2, Name: "two", SQL: `CREATE TABLE b (y INTEGER)`},
}}

func TestChecksum(t *testing.T) {
	if Checksum("a") == Checksum("b") || !strings.HasPrefix(Checksum("a"), "sha256:") || len(Checksum("a")) != len("sha256:")+64 {
		t.Errorf("Checksum(%q) = %q, want sha256: and 64 hex digits, differing per input", "a", Checksum("a"))
	}
}

func TestDSN(t *testing.T) {
	w := DSN("/d/x.db", false, "foreign_keys(1)")
	r := DSN("/d/x.db", true)
	for _, c := range []struct {
		dsn, want string
	}{
		{w, "_pragma=journal_mode(WAL)"}, {w, "_txlock=immediate"}, {w, "_pragma=foreign_keys(1)"},
		{w, "_pragma=busy_timeout(10000)"}, {r, "mode=ro"}, {r, "_pragma=query_only(1)"},
	} {
		if !strings.Contains(c.dsn, c.want) {
			t.Errorf("DSN = %s, want it to contain %s", c.dsn, c.want)
		}
	}
	if strings.Contains(r, "WAL") || !strings.HasPrefix(DSN(`C:/x y.db`, true), "file:/C:/x%20y.db?") {
		t.Errorf("reader DSN %s, Windows-style DSN %s", r, DSN(`C:/x y.db`, true))
	}
}

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	os.WriteFile(p("empty"), nil, 0o600)
	os.WriteFile(p("text"), []byte("not a database"), 0o600)
	os.Symlink(p("empty"), p("link"))
	os.Mkdir(p("dir"), 0o700)
	db := open(t, p("real.db"))
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, c := range []struct {
		name string
		want State
		err  error
	}{
		{"missing", Missing, nil}, {"empty", Empty, nil}, {"real.db", Database, nil},
		{"text", Missing, ErrNotSQLite}, {"link", Missing, ErrSymlink}, {"dir", Missing, ErrNotRegular},
	} {
		st, err := Inspect(p(c.name))
		if st != c.want || !errors.Is(err, c.err) {
			t.Errorf("Inspect(%s) = %v, %v; want %v, %v", c.name, st, err, c.want, c.err)
		}
	}
	if err := CreateEmpty(p("empty"), 0o600); err != nil {
		t.Errorf("CreateEmpty over an existing file: %v", err)
	}
}

func open(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", DSN(path, false))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if err := Connect(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

func apply(t *testing.T, db *sql.DB, h History) error {
	t.Helper()
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Apply(context.Background(), tx, time.Now()); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func TestApplyAndRead(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "h.db"))
	defer db.Close()
	if v, err := testHistory.Read(ctx, db); v != 0 || err != nil {
		t.Fatalf("Read of an empty database = %d, %v; want 0, nil", v, err)
	}
	first := History{Table: testHistory.Table, Migrations: testHistory.Migrations[:1]}
	if err := apply(t, db, first); err != nil {
		t.Fatal(err)
	}
	if v, err := testHistory.Read(ctx, db); v != 1 || err != nil {
		t.Fatalf("Read after migration 1 = %d, %v", v, err)
	}
	for range 2 { // the upgrade, then a no-op
		if err := apply(t, db, testHistory); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	db.QueryRow(`SELECT count(*) FROM test_history`).Scan(&n)
	if v, err := testHistory.Read(ctx, db); v != 2 || err != nil || n != 2 {
		t.Fatalf("Read after the upgrade = %d, %v with %d rows; want 2, nil, 2", v, err, n)
	}
	// A build that knows one migration fewer refuses the newer database.
	if _, err := first.Read(ctx, db); kind(err) != Newer {
		t.Errorf("older build: %v, want Newer", err)
	}
}

func TestReadRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup string
		want  ProblemKind
	}{
		{"foreign", `CREATE TABLE other (x)`, Foreign},
		{"altered", `UPDATE test_history SET checksum = 'sha256:00' WHERE version = 2`, Altered},
		{"gap", `DELETE FROM test_history WHERE version = 1`, Gap},
		{"empty history", `DELETE FROM test_history`, Malformed},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := open(t, filepath.Join(t.TempDir(), "h.db"))
			defer db.Close()
			if c.want != Foreign {
				if err := apply(t, db, testHistory); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(c.setup); err != nil {
				t.Fatal(err)
			}
			if _, err := testHistory.Read(context.Background(), db); kind(err) != c.want {
				t.Errorf("Read = %v, want problem kind %d", err, c.want)
			}
			if err := apply(t, db, testHistory); kind(err) != c.want {
				t.Errorf("Apply = %v, want problem kind %d", err, c.want)
			}
		})
	}
}

func TestApplyStepError(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "h.db"))
	defer db.Close()
	bad := History{Table: "test_history", Migrations: []Migration{{Version: 1, Name: "broken", SQL: `CREATE TABLE (`}}}
	var step *StepError
	if err := apply(t, db, bad); !errors.As(err, &step) || !strings.Contains(step.What, "applying migration 1 (broken)") {
		t.Fatalf("Apply = %v, want a StepError naming the migration", err)
	}
	if v, err := bad.Read(context.Background(), db); v != 0 || err != nil {
		t.Errorf("after a failed Apply the database is not empty: %d, %v", v, err)
	}
}

func kind(err error) ProblemKind {
	var p *Problem
	if errors.As(err, &p) {
		return p.Kind
	}
	return 0
}
