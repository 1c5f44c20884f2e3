package evidence

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The 1,000,000-read store of the query budget: ~300 skills with a
// long-tailed popularity, 4 hosts, 50,000 sessions over 90 days, about 20
// reads per session drawn from a dozen skills each, 5% of reads without a
// session id, 1-3 digests per skill, plus 20,000 lifecycle attempts and
// three collections' catalog observations.
const (
	bigReads    = 1_000_000
	bigSkills   = 300
	bigSessions = 50_000
	bigDays     = 90
	// bigGen changes when the generator does, so a cached file is rebuilt.
	bigGen = 1
)

// bigStart is the first day of the big store.
var bigStart = time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)

// bigPeriod is the whole 90 days: the worst case for every query.
var bigPeriod = Period{From: bigStart, To: bigStart.Add(bigDays * 24 * time.Hour)}

// bigStore returns the path of the 1M-read store, building it once under
// os.TempDir() keyed by schema version and generator.
func bigStore(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("agent-skills-evidence-1m-schema%d-gen%d.db", SchemaVersion, bigGen))
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		if r, err := OpenReader(context.Background(), Location{Path: path}); err == nil {
			st, err := r.Status(context.Background())
			r.Close()
			if err == nil && st.Reads == bigReads {
				return path
			}
		}
	}
	tmp := path + fmt.Sprintf(".%d.tmp", os.Getpid())
	os.Remove(tmp)
	t0 := time.Now()
	if err := buildBig(tmp); err != nil {
		os.Remove(tmp)
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("built %s in %v", path, time.Since(t0).Round(time.Millisecond))
	return path
}

func buildBig(path string) error {
	ctx := context.Background()
	s, err := OpenWriter(ctx, Location{Path: path})
	if err != nil {
		return err
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(20, 36))
	skills := make([]string, bigSkills)
	for i := range skills {
		skills[i] = fmt.Sprintf("skill-%03d", i)
	}
	zipf := rand.NewZipf(rng, 1.1, 4, bigSkills-1)
	hosts := []string{"claude", "claude", "claude", "codex", "codex", "gemini", "copilot"}
	type session struct {
		id    string
		host  string
		start int64
		likes []int
	}
	sessions := make([]session, bigSessions)
	for i := range sessions {
		ss := session{id: fmt.Sprintf("sess-%05d-%x", i, rng.Uint32()), host: hosts[rng.IntN(len(hosts))],
			start: bigStart.UnixMilli() + rng.Int64N(bigDays*dayMS-2*3600_000)}
		for range 6 + rng.IntN(12) {
			ss.likes = append(ss.likes, int(zipf.Uint64()))
		}
		sessions[i] = ss
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO read_observation
		(event_key, host, session, at_ms, skill, scope, project, file, kind, digest, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	days := map[[2]int64]bool{}
	hostIdx := map[string]int64{"claude": 0, "codex": 1, "gemini": 2, "copilot": 3}
	for i := range bigReads {
		ss := sessions[rng.IntN(len(sessions))]
		sk := ss.likes[rng.IntN(len(ss.likes))]
		at := ss.start + rng.Int64N(2*3600_000)
		sessionID := ss.id
		if rng.IntN(20) == 0 {
			sessionID = ""
		}
		file, kind := "SKILL.md", "entrypoint"
		if rng.IntN(10) < 3 {
			file, kind = fmt.Sprintf("references/r%d.md", rng.IntN(4)), "reference"
		}
		gen := min(int(at-bigStart.UnixMilli())/(30*dayMS), sk%3) // a skill changes up to twice
		scope, project := "global", ""
		if sk%4 == 0 {
			scope, project = "project", fmt.Sprintf("/home/dev/src/app%d", sk%7)
		}
		if _, err := ins.ExecContext(ctx, fmt.Sprintf("toolu_%07d", i), ss.host, sessionID, at, skills[sk], scope, project, file, kind,
			fmt.Sprintf("sha256:%064x", sk*16+gen), fmt.Sprintf("1.%d.0", gen)); err != nil {
			return err
		}
		days[[2]int64{hostIdx[ss.host], floorDay(at)}] = true
	}
	ins.Close()
	if _, err := tx.ExecContext(ctx, rollupBackfill); err != nil {
		return err
	}
	names := []string{"claude", "codex", "gemini", "copilot"}
	for k := range days {
		if _, err := tx.ExecContext(ctx, `INSERT INTO host_day (host, day) VALUES (?, ?)`, names[k[0]], k[1]); err != nil {
			return err
		}
	}
	lc, err := tx.PrepareContext(ctx, `INSERT INTO lifecycle_event (event_id, attempt, skill, version, stage, outcome, at_ms, emitter, reason)
		VALUES (?, ?, ?, '', ?, ?, ?, 'ci', '')`)
	if err != nil {
		return err
	}
	for i := range 20_000 {
		sk := skills[zipf.Uint64()]
		at := bigStart.UnixMilli() + rng.Int64N(bigDays*dayMS-3600_000)
		if _, err := lc.ExecContext(ctx, fmt.Sprintf("e%d-s", i), fmt.Sprintf("a%d", i), sk, "started", "", at); err != nil {
			return err
		}
		if rng.IntN(10) == 0 {
			continue // unfinished
		}
		if _, err := lc.ExecContext(ctx, fmt.Sprintf("e%d-f", i), fmt.Sprintf("a%d", i), sk, "finished", outcomes[rng.IntN(4)], at+rng.Int64N(3600_000)); err != nil {
			return err
		}
	}
	lc.Close()
	if err := tx.Commit(); err != nil {
		return err
	}
	for c := range 3 {
		for k := range 4 {
			var list []CatalogSkill
			for i := c * 90; i < c*90+120; i++ {
				list = append(list, CatalogSkill{Name: skills[i], Version: "1.0.0"})
			}
			if _, err := s.RecordCatalog(ctx, CatalogObservation{Collection: fmt.Sprintf("github.com/acme/skills-%d", c),
				At: bigStart.Add(time.Duration(k*30) * 24 * time.Hour), Digest: fmt.Sprintf("sha256:%064x", c*10+k), Skills: list}); err != nil {
				return err
			}
		}
	}
	_, err = s.db.ExecContext(ctx, `ANALYZE`)
	return err
}

// bigQueries are the queries the budget covers, over the whole period.
var bigQueries = []struct {
	name string
	run  func(context.Context, *Reader) error
}{
	{"Rankings", func(ctx context.Context, r *Reader) error {
		_, err := r.Rankings(ctx, Query{Period: bigPeriod})
		return err
	}},
	{"RankingsHost", func(ctx context.Context, r *Reader) error {
		_, err := r.Rankings(ctx, Query{Period: bigPeriod, Host: "gemini"})
		return err
	}},
	{"Outcomes", func(ctx context.Context, r *Reader) error {
		_, err := r.Outcomes(ctx, Query{Period: bigPeriod})
		return err
	}},
	{"Overlap", func(ctx context.Context, r *Reader) error {
		_, err := r.Overlap(ctx, Query{Period: bigPeriod})
		return err
	}},
	{"OverlapSkill", func(ctx context.Context, r *Reader) error {
		_, err := r.Overlap(ctx, Query{Period: bigPeriod, Skill: "skill-004"})
		return err
	}},
	{"Inactivity", func(ctx context.Context, r *Reader) error {
		var known []KnownSkill
		for i := range 400 {
			known = append(known, KnownSkill{Name: fmt.Sprintf("skill-%03d", i)})
		}
		_, err := r.Inactivity(ctx, Query{Period: bigPeriod, Known: known, Limit: MaxLimit})
		return err
	}},
	{"History", func(ctx context.Context, r *Reader) error {
		_, err := r.History(ctx, Query{Period: bigPeriod, Limit: MaxLimit})
		return err
	}},
	{"HistorySkill", func(ctx context.Context, r *Reader) error {
		_, err := r.History(ctx, Query{Period: bigPeriod, Skill: "skill-004", Limit: MaxLimit})
		return err
	}},
	{"Memory", func(ctx context.Context, r *Reader) error {
		c := bigStart.Add(45 * 24 * time.Hour)
		_, err := r.Memory(ctx, Query{Period: bigPeriod, Cutoff: &c, Limit: MaxLimit})
		return err
	}},
	{"Status", func(ctx context.Context, r *Reader) error { _, err := r.Status(ctx); return err }},
}

// timeQuery runs one query with a generous deadline and returns its time,
// so a slow query reports its real figure rather than a budget error.
func timeQuery(ctx context.Context, r *Reader, run func(context.Context, *Reader) error) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*QueryBudget)
	defer cancel()
	t0 := time.Now()
	err := run(ctx, r)
	return time.Since(t0), err
}

