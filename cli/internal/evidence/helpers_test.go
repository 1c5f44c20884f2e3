package evidence

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"
)

// TestMain lets a test re-execute the test binary as a second process:
// EVIDENCE_CHILD names what the child does with EVIDENCE_DB.
func TestMain(m *testing.M) {
	switch os.Getenv("EVIDENCE_CHILD") {
	case "":
		os.Exit(m.Run())
	case "migrate":
		child(func(ctx context.Context, loc Location) error {
			s, err := OpenWriter(ctx, loc)
			if err != nil {
				return err
			}
			return s.Close()
		})
	case "write":
		child(func(ctx context.Context, loc Location) error {
			s, err := OpenWriter(ctx, loc)
			if err != nil {
				return err
			}
			defer s.Close()
			n, _ := strconv.Atoi(os.Getenv("EVIDENCE_N"))
			for i := range n {
				r := sample(fmt.Sprintf("%s-%d", os.Getenv("EVIDENCE_WRITER"), i), day0.Add(time.Duration(i)*time.Second))
				if _, err := s.RecordRead(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

func child(fn func(context.Context, Location) error) {
	waitStart()
	if err := fn(context.Background(), Location{Path: os.Getenv("EVIDENCE_DB"), From: "--db"}); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// waitStart sleeps until EVIDENCE_START (unix nanoseconds), so that
// processes started one after another act at the same moment.
func waitStart() {
	if n, err := strconv.ParseInt(os.Getenv("EVIDENCE_START"), 10, 64); err == nil {
		time.Sleep(time.Until(time.Unix(0, n)))
	}
}

// children starts n copies of the test binary doing what, on path, all
// released at the same moment together with the caller (which waits for
// that moment when it calls the returned start), and returns their wait.
func children(t *testing.T, n int, what, path string, env ...string) (start func(), wait func() error) {
	t.Helper()
	at := time.Now().Add(500 * time.Millisecond).UnixNano()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "EVIDENCE_CHILD="+what, "EVIDENCE_DB="+path, fmt.Sprintf("EVIDENCE_START=%d", at), fmt.Sprintf("EVIDENCE_WRITER=w%d", i))
		cmd.Env = append(cmd.Env, env...)
		var b strings.Builder
		cmd.Stdout, cmd.Stderr = &b, &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	return func() { time.Sleep(time.Until(time.Unix(0, at))) }, func() error {
		var errs []string
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				errs = append(errs, fmt.Sprintf("child %d: %v: %s", i, err, outs[i]))
			}
		}
		if errs != nil {
			return fmt.Errorf("%s", strings.Join(errs, "\n"))
		}
		return nil
	}
}

// day0 is the first day of the hand-built stores: 2026-11-01 00:00 UTC.
var day0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func hexOf(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }

// sample returns a valid global SKILL.md read of "pdf" by claude.
func sample(key string, at time.Time) Read {
	return Read{Host: "claude", EventKey: key, Session: "s1", At: at, Skill: "pdf", Scope: "global",
		File: "SKILL.md", Kind: "entrypoint", Digest: hexOf('a'), Version: "1.0.0"}
}

func newLoc(t *testing.T) Location {
	t.Helper()
	return Location{Path: filepath.Join(t.TempDir(), "state", "skills-usage.db"), From: "--db"}
}

func openW(t *testing.T, loc Location) *Store {
	t.Helper()
	s, err := OpenWriter(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openR(t *testing.T, loc Location) *Reader {
	t.Helper()
	r, err := OpenReader(context.Background(), loc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// wantCode fails unless err carries code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if !askerr.Is(err, code) {
		t.Fatalf("got %v (code %s), want %s", err, askerr.CodeOf(err), code)
	}
}

// raw opens path with a plain connection (no pragmas, rollback journal)
// for tests that build or tamper with a store by hand.
func raw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func execSQL(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// buildAt creates a store at schema version v by applying the first v
// migrations by hand, as an older agent-skills would have.
func buildAt(t *testing.T, path string, v int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	db := raw(t, path)
	execSQL(t, db, history.DDL())
	for _, m := range migrations[:v] {
		execSQL(t, db, m.SQL)
		execSQL(t, db, `INSERT INTO schema_history VALUES (?, ?, ?, '2026-11-01T00:00:00Z')`, m.Version, m.Name, sqlitedb.Checksum(m.SQL))
	}
	db.Close()
}

// fileSet returns dir's file names with the SHA-256 of each.
func fileSet(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// hashes returns the SHA-256 of the db and its -wal ("absent" when missing).
func hashes(t *testing.T, path string) string {
	t.Helper()
	var out []string
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			out = append(out, "absent")
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		out = append(out, hex.EncodeToString(s[:8]))
	}
	return strings.Join(out, " ")
}
