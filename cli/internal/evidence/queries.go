package evidence

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// QueryBudget is each query's time budget: over 1,000,000 reads every
// query finishes within it (BenchmarkEvidenceQueries1M fails otherwise).
// A query given a context without a deadline runs under it.
const QueryBudget = 2 * time.Second

// Row budget of a query's result.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Period is the half-open interval [From, To).
type Period struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Query selects what a query reads.
type Query struct {
	// Period defaults to the 30 days before now.
	Period Period
	// Skill and Host are optional filters.
	Skill string
	Host  string
	// Limit is the row budget: default 50, at most 1000.
	Limit int
	// Known lists, for Inactivity, the installed skills the CLI found; the
	// store adds the catalogued ones.
	Known []KnownSkill
	// Cutoff, for Memory, splits the period's counts into before and after.
	Cutoff *time.Time
}

// KnownSkill is an installed skill the caller found. An empty Scope
// matches reads of the name in any scope.
type KnownSkill struct{ Name, Scope, Project string }

// Coverage states what a result's evidence covers and what it does not.
type Coverage struct {
	Period Period `json:"period"`
	// Days is the number of UTC days the period touches.
	Days int `json:"days"`
	// HostsSeen maps a host to the days in the period its hook was seen
	// (a read or NoteHostSeen).
	HostsSeen map[string]int `json:"hostsSeen"`
	// Missing names, in sentences, what the evidence does not cover.
	Missing []string `json:"missing"`
	// Denominator names what the counts are out of.
	Denominator string `json:"denominator"`
}

// q is a normalised query: times in ms, filters checked.
type q struct {
	Query
	from, to int64
	limit    int
}

func normalise(in Query) (q, error) {
	p := in.Period
	if p.To.IsZero() {
		p.To = now().UTC()
	}
	if p.From.IsZero() {
		p.From = p.To.Add(-30 * 24 * time.Hour)
	}
	if !p.From.Before(p.To) {
		return q{}, invalid("query: the period's start %s is not before its end %s", p.From.UTC().Format(time.RFC3339), p.To.UTC().Format(time.RFC3339))
	}
	if in.Skill != "" && !skillName(in.Skill) {
		return q{}, invalid("query: %q is not a skill name", clip(in.Skill))
	}
	if in.Host != "" && !oneOf(in.Host, Hosts) {
		return q{}, invalid("query: unknown host %q (want claude, codex, gemini or copilot)", clip(in.Host))
	}
	if in.Limit < 0 {
		return q{}, invalid("query: the limit must not be negative")
	}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	in.Period = Period{From: p.From.UTC(), To: p.To.UTC()}
	return q{Query: in, from: p.From.UnixMilli(), to: p.To.UnixMilli(), limit: limit}, nil
}

func (x q) days() (first, last int64) { return floorDay(x.from), floorDay(x.to - 1) }

// filters returns the skill and host conditions and their arguments.
func (x q) filters() (string, []any) {
	f, args := "", []any{}
	if x.Skill != "" {
		f += " AND skill = ?"
		args = append(args, x.Skill)
	}
	if x.Host != "" {
		f += " AND host = ?"
		args = append(args, x.Host)
	}
	return f, args
}

// split divides [from, to) into the whole UTC days [a, b) the rollups
// answer and the partial head [from, headEnd) and tail [tailStart, to)
// read from read_observation itself.
func split(from, to int64) (a, b, headEnd, tailStart int64) {
	a, b = floorDay(from+dayMS-1), floorDay(to)
	if a >= b {
		return 0, 0, to, to // no whole day: all of it is the head
	}
	return a, b, a * dayMS, b * dayMS
}

// readRows returns a subquery yielding the reads of [from, to) (with the
// query's filters) as rollup rows: day, skill, host, digest, version,
// reads, no_session, first_ms, last_ms. Whole days come from read_day,
// the partial first and last day from read_observation, so the counts are
// exact at millisecond boundaries while a 90-day period reads about
// 100,000 rollup rows instead of a million reads.
func (x q) readRows(from, to int64) (string, []any) {
	f, fa := x.filters()
	a, b, headEnd, tailStart := split(from, to)
	raw := `SELECT at_ms / 86400000 AS day, skill, host, digest, version, 1 AS reads, session = '' AS no_session, at_ms AS first_ms, at_ms AS last_ms
		FROM read_observation WHERE at_ms >= ? AND at_ms < ?` + f
	q := `SELECT day, skill, host, digest, version, reads, no_session, first_ms, last_ms FROM read_day WHERE day >= ? AND day < ?` + f +
		` UNION ALL ` + raw + ` UNION ALL ` + raw
	args := append([]any{a, b}, fa...)
	args = append(append(args, from, headEnd), fa...)
	args = append(append(args, tailStart, to), fa...)
	return "(" + q + ")", args
}