// BenchmarkEvidenceQueries1M times each query over the 1M-read store and
// fails when one exceeds QueryBudget.
func BenchmarkEvidenceQueries1M(b *testing.B) {
	path := bigStore(b)
	r, err := OpenReader(context.Background(), Location{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for _, q := range bigQueries {
		b.Run(q.name, func(b *testing.B) {
			var worst time.Duration
			for b.Loop() {
				d, err := timeQuery(context.Background(), r, q.run)
				if err != nil {
					b.Fatal(err)
				}
				worst = max(worst, d)
			}
			b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
			if worst > QueryBudget {
				b.Fatalf("%s took %v over 1,000,000 reads; the budget is %v", q.name, worst, QueryBudget)
			}
		})
	}
}

// TestQueryBudget1M asserts the budget for every query over the 1M-read
// store; it is slow (the store is built once, ~1 min) so it runs only
// with AGENT_SKILLS_BENCH_1M=1 and never with -short.
func TestQueryBudget1M(t *testing.T) {
	if testing.Short() || os.Getenv("AGENT_SKILLS_BENCH_1M") != "1" {
		t.Skip("set AGENT_SKILLS_BENCH_1M=1 (and no -short) to build the 1,000,000-read store and assert QueryBudget")
	}
	path := bigStore(t)
	r, err := OpenReader(context.Background(), Location{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, q := range bigQueries {
		var worst time.Duration
		for range 3 {
			d, err := timeQuery(context.Background(), r, q.run)
			if err != nil {
				t.Fatalf("%s: %v", q.name, err)
			}
			worst = max(worst, d)
		}
		t.Logf("%-13s worst of 3: %v", q.name, worst.Round(time.Millisecond))
		if worst > QueryBudget {
			t.Errorf("%s took %v over 1,000,000 reads; the budget is %v", q.name, worst, QueryBudget)
		}
	}
}
