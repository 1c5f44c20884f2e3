package catindex

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// A failure after the observation is written (here: the projection's
// insert, refused by a trigger) rolls the whole add back.
func TestAddIsAtomic(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	openT(t, dir).Close()
	tamper(t, dir, `CREATE TRIGGER fail BEFORE INSERT ON skill BEGIN SELECT RAISE(ABORT, 'injected'); END`)
	ix := openT(t, dir)
	defer ix.Close()
	_, err := ix.Add(ctx, "acme/one", "sha256-c1", cat(entry("alpha", "1.0.0", "sha256-a1")), t0)
	if !askerr.Is(err, CodeStore) || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("Add with a failing projection = %v, want %s", err, CodeStore)
	}
	for _, table := range []string{"observation", "observed_skill", "skill_change", "source", "skill"} {
		var n int
		if err := ix.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s holds %d rows (%v) after a failed add, want 0", table, n, err)
		}
	}
}

// Writers in parallel, each with its own connection, all succeed: the
// migration and each add are one BEGIN IMMEDIATE transaction.
func TestConcurrentAdds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, err := Open(ctx, dir)
			if err != nil {
				errs[i] = err
				return
			}
			defer ix.Close()
			_, errs[i] = ix.Add(ctx, fmt.Sprintf("acme/s%d", i), fmt.Sprintf("sha256-%d", i), cat(entry("alpha", "1.0.0", "sha256-a1")), t0)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	ix := openT(t, dir)
	defer ix.Close()
	p, err := ix.Projection(ctx)
	if err != nil || len(p.Sources) != len(errs) || len(p.Skills) != len(errs) {
		t.Errorf("projection after %d parallel adds = %+v, %v", len(errs), p, err)
	}
	var n int
	if err := ix.db.QueryRow(`SELECT count(*) FROM index_schema_history`).Scan(&n); err != nil || n != SchemaVersion {
		t.Errorf("history rows = %d (%v), want %d: a migration ran twice", n, err, SchemaVersion)
	}
}

// FuzzValidateSourceID: an accepted id is never a path that could leave
// or name a folder: no leading slash or dot, no "..", no backslash, no
// colon, no empty segment, no space or control character.
func FuzzValidateSourceID(f *testing.F) {
	for _, s := range []string{"github.com/acme/skills", "a", "/abs", "../x", "a/../b", "C:/x", `a\b`, "~/x", "a//b", "a/.b", "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if ValidateSourceID(id) != nil {
			return
		}
		switch {
		case len(id) == 0 || len(id) > MaxSourceID,
			strings.HasPrefix(id, "/"), strings.HasPrefix(id, "."), strings.HasSuffix(id, "/"),
			strings.Contains(id, "/."), strings.Contains(id, "//"),
			strings.ContainsAny(id, "\\: ~\t\n\r\x00"):
			t.Errorf("ValidateSourceID(%q) accepted it", id)
		}
		for _, r := range id {
			if r > 0x7e || r < 0x21 {
				t.Errorf("ValidateSourceID(%q) accepted %q", id, r)
			}
		}
	})
}