// sessionRows returns a subquery yielding day, skill, session, host for
// the reads with a session id in the period, whole days from session_day.
func (x q) sessionRows() (string, []any) {
	f, fa := x.filters()
	a, b, headEnd, tailStart := split(x.from, x.to)
	raw := `SELECT DISTINCT at_ms / 86400000 AS day, skill, session, host FROM read_observation WHERE session <> '' AND at_ms >= ? AND at_ms < ?` + f
	q := `SELECT day, skill, session, host FROM session_day WHERE day >= ? AND day < ?` + f + ` UNION ALL ` + raw + ` UNION ALL ` + raw
	args := append([]any{a, b}, fa...)
	args = append(append(args, x.from, headEnd), fa...)
	args = append(append(args, tailStart, x.to), fa...)
	return "(" + q + ")", args
}

// sessionsPerSkill counts the distinct sessions per skill in the period.
func sessionsPerSkill(ctx context.Context, tx *sql.Tx, x q) (map[string]int64, error) {
	src, args := x.sessionRows()
	rows, err := tx.QueryContext(ctx, `SELECT skill, count(DISTINCT session) FROM `+src+` GROUP BY skill`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

// coverage computes the Coverage of x in tx.
func coverage(ctx context.Context, tx *sql.Tx, x q) (Coverage, error) {
	first, last := x.days()
	c := Coverage{Period: x.Period, Days: int(last - first + 1), HostsSeen: map[string]int{}, Missing: []string{}}
	rows, err := tx.QueryContext(ctx, `SELECT host, count(*) FROM host_day WHERE day >= ? AND day <= ? GROUP BY host`, first, last)
	if err != nil {
		return c, err
	}
	for rows.Next() {
		var h string
		var n int
		if err := rows.Scan(&h, &n); err != nil {
			rows.Close()
			return c, err
		}
		c.HostsSeen[h] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return c, err
	}
	for _, h := range Hosts {
		if x.Host != "" && h != x.Host {
			continue
		}
		if n := c.HostsSeen[h]; n < c.Days {
			c.Missing = append(c.Missing, fmt.Sprintf("no %s read hook activity on %d of %d days", h, c.Days-n, c.Days))
		}
	}
	src, args := x.readRows(x.from, x.to)
	var reads, noSession int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(reads), 0), coalesce(sum(no_session), 0) FROM `+src, args...).
		Scan(&reads, &noSession); err != nil {
		return c, err
	}
	if noSession > 0 {
		c.Missing = append(c.Missing, fmt.Sprintf("%s %s without a session id %s left out of overlap", thousands(noSession), plural(noSession, "read", "reads"), plural(noSession, "is", "are")))
	}
	lw, largs := "at_ms >= ? AND at_ms < ?", []any{x.from, x.to}
	if x.Skill != "" {
		lw += " AND skill = ?"
		largs = append(largs, x.Skill)
	}
	var unfinished int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT attempt FROM lifecycle_event WHERE attempt IN
		(SELECT attempt FROM lifecycle_event WHERE `+lw+`) GROUP BY attempt HAVING count(*) FILTER (WHERE stage = 'finished') = 0)`, largs...).
		Scan(&unfinished); err != nil {
		return c, err
	}
	if unfinished > 0 {
		c.Missing = append(c.Missing, fmt.Sprintf("%s lifecycle %s without a finished event", thousands(unfinished), plural(unfinished, "attempt", "attempts")))
	}
	crow, err := tx.QueryContext(ctx, `SELECT collection, max(at_ms) FROM catalog_observation WHERE at_ms < ? GROUP BY collection HAVING max(at_ms) < ? ORDER BY collection`, x.to, x.from)
	if err != nil {
		return c, err
	}
	for crow.Next() {
		var coll string
		var at int64
		if err := crow.Scan(&coll, &at); err != nil {
			crow.Close()
			return c, err
		}
		c.Missing = append(c.Missing, fmt.Sprintf("the latest catalog observation of %s (%s) is older than the period", coll, time.UnixMilli(at).UTC().Format("2006-01-02")))
	}
	crow.Close()
	if err := crow.Err(); err != nil {
		return c, err
	}
	filter := ""
	if x.Skill != "" || x.Host != "" {
		var f []string
		if x.Skill != "" {
			f = append(f, "skill "+x.Skill)
		}
		if x.Host != "" {
			f = append(f, "host "+x.Host)
		}
		filter = " (" + strings.Join(f, ", ") + ")"
	}
	c.Denominator = fmt.Sprintf("%s read %s in the period%s", thousands(reads), plural(reads, "observation", "observations"), filter)
	return c, nil
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// run normalises in and runs fn with the coverage in one read transaction.
func (r *Reader) run(ctx context.Context, what string, in Query, fn func(*sql.Tx, q, Coverage) error) error {
	x, err := normalise(in)
	if err != nil {
		return err
	}
	return r.view(ctx, what, func(tx *sql.Tx) error {
		c, err := coverage(ctx, tx, x)
		if err != nil {
			return err
		}
		return fn(tx, x, c)
	})
}

func ms(v int64) time.Time { return time.UnixMilli(v).UTC() }

// ---- Rankings ----

// Rankings lists skills by reads in the period.
type Rankings struct {
	Coverage  Coverage      `json:"coverage"`
	Skills    []RankedSkill `json:"skills"`
	Truncated bool          `json:"truncated"`
}

// RankedSkill is one skill's reads in the period. Reads are counts of
// host file reads, not activations.
type RankedSkill struct {
	Skill     string    `json:"skill"`
	Reads     int64     `json:"reads"`
	Sessions  int64     `json:"sessions"`
	Hosts     int       `json:"hosts"`
	HostNames []string  `json:"hostNames"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
}

// Rankings returns per skill the reads, distinct sessions, hosts and
// first/last read in the period, sorted by reads (descending) then name.
func (r *Reader) Rankings(ctx context.Context, in Query) (Rankings, error) {
	out := Rankings{Skills: []RankedSkill{}}
	err := r.run(ctx, "ranking skills", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		sessions, err := sessionsPerSkill(ctx, tx, x)
		if err != nil {
			return err
		}
		src, args := x.readRows(x.from, x.to)
		rows, err := tx.QueryContext(ctx, `SELECT skill, sum(reads), group_concat(DISTINCT host), min(first_ms), max(last_ms)
			FROM `+src+` GROUP BY skill`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s RankedSkill
			var hosts string
			var lo, hi int64
			if err := rows.Scan(&s.Skill, &s.Reads, &hosts, &lo, &hi); err != nil {
				return err
			}
			s.HostNames = strings.Split(hosts, ",")
			slices.Sort(s.HostNames)
			s.Hosts, s.First, s.Last, s.Sessions = len(s.HostNames), ms(lo), ms(hi), sessions[s.Skill]
			out.Skills = append(out.Skills, s)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		slices.SortFunc(out.Skills, func(a, b RankedSkill) int {
			if a.Reads != b.Reads {
				return cmpDesc(a.Reads, b.Reads)
			}
			return strings.Compare(a.Skill, b.Skill)
		})
		return nil
	})
	if len(out.Skills) > 0 && err == nil {
		out.Skills, out.Truncated = cut(out.Skills, in.Limit)
	}
	return out, err
}

func cmpDesc(a, b int64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// cut trims rows to the query's limit and reports whether it cut.
func cut[T any](rows []T, limit int) ([]T, bool) {
	if limit == 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	if len(rows) > limit {
		return rows[:limit], true
	}
	return rows, false
}

// ---- Outcomes ----

// Outcomes lists the lifecycle attempts per skill.
type Outcomes struct {
	Coverage  Coverage       `json:"coverage"`
	Skills    []SkillOutcome `json:"skills"`
	Truncated bool           `json:"truncated"`
}

// SkillOutcome counts one skill's attempts with an event in the period,
// by the outcome their emitters asserted.
type SkillOutcome struct {
	Skill      string `json:"skill"`
	Attempts   int64  `json:"attempts"`
	Succeeded  int64  `json:"succeeded"`
	Failed     int64  `json:"failed"`
	Abandoned  int64  `json:"abandoned"`
	Blocked    int64  `json:"blocked"`
	Unfinished int64  `json:"unfinished"`
}

const attemptsSQL = `SELECT attempt, min(skill) AS skill, max(CASE WHEN stage = 'finished' THEN outcome END) AS outcome,
	min(at_ms) AS first_ms FROM lifecycle_event WHERE attempt IN (SELECT attempt FROM lifecycle_event WHERE %s) GROUP BY attempt`

func (x q) lifecycleWhere() (string, []any) {
	w, args := "at_ms >= ? AND at_ms < ?", []any{x.from, x.to}
	if x.Skill != "" {
		w += " AND skill = ?"
		args = append(args, x.Skill)
	}
	return w, args
}

// Outcomes returns per skill the attempts with an event in the period:
// succeeded, failed, abandoned, blocked and unfinished (no finished
// event). Sorted by attempts (descending) then name. The host filter does
// not apply: lifecycle events carry an emitter, not a host.
func (r *Reader) Outcomes(ctx context.Context, in Query) (Outcomes, error) {
	out := Outcomes{Skills: []SkillOutcome{}}
	err := r.run(ctx, "counting outcomes", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		w, args := x.lifecycleWhere()
		rows, err := tx.QueryContext(ctx, `SELECT skill, count(*),
			count(*) FILTER (WHERE outcome = 'succeeded'), count(*) FILTER (WHERE outcome = 'failed'),
			count(*) FILTER (WHERE outcome = 'abandoned'), count(*) FILTER (WHERE outcome = 'blocked'),
			count(*) FILTER (WHERE outcome IS NULL)
			FROM (`+fmt.Sprintf(attemptsSQL, w)+`) GROUP BY skill ORDER BY 2 DESC, skill LIMIT ?`, append(args, x.limit+1)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s SkillOutcome
			if err := rows.Scan(&s.Skill, &s.Attempts, &s.Succeeded, &s.Failed, &s.Abandoned, &s.Blocked, &s.Unfinished); err != nil {
				return err
			}
			out.Skills = append(out.Skills, s)
		}
		return rows.Err()
	})
	if err == nil {
		out.Skills, out.Truncated = cut(out.Skills, in.Limit)
	}
	return out, err
}

// ---- Overlap ----

// Overlap lists skill pairs read in the same session.
type Overlap struct {
	Coverage  Coverage    `json:"coverage"`
	Pairs     []SkillPair `json:"pairs"`
	Truncated bool        `json:"truncated"`
}

// SkillPair is two skills (A < B) read in the same sessions.
type SkillPair struct {
	A         string  `json:"a"`
	B         string  `json:"b"`
	Sessions  int64   `json:"sessionsBoth"`
	SessionsA int64   `json:"sessionsA"`
	SessionsB int64   `json:"sessionsB"`
	Jaccard   float64 `json:"jaccard"`
}

// Overlap returns the skill pairs read in the same session in the period
// (reads without a session id are left out; Coverage says how many):
// sessions with both, sessions with each, and the Jaccard index, sorted
// by sessions with both (descending), Jaccard, then names. With a skill
// filter only the pairs containing that skill.
func (r *Reader) Overlap(ctx context.Context, in Query) (Overlap, error) {
	out := Overlap{Pairs: []SkillPair{}}
	err := r.run(ctx, "computing overlap", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		// The pairs come from every skill read in a session, whatever the
		// skill filter, so read the sessions without it.
		all := x
		all.Skill = ""
		src, args := all.sessionRows()
		rows, err := tx.QueryContext(ctx, `SELECT session, skill FROM `+src, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		ids := map[string]int{}
		var names []string
		var each []int64
		pairs := map[uint64]int64{}
		type ss struct {
			session string
			skill   int
		}
		var seen []ss
		var session, skill string
		for rows.Next() {
			if err := rows.Scan(&session, &skill); err != nil {
				return err
			}
			id, ok := ids[skill]
			if !ok {
				id = len(names)
				ids[skill] = id
				names = append(names, skill)
				each = append(each, 0)
			}
			seen = append(seen, ss{session, id})
		}
		if err := rows.Err(); err != nil {
			return err
		}
		slices.SortFunc(seen, func(a, b ss) int {
			if c := strings.Compare(a.session, b.session); c != 0 {
				return c
			}
			return a.skill - b.skill
		})
		seen = slices.Compact(seen)
		var set []int
		flush := func() {
			for _, a := range set {
				each[a]++
			}
			for i := 0; i < len(set); i++ {
				for j := i + 1; j < len(set); j++ {
					a, b := set[i], set[j]
					if names[a] > names[b] {
						a, b = b, a
					}
					if x.Skill != "" && names[a] != x.Skill && names[b] != x.Skill {
						continue
					}
					pairs[uint64(a)<<32|uint64(b)]++
				}
			}
			set = set[:0]
		}
		for i, e := range seen {
			if i > 0 && e.session != seen[i-1].session {
				flush()
			}
			set = append(set, e.skill)
		}
		flush()
		for k, both := range pairs {
			a, b := int(k>>32), int(k&math.MaxUint32)
			out.Pairs = append(out.Pairs, SkillPair{A: names[a], B: names[b], Sessions: both, SessionsA: each[a], SessionsB: each[b],
				Jaccard: math.Round(float64(both)/float64(each[a]+each[b]-both)*10000) / 10000})
		}
		slices.SortFunc(out.Pairs, func(p, o SkillPair) int {
			switch {
			case p.Sessions != o.Sessions:
				return int(o.Sessions - p.Sessions)
			case p.Jaccard != o.Jaccard:
				if p.Jaccard > o.Jaccard {
					return -1
				}
				return 1
			case p.A != o.A:
				return strings.Compare(p.A, o.A)
			}
			return strings.Compare(p.B, o.B)
		})
		return nil
	})
	if err == nil {
		out.Pairs, out.Truncated = cut(out.Pairs, in.Limit)
	}
	return out, err
}

// ---- Inactivity ----

// Inactivity lists known and catalogued skills with no read in the
// period. No read is not evidence of no use: Note says so.
type Inactivity struct {
	Coverage  Coverage        `json:"coverage"`
	Skills    []InactiveSkill `json:"skills"`
	Truncated bool            `json:"truncated"`
	Note      string          `json:"note"`
}

// InactiveSkill is a skill with no read observation in the period.
type InactiveSkill struct {
	Skill   string `json:"skill"`
	Scope   string `json:"scope,omitempty"`
	Project string `json:"project,omitempty"`
	// Sources says where the skill is known from: "installed" and/or
	// "catalog:<collection>".
	Sources []string `json:"sources"`
	// LastRead is the last read ever before the period's end, nil when
	// there is none.
	LastRead *time.Time `json:"lastRead,omitempty"`
}

// InactivityNote is Inactivity's statement of what "no reads" means.
const InactivityNote = "no read observation in the period is not evidence that a skill is unused: hosts without a read hook, days without hook activity and uses that read no file of the skill are not counted"

// Inactivity returns the known skills (q.Known) and those in each
// collection's latest catalog observation before the period's end that
// have no read in the period, with their last read ever; never-read
// skills first, then by last read, then name.
func (r *Reader) Inactivity(ctx context.Context, in Query) (Inactivity, error) {
	out := Inactivity{Skills: []InactiveSkill{}, Note: InactivityNote}
	for _, k := range in.Known {
		if !skillName(k.Name) || (k.Scope != "" && k.Scope != "project" && k.Scope != "global") {
			return out, invalid("query: known skill %q (scope %q) is not a skill name and scope", clip(k.Name), clip(k.Scope))
		}
	}
	err := r.run(ctx, "listing inactive skills", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		type cand struct {
			InactiveSkill
			key string
		}
		var cands []*cand
		byKey := map[string]*cand{}
		add := func(name, scope, project, source string) {
			if x.Skill != "" && name != x.Skill {
				return
			}
			key := name + "\x00" + scope + "\x00" + project
			if cd, ok := byKey[key]; ok {
				if !slices.Contains(cd.Sources, source) {
					cd.Sources = append(cd.Sources, source)
				}
				return
			}
			cd := &cand{InactiveSkill: InactiveSkill{Skill: name, Scope: scope, Project: project, Sources: []string{source}}, key: key}
			byKey[key] = cd
			cands = append(cands, cd)
		}
		for _, k := range x.Known {
			add(k.Name, k.Scope, k.Project, "installed")
		}
		rows, err := tx.QueryContext(ctx, `SELECT o.collection, s.name FROM catalog_skill s JOIN catalog_observation o ON o.id = s.observation
			WHERE o.id IN (SELECT (SELECT id FROM catalog_observation i WHERE i.collection = c.collection AND i.at_ms < ? ORDER BY at_ms DESC, id DESC LIMIT 1)
			FROM (SELECT DISTINCT collection FROM catalog_observation) c) ORDER BY o.collection, s.name`, x.to)
		if err != nil {
			return err
		}
		for rows.Next() {
			var coll, name string
			if err := rows.Scan(&coll, &name); err != nil {
				rows.Close()
				return err
			}
			add(name, "", "", "catalog:"+coll)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		host, hargs := "", []any{}
		if x.Host != "" {
			host, hargs = " AND host = ?", []any{x.Host}
		}
		for _, cd := range cands {
			w, args := "skill = ? AND at_ms < ?"+host, append([]any{cd.Skill, x.to}, hargs...)
			if cd.Scope != "" {
				w += " AND scope = ? AND project = ?"
				args = append(args, cd.Scope, cd.Project)
			}
			var last sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT max(at_ms) FROM read_observation WHERE `+w, args...).Scan(&last); err != nil {
				return err
			}
			if last.Valid && last.Int64 >= x.from {
				continue
			}
			cd.LastRead = msPtr(last)
			out.Skills = append(out.Skills, cd.InactiveSkill)
		}
		slices.SortStableFunc(out.Skills, func(a, b InactiveSkill) int {
			switch {
			case (a.LastRead == nil) != (b.LastRead == nil):
				if a.LastRead == nil {
					return -1
				}
				return 1
			case a.LastRead != nil && !a.LastRead.Equal(*b.LastRead):
				return a.LastRead.Compare(*b.LastRead)
			case a.Skill != b.Skill:
				return strings.Compare(a.Skill, b.Skill)
			case a.Scope != b.Scope:
				return strings.Compare(a.Scope, b.Scope)
			}
			return strings.Compare(a.Project, b.Project)
		})
		return nil
	})
	if err == nil {
		out.Skills, out.Truncated = cut(out.Skills, in.Limit)
	}
	return out, err
}

