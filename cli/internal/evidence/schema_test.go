package evidence

import (
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"

	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMigrationsAreOrderedAndChecksummed(t *testing.T) {
	if len(migrations) < 3 {
		t.Fatalf("%d migrations, want at least 3", len(migrations))
	}
	for i, m := range migrations {
		if m.Version != i+1 || m.Name == "" || m.SQL == "" {
			t.Errorf("migration %d: version %d name %q", i, m.Version, m.Name)
		}
	}
}

func TestFreshStore(t *testing.T) {
	loc := newLoc(t)
	s := openW(t, loc)
	fi, err := os.Stat(loc.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store mode %v, want 0600", fi.Mode().Perm())
	}
	for _, side := range []string{"-wal", "-shm"} {
		fi, err := os.Stat(loc.Path + side)
		if err != nil {
			t.Fatalf("a live writer has no %s: %v", side, err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600: it holds the same evidence", side, fi.Mode().Perm())
		}
	}
	di, _ := os.Stat(filepath.Dir(loc.Path))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", di.Mode().Perm())
	}
	s.Close()
	db := raw(t, loc.Path)
	var n int
	var name, sum string
	rows, err := db.Query(`SELECT version, name, checksum FROM schema_history ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		n++
		if err := rows.Scan(&n, &name, &sum); err != nil {
			t.Fatal(err)
		}
		if sum != sqlitedb.Checksum(migrations[n-1].SQL) || name != migrations[n-1].Name {
			t.Errorf("row %d: %s %s", n, name, sum)
		}
	}
	rows.Close()
	if n != SchemaVersion {
		t.Errorf("history ends at %d, want %d", n, SchemaVersion)
	}
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "delete" {
		t.Errorf("idle store journal_mode %q, want delete (the last writer switches back)", mode)
	}
	if r := openR(t, loc); r.SchemaVersion() != SchemaVersion {
		t.Errorf("reader sees version %d", r.SchemaVersion())
	}
}

func TestWriterUsesWALAndPragmas(t *testing.T) {
	s := openW(t, newLoc(t))
	ctx := context.Background()
	for pragma, want := range map[string]string{"journal_mode": "wal", "busy_timeout": "10000", "synchronous": "1"} {
		var got string
		if err := s.db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

// TestUpgradeFromEveryVersion builds a store at each earlier version with
// rows of that version's tables, then checks a writer upgrades it keeping
// the rows, and that a reader refuses it before (SCHEMA_OLD) and accepts
// it after.
func TestUpgradeFromEveryVersion(t *testing.T) {
	for v := 1; v < SchemaVersion; v++ {
		t.Run(string(rune('0'+v)), func(t *testing.T) {
			loc := newLoc(t)
			buildAt(t, loc.Path, v)
			db := raw(t, loc.Path)
			execSQL(t, db, `INSERT INTO read_observation (event_key, host, session, at_ms, skill, scope, project, file, kind, digest, version)
				VALUES ('old', 'codex', 's', ?, 'pdf', 'global', '', 'SKILL.md', 'entrypoint', ?, '')`, day0.UnixMilli(), hexOf('b'))
			db.Close()
			before := hashes(t, loc.Path)
			_, err := OpenReader(context.Background(), loc)
			wantCode(t, err, CodeSchemaOld)
			if hashes(t, loc.Path) != before {
				t.Fatal("the reader changed an old store")
			}
			s := openW(t, loc)
			res, err := s.RecordRead(context.Background(), sample("new", day0.Add(3600e9)))
			if err != nil || !res.Inserted {
				t.Fatal(res, err)
			}
			s.Close()
			r := openR(t, loc)
			st, err := r.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.SchemaVersion != SchemaVersion || st.Reads != 2 {
				t.Errorf("after upgrade from %d: version %d reads %d", v, st.SchemaVersion, st.Reads)
			}
			// Migration 2 backfills the host days of the reads before it.
			if v < 2 && !slices.Contains(st.HostsSeen, "codex") {
				t.Errorf("hosts seen %v: the old read's host day was not backfilled", st.HostsSeen)
			}
		})
	}
}

// refuse checks every open refuses the store at path with code and leaves
// the db and its -wal byte-identical.
func refuse(t *testing.T, loc Location, code string) {
	t.Helper()
	before, files := hashes(t, loc.Path), fileSet(t, filepath.Dir(loc.Path))
	ctx := context.Background()
	if s, err := OpenWriter(ctx, loc); err == nil {
		s.Close()
		t.Fatal("OpenWriter accepted it")
	} else {
		wantCode(t, err, code)
	}
	_, err := OpenExisting(ctx, loc)
	wantCode(t, err, code)
	_, err = OpenReader(ctx, loc)
	wantCode(t, err, code)
	if after := hashes(t, loc.Path); after != before {
		t.Errorf("the file changed: %s → %s", before, after)
	}
	if after := fileSet(t, filepath.Dir(loc.Path)); !slices.Equal(after, files) {
		t.Errorf("the folder changed: %v → %v", files, after)
	}
}

func TestAlteredChecksumRefused(t *testing.T) {
	loc := newLoc(t)
	openW(t, loc).Close()
	execSQL(t, raw(t, loc.Path), `UPDATE schema_history SET checksum = 'sha256:0000' WHERE version = 2`)
	refuse(t, loc, CodeSchema)
}

func TestFutureVersionRefused(t *testing.T) {
	loc := newLoc(t)
	openW(t, loc).Close()
	execSQL(t, raw(t, loc.Path), `INSERT INTO schema_history VALUES (?, 'from the future', 'sha256:ff', 'x')`, SchemaVersion+1)
	refuse(t, loc, CodeSchema)
}

func TestGapRefused(t *testing.T) {
	loc := newLoc(t)
	openW(t, loc).Close()
	execSQL(t, raw(t, loc.Path), `DELETE FROM schema_history WHERE version = 2`)
	refuse(t, loc, CodeSchema)
}

// TestAlteredWithLiveWAL alters the history through a connection that is
// still open in WAL mode, so the change sits in the -wal: the refusal must
// leave the -wal byte-identical too.
func TestAlteredWithLiveWAL(t *testing.T) {
	loc := newLoc(t)
	openW(t, loc).Close()
	db := raw(t, loc.Path)
	db.SetMaxOpenConns(1)
	execSQL(t, db, `PRAGMA journal_mode = WAL`)
	execSQL(t, db, `PRAGMA wal_autocheckpoint = 0`)
	execSQL(t, db, `UPDATE schema_history SET name = 'renamed', checksum = 'sha256:1' WHERE version = 1`)
	if _, err := os.Stat(loc.Path + "-wal"); err != nil {
		t.Fatal("no -wal:", err)
	}
	refuse(t, loc, CodeSchema)
}

func TestForeignDatabaseRefused(t *testing.T) {
	loc := newLoc(t)
	os.MkdirAll(filepath.Dir(loc.Path), 0o700)
	execSQL(t, raw(t, loc.Path), `CREATE TABLE notes (x TEXT)`)
	refuse(t, loc, CodeSchema)
}

func TestNotSQLiteRefused(t *testing.T) {
	loc := newLoc(t)
	os.MkdirAll(filepath.Dir(loc.Path), 0o700)
	os.WriteFile(loc.Path, []byte("{\"reads\": []}\n"), 0o600)
	refuse(t, loc, CodeSchema)
}

func TestSymlinkRefused(t *testing.T) {
	loc := newLoc(t)
	target := filepath.Join(t.TempDir(), "real.db")
	openW(t, Location{Path: target}).Close()
	os.MkdirAll(filepath.Dir(loc.Path), 0o700)
	if err := os.Symlink(target, loc.Path); err != nil {
		t.Skip(err)
	}
	refuse(t, loc, CodeStore)
	dir := filepath.Join(t.TempDir(), "dir.db")
	os.Mkdir(dir, 0o700)
	_, err := OpenWriter(context.Background(), Location{Path: dir})
	wantCode(t, err, CodeStore)
}

func TestMissingStore(t *testing.T) {
	loc := newLoc(t)
	ctx := context.Background()
	if _, err := OpenExisting(ctx, loc); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenExisting: %v", err)
	}
	if _, err := OpenReader(ctx, loc); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenReader: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(loc.Path)); !os.IsNotExist(err) {
		t.Fatalf("a missing store's folder was created: %v", err)
	}
}

// TestConcurrentMigration migrates one fresh store from two processes at
// once (this test and three re-executed copies of the test binary, released
// at the same moment): both succeed
// and the history records each version once.
func TestConcurrentMigration(t *testing.T) {
	for round := range 3 {
		loc := newLoc(t)
		start, wait := children(t, 3, "migrate", loc.Path)
		start()
		s, err := OpenWriter(context.Background(), loc)
		if err != nil {
			t.Fatalf("round %d: this process: %v", round, err)
		}
		s.Close()
		if err := wait(); err != nil {
			t.Fatalf("round %d: the other process: %v", round, err)
		}
		var rows, distinct int
		raw(t, loc.Path).QueryRow(`SELECT count(*), count(DISTINCT version) FROM schema_history`).Scan(&rows, &distinct)
		if rows != SchemaVersion || distinct != SchemaVersion {
			t.Fatalf("round %d: history has %d rows, %d versions", round, rows, distinct)
		}
	}
}
