package evidence

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// FuzzRecords checks the record path on arbitrary field values: what
// Validate refuses the store refuses with ASK_EVIDENCE_INVALID and leaves
// unwritten; what it accepts is recorded once, reads back field for
// field, and its retry is a no-op.
func FuzzRecords(f *testing.F) {
	f.Add("claude", "toolu_1", "s1", "pdf", "global", "", "SKILL.md", "entrypoint", hexOf('a'), "1.0.0", int64(0),
		"e1", "a1", "started", "", "ci", "")
	f.Add("codex", "codex:1:/x", "", "my-skill", "project", "/work/p", "references/a.md", "reference", hexOf('b'), "", int64(3600_000),
		"e2", "a2", "finished", "succeeded", "agent:claude", "timeout")
	f.Add("gemini", "k\x00", "s\n", "../x", "project", "rel", "/etc/passwd", "entrypoint", "sha256:zz", "v\x1b[31m", int64(-1),
		"", "a", "finished", "", "", "free text here")
	f.Add("copilot", "k", "s", "Pdf", "global", "C:\\x", "a/../SKILL.md", "reference", hexOf('c'), "1", int64(1<<40),
		"e\u202e", "a", "started", "failed", "x", "r")
	ctx := context.Background()
	s, err := OpenWriter(ctx, Location{Path: filepath.Join(f.TempDir(), "fuzz.db")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	f.Fuzz(func(t *testing.T, host, key, session, skill, scope, project, file, kind, digest, version string, offset int64,
		eventID, attempt, stage, outcome, emitter, reason string) {
		at := day0.Add(time.Duration(offset%(400*24*3600_000)) * time.Millisecond)
		r := Read{Host: host, EventKey: key, Session: session, At: at, Skill: skill, Scope: scope, Project: project,
			File: file, Kind: kind, Digest: digest, Version: version}
		checkWrite(t, r.Validate(), func() (WriteResult, error) { return s.RecordRead(ctx, r) }, func(id int64, inserted bool) {
			var got Read
			var atMS int64
			if err := s.db.QueryRow(`SELECT event_key, host, session, at_ms, skill, scope, project, file, kind, digest, version
				FROM read_observation WHERE id = ?`, id).Scan(&got.EventKey, &got.Host, &got.Session, &atMS, &got.Skill,
				&got.Scope, &got.Project, &got.File, &got.Kind, &got.Digest, &got.Version); err != nil {
				t.Fatal(err)
			}
			got.At = time.UnixMilli(atMS).UTC()
			want := r
			want.At = r.At.UTC().Truncate(time.Millisecond)
			if !inserted {
				// A retry's time is not compared: the first one stands.
				want.At = got.At
			}
			if got != want {
				t.Fatalf("read back %+v, recorded %+v", got, want)
			}
		})
		l := Lifecycle{EventID: eventID, Attempt: attempt, Skill: skill, Version: version, Stage: stage, Outcome: outcome,
			At: at, Emitter: emitter, Reason: reason}
		checkWrite(t, l.Validate(), func() (WriteResult, error) { return s.RecordLifecycle(ctx, l) }, func(int64, bool) {})
	})
}

// checkWrite runs write twice and checks its results against the
// validation error verr; readBack gets the id of an accepted record and
// whether this write inserted it (an earlier input may have).
func checkWrite(t *testing.T, verr error, write func() (WriteResult, error), readBack func(int64, bool)) {
	t.Helper()
	first, err := write()
	if verr != nil {
		var e *askerr.Error
		if !errors.As(err, &e) || e.Code != CodeInvalid {
			t.Fatalf("Validate refused (%v) but the write returned %v", verr, err)
		}
		return
	}
	if err != nil {
		// An earlier input may hold the same id with other content.
		var e *askerr.Error
		if errors.As(err, &e) && e.Code == CodeConflict {
			return
		}
		t.Fatalf("a valid record failed: %v", err)
	}
	readBack(first.ID, first.Inserted)
	again, err := write()
	if err != nil || again.Inserted || again.ID != first.ID {
		t.Fatalf("retry = %+v, %v; want no-op on id %d", again, err, first.ID)
	}
}
