package evidence

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	ctx := context.Background()
	loc := Location{Path: filepath.Join(t.TempDir(), "a", "b", "skills-usage.db"), From: "--db"}
	s, err := OpenWriter(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	res, err := s.RecordRead(ctx, Read{Host: "claude", EventKey: "k1", Session: "s1", At: at, Skill: "pdf", Scope: "global", File: "SKILL.md", Kind: "entrypoint", Digest: "sha256:" + strings.Repeat("a", 64)})
	if err != nil || !res.Inserted {
		t.Fatal(res, err)
	}
	s.Close()
	r, err := OpenReader(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rk, err := r.Rankings(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rk)
	for _, f := range []func() (any, error){
		func() (any, error) { return r.Outcomes(ctx, Query{}) },
		func() (any, error) { return r.Overlap(ctx, Query{}) },
		func() (any, error) { return r.Inactivity(ctx, Query{Known: []KnownSkill{{Name: "x"}}}) },
		func() (any, error) { return r.History(ctx, Query{}) },
		func() (any, error) { c := time.Now().Add(-2 * time.Hour); return r.Memory(ctx, Query{Cutoff: &c}) },
		func() (any, error) { return r.Status(ctx) },
	} {
		v, err := f()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", v)
	}
}
