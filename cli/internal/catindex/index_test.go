package catindex

import (
	"github.com/agent-skills/agent-skills/cli/internal/sqlitedb"

	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func openT(t *testing.T, dir string) *Index {
	t.Helper()
	ix, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("Open(%q) = %v", dir, err)
	}
	return ix
}

func cat(entries ...catalog.Entry) *catalog.Catalog {
	return &catalog.Catalog{SchemaVersion: catalog.SchemaVersion, Skills: entries}
}

func entry(name, version, digest string) catalog.Entry {
	return catalog.Entry{Name: name, Path: name, Kind: "skill", Version: version, Digest: digest, Description: name + " does things."}
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestMigrationsAreOrderedAndChecksummed(t *testing.T) {
	for i, m := range migrations {
		if m.Version != i+1 || m.Name == "" || m.SQL == "" {
			t.Errorf("migration %d: version %d name %q", i, m.Version, m.Name)
		}
	}
}

func TestFreshIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	ix := openT(t, dir)
	var v int
	var sum string
	if err := ix.db.QueryRow(`SELECT version, checksum FROM index_schema_history`).Scan(&v, &sum); err != nil {
		t.Fatal(err)
	}
	if v != 1 || sum != sqlitedb.Checksum(migrations[0].SQL) {
		t.Errorf("history = %d %s, want 1 %s", v, sum, sqlitedb.Checksum(migrations[0].SQL))
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); !slices.Equal(got, []string{DBName}) {
		t.Errorf("after Close the folder holds %v, want only %s", got, DBName)
	}
	// Opening again migrates nothing and keeps the history.
	ix = openT(t, dir)
	var n int
	if err := ix.db.QueryRow(`SELECT count(*) FROM index_schema_history`).Scan(&n); err != nil || n != 1 {
		t.Errorf("history rows = %d, %v, want 1", n, err)
	}
	ix.Close()
}

