package evidence

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"
)

const hour = time.Hour

// handStore builds the small store the query tests count by hand; see the
// comments for what each record contributes.
func handStore(t *testing.T) *Reader {
	t.Helper()
	ctx := context.Background()
	loc := newLoc(t)
	s := openW(t, loc)
	day := func(d int, h time.Duration) time.Time { return day0.Add(time.Duration(d)*24*hour + h) }
	rd := func(key, host, session string, at time.Time, skill, file string, dg byte, version string) {
		kind := "reference"
		if file == "SKILL.md" {
			kind = "entrypoint"
		}
		r := Read{Host: host, EventKey: key, Session: session, At: at, Skill: skill, Scope: "global", File: file, Kind: kind, Digest: hexOf(dg), Version: version}
		if _, err := s.RecordRead(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rd("r1", "claude", "s1", day(0, 1*hour), "pdf", "SKILL.md", 'a', "1.0.0")
	rd("r2", "claude", "s1", day(0, 2*hour), "docx", "SKILL.md", 'b', "2")
	rd("r3", "codex", "s2", day(1, 1*hour), "pdf", "references/x.md", 'c', "1.0.0")
	rd("r4", "codex", "s2", day(1, 2*hour), "docx", "SKILL.md", 'b', "2")
	rd("r5", "codex", "s2", day(1, 3*hour), "xlsx", "SKILL.md", 'd', "")
	rd("r6", "gemini", "", day(2, 1*hour), "pdf", "SKILL.md", 'a', "1.0.0")
	rd("r7", "claude", "s3", day(2, 2*hour), "pdf", "SKILL.md", 'e', "1.1.0")
	rd("r8", "claude", "s9", day(-10, 0), "legacy", "SKILL.md", 'f', "") // before the period
	if err := s.NoteHostSeen(ctx, "copilot", day(2, 3*hour)); err != nil {
		t.Fatal(err)
	}
	lc := func(id, attempt, skill, stage, outcome string, at time.Time) {
		if _, err := s.RecordLifecycle(ctx, Lifecycle{EventID: id, Attempt: attempt, Skill: skill, Stage: stage, Outcome: outcome, At: at, Emitter: "ci"}); err != nil {
			t.Fatal(err)
		}
	}
	lc("a1s", "a1", "pdf", "started", "", day(0, 1*hour))
	lc("a1f", "a1", "pdf", "finished", "succeeded", day(0, 2*hour))
	lc("a2s", "a2", "pdf", "started", "", day(1, 0))
	lc("a2f", "a2", "pdf", "finished", "failed", day(1, 1*hour))
	lc("a3s", "a3", "docx", "started", "", day(2, 0))
	lc("a4f", "a4", "pdf", "finished", "blocked", day(2, 5*hour))
	lc("a5s", "a5", "pdf", "started", "", day(-5, 0))
	lc("a5f", "a5", "pdf", "finished", "abandoned", day(-4, 0))
	cat := func(coll string, at time.Time, names ...string) {
		var sk []CatalogSkill
		for _, n := range names {
			sk = append(sk, CatalogSkill{Name: n, Version: "1.0.0"})
		}
		if _, err := s.RecordCatalog(ctx, CatalogObservation{Collection: coll, At: at, Digest: hexOf('9'), Skills: sk}); err != nil {
			t.Fatal(err)
		}
	}
	cat("github.com/acme/skills", day(-20, 0), "pdf", "docx", "legacy", "unused")
	cat("github.com/acme/skills", day(1, 0), "pdf", "docx", "xlsx", "unused", "legacy")
	cat("registry:old", day(-30, 0), "ancient")
	s.Close()
	return openR(t, loc)
}

var period = Period{From: day0, To: day0.Add(72 * hour)}

func wantCoverage(t *testing.T, c Coverage, denominator string) {
	t.Helper()
	if c.Days != 3 {
		t.Errorf("days %d, want 3", c.Days)
	}
	if want := map[string]int{"claude": 2, "codex": 1, "gemini": 1, "copilot": 1}; !reflect.DeepEqual(c.HostsSeen, want) {
		t.Errorf("hosts seen %v, want %v", c.HostsSeen, want)
	}
	want := []string{
		"no claude read hook activity on 1 of 3 days",
		"no codex read hook activity on 2 of 3 days",
		"no gemini read hook activity on 2 of 3 days",
		"no copilot read hook activity on 2 of 3 days",
		"1 read without a session id is left out of overlap",
		"1 lifecycle attempt without a finished event",
		"the latest catalog observation of registry:old (2026-10-02) is older than the period",
	}
	if !slices.Equal(c.Missing, want) {
		t.Errorf("missing\n%q\nwant\n%q", c.Missing, want)
	}
	if c.Denominator != denominator {
		t.Errorf("denominator %q, want %q", c.Denominator, denominator)
	}
}

func TestRankings(t *testing.T) {
	r := handStore(t)
	got, err := r.Rankings(context.Background(), Query{Period: period})
	if err != nil {
		t.Fatal(err)
	}
	wantCoverage(t, got.Coverage, "7 read observations in the period")
	want := []RankedSkill{
		{Skill: "pdf", Reads: 4, Sessions: 3, Hosts: 3, HostNames: []string{"claude", "codex", "gemini"}, First: day0.Add(hour), Last: day0.Add(50 * hour)},
		{Skill: "docx", Reads: 2, Sessions: 2, Hosts: 2, HostNames: []string{"claude", "codex"}, First: day0.Add(2 * hour), Last: day0.Add(26 * hour)},
		{Skill: "xlsx", Reads: 1, Sessions: 1, Hosts: 1, HostNames: []string{"codex"}, First: day0.Add(27 * hour), Last: day0.Add(27 * hour)},
	}
	if !reflect.DeepEqual(got.Skills, want) || got.Truncated {
		t.Errorf("rankings %+v truncated %v", got.Skills, got.Truncated)
	}
	cut, err := r.Rankings(context.Background(), Query{Period: period, Limit: 2})
	if err != nil || len(cut.Skills) != 2 || !cut.Truncated {
		t.Errorf("limit 2: %d rows, truncated %v, %v", len(cut.Skills), cut.Truncated, err)
	}
	codex, err := r.Rankings(context.Background(), Query{Period: period, Host: "codex"})
	if err != nil || len(codex.Skills) != 3 || codex.Skills[0].Reads != 1 || codex.Coverage.Denominator != "3 read observations in the period (host codex)" {
		t.Errorf("host codex: %+v %v", codex, err)
	}
	if len(codex.Coverage.Missing) == 0 || codex.Coverage.Missing[0] != "no codex read hook activity on 2 of 3 days" {
		t.Errorf("host codex missing %q", codex.Coverage.Missing)
	}
}

func TestOutcomes(t *testing.T) {
	got, err := handStore(t).Outcomes(context.Background(), Query{Period: period})
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillOutcome{
		{Skill: "pdf", Attempts: 3, Succeeded: 1, Failed: 1, Blocked: 1},
		{Skill: "docx", Attempts: 1, Unfinished: 1},
	}
	if !reflect.DeepEqual(got.Skills, want) {
		t.Errorf("outcomes %+v", got.Skills)
	}
	wantCoverage(t, got.Coverage, "7 read observations in the period")
}

func TestOverlap(t *testing.T) {
	r := handStore(t)
	got, err := r.Overlap(context.Background(), Query{Period: period})
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillPair{
		{A: "docx", B: "pdf", Sessions: 2, SessionsA: 2, SessionsB: 3, Jaccard: 0.6667},
		{A: "docx", B: "xlsx", Sessions: 1, SessionsA: 2, SessionsB: 1, Jaccard: 0.5},
		{A: "pdf", B: "xlsx", Sessions: 1, SessionsA: 3, SessionsB: 1, Jaccard: 0.3333},
	}
	if !reflect.DeepEqual(got.Pairs, want) {
		t.Errorf("overlap %+v", got.Pairs)
	}
	x, err := r.Overlap(context.Background(), Query{Period: period, Skill: "xlsx", Limit: 1})
	if err != nil || len(x.Pairs) != 1 || !x.Truncated || x.Pairs[0] != want[1] {
		t.Errorf("skill xlsx limit 1: %+v %v", x, err)
	}
}

func TestInactivity(t *testing.T) {
	got, err := handStore(t).Inactivity(context.Background(), Query{Period: period,
		Known: []KnownSkill{{Name: "pdf", Scope: "global"}, {Name: "helper", Scope: "project", Project: "/w"}}})
	if err != nil {
		t.Fatal(err)
	}
	legacy := day0.Add(-240 * hour)
	want := []InactiveSkill{
		{Skill: "ancient", Sources: []string{"catalog:registry:old"}},
		{Skill: "helper", Scope: "project", Project: "/w", Sources: []string{"installed"}},
		{Skill: "unused", Sources: []string{"catalog:github.com/acme/skills"}},
		{Skill: "legacy", Sources: []string{"catalog:github.com/acme/skills"}, LastRead: &legacy},
	}
	if !reflect.DeepEqual(got.Skills, want) {
		b, _ := json.Marshal(got.Skills)
		t.Errorf("inactivity %s", b)
	}
	if got.Note != InactivityNote || got.Note == "" {
		t.Error("no note that no reads is not non-use")
	}
}

func TestHistory(t *testing.T) {
	r := handStore(t)
	got, err := r.History(context.Background(), Query{Period: period})
	if err != nil {
		t.Fatal(err)
	}
	want := []DayBucket{
		{Day: "2026-11-01", Reads: 2, Succeeded: 1},
		{Day: "2026-11-02", Reads: 3, Failed: 1},
		{Day: "2026-11-03", Reads: 2, Blocked: 1},
	}
	if !reflect.DeepEqual(got.Days, want) || got.Truncated {
		t.Errorf("history %+v", got.Days)
	}
	pdf, err := r.History(context.Background(), Query{Period: period, Skill: "pdf", Limit: 2})
	want = []DayBucket{{Day: "2026-11-02", Reads: 1, Failed: 1}, {Day: "2026-11-03", Reads: 2, Blocked: 1}}
	if err != nil || !reflect.DeepEqual(pdf.Days, want) || !pdf.Truncated || pdf.Skill != "pdf" {
		t.Errorf("pdf history %+v %v", pdf, err)
	}
}

func TestMemory(t *testing.T) {
	r := handStore(t)
	cutoff := day0.Add(24 * hour)
	got, err := r.Memory(context.Background(), Query{Period: period, Cutoff: &cutoff})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Skills) != 3 || got.Skills[0].Skill != "pdf" || got.Skills[1].Skill != "docx" || got.Skills[2].Skill != "xlsx" {
		t.Fatalf("memory skills %+v", got.Skills)
	}
	pdf := got.Skills[0]
	wantIDs := []Identity{
		{Digest: hexOf('a'), Version: "1.0.0", Reads: 2, First: day0.Add(hour), Last: day0.Add(49 * hour)},
		{Digest: hexOf('c'), Version: "1.0.0", Reads: 1, First: day0.Add(25 * hour), Last: day0.Add(25 * hour)},
		{Digest: hexOf('e'), Version: "1.1.0", Reads: 1, First: day0.Add(50 * hour), Last: day0.Add(50 * hour)},
	}
	if pdf.Reads != 4 || pdf.Sessions != 3 || !reflect.DeepEqual(pdf.Identities, wantIDs) {
		t.Errorf("pdf %+v", pdf)
	}
	if pdf.Lifecycle != (SkillOutcome{Skill: "pdf", Attempts: 3, Succeeded: 1, Failed: 1, Blocked: 1}) {
		t.Errorf("pdf lifecycle %+v", pdf.Lifecycle)
	}
	if len(pdf.Catalogs) != 1 || pdf.Catalogs[0].Collection != "github.com/acme/skills" || !pdf.Catalogs[0].At.Equal(cutoff) {
		t.Errorf("pdf catalogs %+v", pdf.Catalogs)
	}
	if *pdf.Before != (Counts{Reads: 1, LifecycleEvents: 2}) || *pdf.After != (Counts{Reads: 3, LifecycleEvents: 3}) {
		t.Errorf("pdf before %+v after %+v", *pdf.Before, *pdf.After)
	}
	docx := got.Skills[1]
	if docx.Reads != 2 || docx.Lifecycle.Unfinished != 1 || *docx.Before != (Counts{Reads: 1}) || *docx.After != (Counts{Reads: 1, LifecycleEvents: 1}) {
		t.Errorf("docx %+v before %+v after %+v", docx, *docx.Before, *docx.After)
	}
	if len(docx.Identities) != 1 || docx.Identities[0].Reads != 2 {
		t.Errorf("docx identities %+v", docx.Identities)
	}
	none, err := r.Memory(context.Background(), Query{Period: period})
	if err != nil || none.Skills[0].Before != nil || none.Cutoff != nil {
		t.Errorf("without a cutoff: %+v %v", none.Skills[0], err)
	}
}

func TestStatus(t *testing.T) {
	st, err := handStore(t).Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first, last := day0.Add(-30*24*hour), day0.Add(53*hour)
	if st.Reads != 8 || st.LifecycleEvents != 8 || st.CatalogObservations != 3 || st.HostDays != 6 ||
		!st.FirstObservation.Equal(first) || !st.LastObservation.Equal(last) ||
		!slices.Equal(st.HostsSeen, []string{"claude", "codex", "copilot", "gemini"}) || st.SchemaVersion != SchemaVersion {
		t.Errorf("status %+v first %v last %v", st, st.FirstObservation, st.LastObservation)
	}
}

func TestQueryValidationAndBudget(t *testing.T) {
	r := handStore(t)
	ctx := context.Background()
	_, err := r.Rankings(ctx, Query{Period: Period{From: day0, To: day0}})
	wantCode(t, err, CodeInvalid)
	_, err = r.Rankings(ctx, Query{Period: period, Host: "cursor"})
	wantCode(t, err, CodeInvalid)
	_, err = r.Rankings(ctx, Query{Period: period, Limit: -1})
	wantCode(t, err, CodeInvalid)
	expired, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	_, err = r.Overlap(expired, Query{Period: period})
	wantCode(t, err, CodeBudget)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("budget error does not wrap the deadline: %v", err)
	}
	big, err := r.History(ctx, Query{Period: Period{From: day0, To: day0.Add(5000 * 24 * hour)}, Limit: 5000})
	if err != nil || len(big.Days) != MaxLimit || !big.Truncated {
		t.Errorf("limit above the max: %d days, %v", len(big.Days), err)
	}
}