// ---- History ----

// History is per-day buckets of reads and finished lifecycle events.
type History struct {
	Coverage Coverage `json:"coverage"`
	// Skill is the filter, "" for all skills.
	Skill     string      `json:"skill"`
	Days      []DayBucket `json:"days"`
	Truncated bool        `json:"truncated"`
}

// DayBucket is one UTC day.
type DayBucket struct {
	Day       string `json:"day"` // 2006-01-02
	Reads     int64  `json:"reads"`
	Succeeded int64  `json:"succeeded"`
	Failed    int64  `json:"failed"`
	Abandoned int64  `json:"abandoned"`
	Blocked   int64  `json:"blocked"`
}

// History returns one bucket per UTC day of the period (days without
// evidence included, as zeros) for q.Skill or all skills: reads, and
// finished lifecycle events by outcome. When the days exceed the row
// budget it keeps the latest ones.
func (r *Reader) History(ctx context.Context, in Query) (History, error) {
	out := History{Skill: in.Skill, Days: []DayBucket{}}
	err := r.run(ctx, "building the history", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		first, last := x.days()
		buckets := make([]DayBucket, last-first+1)
		for i := range buckets {
			buckets[i].Day = time.UnixMilli((first + int64(i)) * dayMS).UTC().Format("2006-01-02")
		}
		src, args := x.readRows(x.from, x.to)
		rows, err := tx.QueryContext(ctx, `SELECT day, sum(reads) FROM `+src+` GROUP BY day`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var d, n int64
			if err := rows.Scan(&d, &n); err != nil {
				rows.Close()
				return err
			}
			buckets[d-first].Reads = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		lw, largs := x.lifecycleWhere()
		rows, err = tx.QueryContext(ctx, `SELECT at_ms / 86400000, outcome, count(*) FROM lifecycle_event WHERE stage = 'finished' AND `+lw+` GROUP BY 1, 2`, largs...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d, n int64
			var o string
			if err := rows.Scan(&d, &o, &n); err != nil {
				return err
			}
			b := &buckets[d-first]
			switch o {
			case "succeeded":
				b.Succeeded = n
			case "failed":
				b.Failed = n
			case "abandoned":
				b.Abandoned = n
			case "blocked":
				b.Blocked = n
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(buckets) > x.limit {
			buckets, out.Truncated = buckets[len(buckets)-x.limit:], true
		}
		out.Days = buckets
		return nil
	})
	return out, err
}

// ---- Memory ----

// Memory is the per-skill summary of every kind of evidence, read in one
// snapshot. It establishes no retention policy and writes nothing.
type Memory struct {
	Coverage  Coverage      `json:"coverage"`
	Cutoff    *time.Time    `json:"cutoff,omitempty"`
	Skills    []SkillMemory `json:"skills"`
	Truncated bool          `json:"truncated"`
}

// SkillMemory is one skill's evidence in the period.
type SkillMemory struct {
	Skill    string     `json:"skill"`
	Reads    int64      `json:"reads"`
	Sessions int64      `json:"sessions"`
	First    *time.Time `json:"first,omitempty"`
	Last     *time.Time `json:"last,omitempty"`
	// Identities are the digest/version pairs of the files read: the
	// evidence's identity, never merged into one.
	Identities []Identity       `json:"identities"`
	Lifecycle  SkillOutcome     `json:"lifecycle"`
	Catalogs   []CatalogPresent `json:"catalogs"`
	// Before and After split the period's counts at Cutoff; nil without one.
	Before *Counts `json:"beforeCutoff,omitempty"`
	After  *Counts `json:"afterCutoff,omitempty"`
}

// Identity is one digest and version seen in a skill's reads.
type Identity struct {
	Digest  string    `json:"digest"`
	Version string    `json:"version"`
	Reads   int64     `json:"reads"`
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`
}

// CatalogPresent is a collection whose latest observation before the
// period's end lists the skill.
type CatalogPresent struct {
	Collection string    `json:"collection"`
	At         time.Time `json:"at"`
	Version    string    `json:"version"`
	Digest     string    `json:"digest"`
}

// Counts are the records on one side of the cutoff.
type Counts struct {
	Reads           int64 `json:"reads"`
	LifecycleEvents int64 `json:"lifecycleEvents"`
}

// Memory returns per skill with reads or lifecycle events in the period
// the reads and sessions, the digests and versions seen, the lifecycle
// counts, the catalogs listing it, and with q.Cutoff the counts before and
// after it within the period. Sorted by reads (descending) then name.
func (r *Reader) Memory(ctx context.Context, in Query) (Memory, error) {
	out := Memory{Skills: []SkillMemory{}}
	var cutoff int64
	if in.Cutoff != nil {
		t := in.Cutoff.UTC()
		out.Cutoff, cutoff = &t, t.UnixMilli()
	}
	err := r.run(ctx, "summarising skill memory", in, func(tx *sql.Tx, x q, c Coverage) error {
		out.Coverage = c
		by := map[string]*SkillMemory{}
		get := func(name string) *SkillMemory {
			m, ok := by[name]
			if !ok {
				m = &SkillMemory{Skill: name, Identities: []Identity{}, Catalogs: []CatalogPresent{}}
				m.Lifecycle.Skill = name
				if out.Cutoff != nil {
					m.Before, m.After = &Counts{}, &Counts{}
				}
				by[name] = m
			}
			return m
		}
		sessions, err := sessionsPerSkill(ctx, tx, x)
		if err != nil {
			return err
		}
		// The identities of [from, cutoff) and [cutoff, to), merged: the
		// rollups answer both halves, and the halves give the counts
		// around the cutoff.
		mid := x.to
		if out.Cutoff != nil {
			mid = max(x.from, min(cutoff, x.to))
		}
		type idKey struct{ skill, digest, version string }
		ids := map[idKey]*Identity{}
		var order []idKey
		for half, span := range [][2]int64{{x.from, mid}, {mid, x.to}} {
			if span[0] >= span[1] {
				continue
			}
			src, args := x.readRows(span[0], span[1])
			rows, err := tx.QueryContext(ctx, `SELECT skill, digest, version, sum(reads), min(first_ms), max(last_ms) FROM `+src+` GROUP BY 1, 2, 3`, args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var k idKey
				var n, lo, hi int64
				if err := rows.Scan(&k.skill, &k.digest, &k.version, &n, &lo, &hi); err != nil {
					rows.Close()
					return err
				}
				m := get(k.skill)
				m.Reads += n
				if m.Before != nil {
					if half == 0 {
						m.Before.Reads += n
					} else {
						m.After.Reads += n
					}
				}
				id, ok := ids[k]
				if !ok {
					id = &Identity{Digest: k.digest, Version: k.version, First: ms(lo), Last: ms(hi)}
					ids[k] = id
					order = append(order, k)
				}
				id.Reads += n
				if ms(lo).Before(id.First) {
					id.First = ms(lo)
				}
				if ms(hi).After(id.Last) {
					id.Last = ms(hi)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		for _, k := range order {
			m := by[k.skill]
			m.Identities = append(m.Identities, *ids[k])
		}
		for _, m := range by {
			m.Sessions = sessions[m.Skill]
			slices.SortFunc(m.Identities, func(a, b Identity) int {
				if c := a.First.Compare(b.First); c != 0 {
					return c
				}
				if c := strings.Compare(a.Digest, b.Digest); c != 0 {
					return c
				}
				return strings.Compare(a.Version, b.Version)
			})
			for _, id := range m.Identities {
				if m.First == nil || id.First.Before(*m.First) {
					t := id.First
					m.First = &t
				}
				if m.Last == nil || id.Last.After(*m.Last) {
					t := id.Last
					m.Last = &t
				}
			}
		}
		lw, largs := x.lifecycleWhere()
		rows, err := tx.QueryContext(ctx, `SELECT skill, count(*),
			count(*) FILTER (WHERE outcome = 'succeeded'), count(*) FILTER (WHERE outcome = 'failed'),
			count(*) FILTER (WHERE outcome = 'abandoned'), count(*) FILTER (WHERE outcome = 'blocked'),
			count(*) FILTER (WHERE outcome IS NULL)
			FROM (`+fmt.Sprintf(attemptsSQL, lw)+`) GROUP BY skill`, largs...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var s SkillOutcome
			if err := rows.Scan(&s.Skill, &s.Attempts, &s.Succeeded, &s.Failed, &s.Abandoned, &s.Blocked, &s.Unfinished); err != nil {
				rows.Close()
				return err
			}
			get(s.Skill).Lifecycle = s
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if out.Cutoff != nil {
			rows, err = tx.QueryContext(ctx, `SELECT skill, count(*) FILTER (WHERE at_ms < ?), count(*) FILTER (WHERE at_ms >= ?)
				FROM lifecycle_event WHERE `+lw+` GROUP BY skill`, append([]any{cutoff, cutoff}, largs...)...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var name string
				var b, a int64
				if err := rows.Scan(&name, &b, &a); err != nil {
					rows.Close()
					return err
				}
				m := get(name)
				m.Before.LifecycleEvents, m.After.LifecycleEvents = b, a
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		rows, err = tx.QueryContext(ctx, `SELECT o.collection, o.at_ms, s.name, s.version, s.digest FROM catalog_skill s JOIN catalog_observation o ON o.id = s.observation
			WHERE o.id IN (SELECT (SELECT id FROM catalog_observation i WHERE i.collection = c.collection AND i.at_ms < ? ORDER BY at_ms DESC, id DESC LIMIT 1)
			FROM (SELECT DISTINCT collection FROM catalog_observation) c) ORDER BY o.collection`, x.to)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var cp CatalogPresent
			var at int64
			var name string
			if err := rows.Scan(&cp.Collection, &at, &name, &cp.Version, &cp.Digest); err != nil {
				return err
			}
			cp.At = ms(at)
			if m, ok := by[name]; ok || x.Skill == name {
				if !ok {
					m = get(name)
				}
				m.Catalogs = append(m.Catalogs, cp)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for _, m := range by {
			out.Skills = append(out.Skills, *m)
		}
		slices.SortFunc(out.Skills, func(a, b SkillMemory) int {
			if a.Reads != b.Reads {
				if a.Reads > b.Reads {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Skill, b.Skill)
		})
		return nil
	})
	if err == nil {
		out.Skills, out.Truncated = cut(out.Skills, in.Limit)
	}
	return out, err
}