// tamper runs sqlText on the index in dir behind the package's back.
func tamper(t *testing.T, dir, sqlText string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, DBName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(sqlText); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA journal_mode = DELETE`); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaRefused(t *testing.T) {
	cases := []struct {
		name, sql string
	}{
		{"altered checksum", `UPDATE index_schema_history SET checksum = 'sha256:00' WHERE version = 1`},
		{"future version", `INSERT INTO index_schema_history VALUES (2, 'future', 'sha256:11', 'x')`},
		{"empty history", `DELETE FROM index_schema_history`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			openT(t, dir).Close()
			tamper(t, dir, c.sql)
			before, _ := os.ReadFile(filepath.Join(dir, DBName))
			for what, openFn := range map[string]func(context.Context, string) (*Index, error){"Open": Open, "OpenReader": OpenReader} {
				_, err := openFn(context.Background(), dir)
				if !askerr.Is(err, CodeSchema) {
					t.Errorf("%s after %s = %v, want %s", what, c.name, err, CodeSchema)
				}
			}
			after, _ := os.ReadFile(filepath.Join(dir, DBName))
			if !bytes.Equal(before, after) {
				t.Error("a refused index was changed")
			}
		})
	}
}

func TestForeignDatabasesRefused(t *testing.T) {
	// The evidence database (its tables, under another name) and any
	// SQLite file with tables but no index history.
	for name, ddl := range map[string]string{
		"evidence": `CREATE TABLE schema_history (version INTEGER); CREATE TABLE read_observation (id INTEGER)`,
		"other":    `CREATE TABLE t (x INTEGER)`,
	} {
		dir := t.TempDir()
		tamper(t, dir, ddl)
		if _, err := Open(context.Background(), dir); !askerr.Is(err, CodeSchema) {
			t.Errorf("Open(%s database) = %v, want %s", name, err, CodeSchema)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, DBName), []byte("not sqlite at all"), 0o644)
	if _, err := Open(context.Background(), dir); !askerr.Is(err, CodeSchema) {
		t.Errorf("Open(text file) = %v, want %s", err, CodeSchema)
	}
}

func TestOpenReaderCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	if _, err := OpenReader(context.Background(), dir); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("OpenReader(missing) = %v, want ErrNoIndex", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenReader created %s", dir)
	}
	ix := openT(t, dir)
	ix.Close()
	r, err := OpenReader(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Projection(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Add(context.Background(), "a", "d", cat(), t0); err == nil {
		t.Error("a read-only index accepted a write")
	}
	r.Close()
	if got := files(t, dir); !slices.Equal(got, []string{DBName}) {
		t.Errorf("a reader left %v, want only %s", got, DBName)
	}
}

func TestAddDiffRemoveRebuild(t *testing.T) {
	ctx := context.Background()
	ix := openT(t, t.TempDir())
	defer ix.Close()
	v1 := cat(entry("alpha", "1.0.0", "sha256-a1"), entry("beta", "", "sha256-b1"))
	r, err := ix.Add(ctx, "github.com/acme/one", "sha256-c1", v1, t0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Unchanged || len(r.Observation.Changes) != 2 || r.Observation.Changes[0].Change != ChangeAdded {
		t.Errorf("first add = %+v, want two additions", r)
	}
	if _, err := ix.Add(ctx, "example/two", "sha256-c2", cat(entry("gamma", "0.1.0", "sha256-g1")), t0); err != nil {
		t.Fatal(err)
	}
	// The same catalog again records nothing.
	r, err = ix.Add(ctx, "github.com/acme/one", "sha256-c1", v1, t0.Add(time.Hour))
	if err != nil || !r.Unchanged || !r.Observation.At.Equal(t0) {
		t.Errorf("re-add = %+v, %v, want unchanged since %v", r, err, t0)
	}
	// alpha changes version and digest, beta goes, delta comes.
	a2 := entry("alpha", "1.1.0", "sha256-a2")
	v2 := cat(a2, entry("delta", "", "sha256-d1"))
	r, err = ix.Add(ctx, "github.com/acme/one", "sha256-c3", v2, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	got := r.Observation.Changes
	if len(got) != 3 {
		t.Fatalf("changes = %+v, want 3", got)
	}
	if got[0].Name != "alpha" || got[0].Change != ChangeChanged || !slices.Equal(got[0].Fields, []string{"digest", "version"}) ||
		got[0].Before.Version != "1.0.0" || got[0].After.Version != "1.1.0" {
		t.Errorf("alpha change = %+v", got[0])
	}
	if got[1].Name != "beta" || got[1].Change != ChangeRemoved || got[1].After != nil {
		t.Errorf("beta change = %+v", got[1])
	}
	if got[2].Name != "delta" || got[2].Change != ChangeAdded || got[2].Before != nil {
		t.Errorf("delta change = %+v", got[2])
	}
	// History: the latest by default, every one since a time otherwise.
	h, err := ix.History(ctx, "github.com/acme/one", time.Time{})
	if err != nil || len(h) != 1 || len(h[0].Changes) != 3 || h[0].Changes[0].Before.Digest != "sha256-a1" {
		t.Errorf("History(latest) = %+v, %v", h, err)
	}
	h, err = ix.History(ctx, "github.com/acme/one", t0)
	if err != nil || len(h) != 2 || h[0].Digest != "sha256-c1" {
		t.Errorf("History(since) = %+v, %v", h, err)
	}
	if _, err := ix.History(ctx, "nobody/here", time.Time{}); !askerr.Is(err, CodeNotFound) {
		t.Errorf("History(unknown) = %v, want %s", err, CodeNotFound)
	}
	p, err := ix.Projection(ctx)
	if err != nil || len(p.Sources) != 2 || len(p.Skills) != 3 {
		t.Fatalf("projection = %+v, %v", p, err)
	}
	// Remove drops the projection rows and keeps the history.
	if _, err := ix.Remove(ctx, "example/two", t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Remove(ctx, "example/two", t0.Add(3*time.Hour)); !askerr.Is(err, CodeNotFound) {
		t.Errorf("second Remove = %v, want %s", err, CodeNotFound)
	}
	p, _ = ix.Projection(ctx)
	if len(p.Sources) != 1 || len(p.Skills) != 2 {
		t.Errorf("projection after remove = %+v", p)
	}
	// Rebuild from the observations gives the same projection.
	if _, err := ix.db.Exec(`DELETE FROM skill; DELETE FROM source`); err != nil {
		t.Fatal(err)
	}
	rb, err := ix.Rebuild(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rb.Encode(), p.Encode()) {
		t.Errorf("rebuilt projection:\n%s\nwant:\n%s", rb.Encode(), p.Encode())
	}
	// Re-adding the removed source compares with its last catalog.
	r, err = ix.Add(ctx, "example/two", "sha256-c2", cat(entry("gamma", "0.1.0", "sha256-g1")), t0.Add(4*time.Hour))
	if err != nil || r.Unchanged || len(r.Observation.Changes) != 0 {
		t.Errorf("re-add after remove = %+v, %v, want a new observation without changes", r, err)
	}
}

func TestAddRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	ix := openT(t, t.TempDir())
	defer ix.Close()
	if _, err := ix.Add(ctx, "/home/me/skills", "d", cat(), t0); !askerr.Is(err, CodeSource) {
		t.Errorf("Add(path id) = %v, want %s", err, CodeSource)
	}
	dup := cat(entry("a", "", "x"), entry("a", "", "y"))
	if _, err := ix.Add(ctx, "s", "d", dup, t0); !askerr.Is(err, CodeCatalog) {
		t.Errorf("Add(duplicate) = %v, want %s", err, CodeCatalog)
	}
	p, _ := ix.Projection(ctx)
	if len(p.Sources) != 0 {
		t.Errorf("a refused add left %+v", p)
	}
}

func TestValidateSourceID(t *testing.T) {
	for id, ok := range map[string]bool{
		"github.com/acme/skills": true, "acme": true, "a_b-c.d/e": true,
		"": false, "/abs": false, "../x": false, "a/../b": false, "a//b": false, "~/x": false,
		"C:/x": false, `a\b`: false, "a/": false, ".hidden": false, "a b": false,
		string(make([]byte, MaxSourceID+1)): false,
	} {
		if err := ValidateSourceID(id); (err == nil) != ok {
			t.Errorf("ValidateSourceID(%q) = %v, want ok %v", id, err, ok)
		}
	}
}

func TestEncodeIsCanonical(t *testing.T) {
	p := Projection{
		Sources: []Source{{ID: "b", Digest: "d2", Skills: 1, ObservedAt: Time{t0}}, {ID: "a", Digest: "d1", Skills: 0, ObservedAt: Time{t0}}},
		Skills:  []Skill{{Source: "b", Name: "z", Path: "z"}, {Source: "b", Name: "y", Path: "y"}},
	}
	want := Projection{Sources: []Source{p.Sources[1], p.Sources[0]}, Skills: []Skill{p.Skills[1], p.Skills[0]}}
	if !bytes.Equal(p.Encode(), want.Encode()) {
		t.Errorf("Encode depends on the order:\n%s", p.Encode())
	}
	if !bytes.Contains(p.Encode(), []byte(`"schemaVersion": 1`)) || !bytes.HasSuffix(p.Encode(), []byte("}\n")) {
		t.Errorf("Encode = %s", p.Encode())
	}
	if !bytes.Contains(p.Encode(), []byte(`"observedAt": "2026-12-01T10:00:00.000Z"`)) {
		t.Errorf("Encode does not write times as UTC milliseconds:\n%s", p.Encode())
	}
	if e := (Projection{}).Encode(); !bytes.Contains(e, []byte(`"skills": []`)) {
		t.Errorf("empty Encode = %s", e)
	}
}

func TestCheckPlace(t *testing.T) {
	root := t.TempDir()
	coll := filepath.Join(root, "repo", "skills")
	os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755)
	os.MkdirAll(coll, 0o755)
	other := filepath.Join(root, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, catalogFile), []byte("{}"), 0o644)
	ev := filepath.Join(root, "ev")
	os.MkdirAll(ev, 0o755)
	os.WriteFile(filepath.Join(ev, EvidenceName), nil, 0o600)
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		dir      string
		evidence string
		ok       bool
	}{
		{filepath.Join(root, "index"), "", true},
		{filepath.Join(coll, "index"), "", false},        // inside the collection
		{filepath.Join(root, "repo", "idx"), "", false},  // inside its repository
		{filepath.Join(other, "deep", "idx"), "", false}, // inside another collection
		{ev, "", false}, // holds skills-usage.db
		{filepath.Join(root, "st"), filepath.Join(root, "st", "usage.db"), false}, // the evidence store's folder
		{file, "", false}, // not a folder
		{"relative", "", false},
	}
	for _, c := range cases {
		err := CheckPlace(c.dir, []string{coll}, c.evidence)
		if (err == nil) != c.ok || (err != nil && !askerr.Is(err, CodePlace)) {
			t.Errorf("CheckPlace(%q, evidence %q) = %v, want ok %v", c.dir, c.evidence, err, c.ok)
		}
	}
}