// TestPartialDays checks periods that do not start or end at midnight:
// the whole days come from the rollups, the partial ones from the reads.
func TestPartialDays(t *testing.T) {
	r := handStore(t)
	ctx := context.Background()
	got, err := r.Rankings(ctx, Query{Period: Period{From: day0.Add(90 * time.Minute), To: day0.Add(49*hour + 30*time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		skill           string
		reads, sessions int64
	}
	var rows []row
	for _, s := range got.Skills {
		rows = append(rows, row{s.Skill, s.Reads, s.Sessions})
	}
	if want := []row{{"docx", 2, 2}, {"pdf", 2, 1}, {"xlsx", 1, 1}}; !slices.Equal(rows, want) {
		t.Errorf("rankings %+v, want %+v", rows, want)
	}
	if got.Coverage.Denominator != "5 read observations in the period" {
		t.Errorf("denominator %q", got.Coverage.Denominator)
	}
	inDay, err := r.Rankings(ctx, Query{Period: Period{From: day0.Add(30 * time.Minute), To: day0.Add(3 * hour)}})
	if err != nil || len(inDay.Skills) != 2 || inDay.Coverage.Days != 1 || inDay.Skills[0].Reads != 1 {
		t.Errorf("within one day: %+v %v", inDay, err)
	}
	cutoff := day0.Add(49*hour + 30*time.Minute) // inside day 2, between r6 and r7
	m, err := r.Memory(ctx, Query{Period: period, Cutoff: &cutoff})
	if err != nil {
		t.Fatal(err)
	}
	if pdf := m.Skills[0]; pdf.Skill != "pdf" || pdf.Before.Reads != 3 || pdf.After.Reads != 1 || pdf.Reads != 4 {
		t.Errorf("pdf around a mid-day cutoff: %+v before %+v after %+v", pdf, *pdf.Before, *pdf.After)
	}
}
