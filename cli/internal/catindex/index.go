package catindex

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

// Events of an observation.
const (
	// EventObserved: the source's catalog was read and indexed.
	EventObserved = "observed"
	// EventRemoved: the source was removed from the projection.
	EventRemoved = "removed"
)

// Kinds of a skill change.
const (
	ChangeAdded   = "added"
	ChangeRemoved = "removed"
	ChangeChanged = "changed"
)

// MaxSourceID bounds a source identifier's length.
const MaxSourceID = 200

var sourceID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$`)

// ValidateSourceID refuses (ASK_CATALOG_INDEX_SOURCE) an identifier that
// is not a logical source name: slash-separated segments of letters,
// digits, '.', '_' and '-', each starting with a letter or digit, at most
// MaxSourceID bytes — so never an absolute path, a "..", a drive letter
// or a home-relative path.
func ValidateSourceID(id string) error {
	if len(id) == 0 || len(id) > MaxSourceID || !sourceID.MatchString(id) {
		return &askerr.Error{Code: CodeSource,
			Message: fmt.Sprintf("%q is not a logical source identifier", clip(id)),
			Detail:  []string{fmt.Sprintf("use slash-separated names of letters, digits, '.', '_' and '-' (at most %d bytes); a local path is never recorded", MaxSourceID)},
			Try:     []string{"agent-skills catalog index add github.com/acme/skills <collection folder>"}}
	}
	return nil
}

// Skill is one skill of the projection, or of an observation.
// Fields are in the alphabetical order of their JSON keys.
type Skill struct {
	Description string `json:"description"`
	Digest      string `json:"digest"`
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	Path        string `json:"path"`
	Source      string `json:"source"`
	Version     string `json:"version"`
}

// State is a skill's indexed fields on one side of a change.
type State struct {
	Description string `json:"description"`
	Digest      string `json:"digest"`
	Kind        string `json:"kind"`
	Version     string `json:"version"`
}

// Change is the normalised change of one skill between a source's
// previous observation and this one. Skills are matched by name and
// path (as catalog.Diff does).
type Change struct {
	After  *State   `json:"after,omitempty"`
	Before *State   `json:"before,omitempty"`
	Change string   `json:"change"`
	Fields []string `json:"fields"`
	Name   string   `json:"name"`
	Path   string   `json:"path"`
}

// TimeFormat is how observation times are written: UTC, milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Time is an observation time. It encodes in JSON as TimeFormat, so that
// every time in the output has the same width.
type Time struct{ time.Time }

// MarshalJSON writes t as a TimeFormat string.
func (t Time) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format(TimeFormat) + `"`), nil
}

// String returns t in TimeFormat.
func (t Time) String() string { return t.UTC().Format(TimeFormat) }

func msTime(ms int64) Time { return Time{time.UnixMilli(ms).UTC()} }

// Observation is one recorded look at a source.
type Observation struct {
	At      Time     `json:"at"`
	Changes []Change `json:"changes"`
	Digest  string   `json:"digest"`
	Event   string   `json:"event"`
	ID      int64    `json:"id"`
	Skills  int      `json:"skills"`
	Source  string   `json:"source"`
}

// Source is one source of the projection.
type Source struct {
	Digest     string `json:"digest"`
	ID         string `json:"id"`
	ObservedAt Time   `json:"observedAt"`
	Skills     int    `json:"skills"`
}

// Projection is the current state of the index: every source and every
// skill, sorted. Encode writes it as the JSON fallback.
type Projection struct {
	SchemaVersion int      `json:"schemaVersion"`
	Skills        []Skill  `json:"skills"`
	Sources       []Source `json:"sources"`
}

// ProjectionSchemaVersion is the version of the JSON fallback's format.
const ProjectionSchemaVersion = 1

// Encode returns the canonical bytes of p: two-space indented JSON with
// sorted keys, times in UTC with milliseconds, empty lists as [] and a
// trailing newline.
func (p Projection) Encode() []byte {
	out := Projection{SchemaVersion: ProjectionSchemaVersion, Skills: slices.Clone(p.Skills), Sources: slices.Clone(p.Sources)}
	if out.Skills == nil {
		out.Skills = []Skill{}
	}
	if out.Sources == nil {
		out.Sources = []Source{}
	}
	sortSkills(out.Skills)
	slices.SortFunc(out.Sources, func(a, b Source) int { return strings.Compare(a.ID, b.ID) })
	for i := range out.Sources {
		out.Sources[i].ObservedAt = Time{out.Sources[i].ObservedAt.UTC()}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out) // strings, ints and times: cannot fail
	return b.Bytes()
}

func sortSkills(s []Skill) {
	slices.SortFunc(s, func(a, b Skill) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Path, b.Path))
	})
}

// AddResult is what Add did.
type AddResult struct {
	// Observation is the recorded observation, or the latest one when
	// Unchanged.
	Observation Observation `json:"observation"`
	// Unchanged: the source is in the projection with this very catalog
	// digest; nothing was recorded.
	Unchanged bool `json:"unchanged"`
}

// CheckCatalog refuses (ASK_CATALOG_INDEX_CATALOG) a decoded catalog
// whose entries the index cannot key: an empty name or path, or two
// entries with the same name and path.
func CheckCatalog(c *catalog.Catalog) error {
	seen := map[[2]string]bool{}
	for _, e := range c.Skills {
		k := [2]string{e.Name, e.Path}
		switch {
		case e.Name == "" || e.Path == "":
			return catalogErr("an entry has an empty name or path")
		case seen[k]:
			return catalogErr(fmt.Sprintf("skill %q at %q is listed twice", clip(e.Name), clip(e.Path)))
		}
		seen[k] = true
	}
	return nil
}

func catalogErr(msg string) *askerr.Error {
	return &askerr.Error{Code: CodeCatalog, Message: catalogFile + " is not a valid catalog: " + msg,
		Try: []string{"agent-skills catalog build <collection folder>   then commit " + catalogFile}}
}

// Add records an observation of source at time at — its catalog c, whose
// file's bytes have the digest digest — with each skill's change against
// the source's previous recorded catalog, and replaces the source's rows
// of the projection, all in one transaction. When the source is in the
// projection with the same digest it records nothing (Unchanged).
func (ix *Index) Add(ctx context.Context, source, digest string, c *catalog.Catalog, at time.Time) (AddResult, error) {
	if err := ValidateSourceID(source); err != nil {
		return AddResult{}, err
	}
	if err := CheckCatalog(c); err != nil {
		return AddResult{}, err
	}
	skills := make([]Skill, len(c.Skills))
	for i, e := range c.Skills {
		skills[i] = Skill{Source: source, Name: e.Name, Path: e.Path, Kind: e.Kind, Version: e.Version, Digest: e.Digest, Description: e.Description}
	}
	sortSkills(skills)
	var res AddResult
	err := ix.writeTx(ctx, "indexing "+source, func(tx *sql.Tx) error {
		var cur string
		var curObs int64
		err := tx.QueryRowContext(ctx, `SELECT digest, observation FROM source WHERE id = ?`, source).Scan(&cur, &curObs)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && cur == digest {
			obs, err := observation(ctx, tx, curObs)
			res = AddResult{Observation: obs, Unchanged: true}
			return err
		}
		var before []Skill
		var prev int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM observation WHERE source = ? AND event = 'observed' ORDER BY id DESC LIMIT 1`, source).Scan(&prev)
		switch {
		case err == nil:
			if before, err = observedSkills(ctx, tx, prev, source); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		changes := diff(before, skills)
		ms := at.UnixMilli()
		out, err := tx.ExecContext(ctx, `INSERT INTO observation (source, at_ms, event, digest, skills) VALUES (?, ?, 'observed', ?, ?)`,
			source, ms, digest, len(skills))
		if err != nil {
			return err
		}
		id, err := out.LastInsertId()
		if err != nil {
			return err
		}
		for _, s := range skills {
			if _, err := tx.ExecContext(ctx, `INSERT INTO observed_skill (observation, name, path, kind, version, digest, description) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				id, s.Name, s.Path, s.Kind, s.Version, s.Digest, s.Description); err != nil {
				return err
			}
		}
		for _, ch := range changes {
			b, a := ch.Before, ch.After
			if _, err := tx.ExecContext(ctx, `INSERT INTO skill_change (observation, name, path, change, fields,
				before_kind, before_version, before_digest, before_description, after_kind, after_version, after_digest, after_description)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, ch.Name, ch.Path, ch.Change, strings.Join(ch.Fields, ","),
				b.kind(), b.version(), b.digest(), b.description(), a.kind(), a.version(), a.digest(), a.description()); err != nil {
				return err
			}
		}
		if err := project(ctx, tx, Source{ID: source, Digest: digest, Skills: len(skills), ObservedAt: msTime(ms)}, id, skills); err != nil {
			return err
		}
		res = AddResult{Observation: Observation{ID: id, Source: source, At: msTime(ms), Event: EventObserved,
			Digest: digest, Skills: len(skills), Changes: changes}}
		return nil
	})
	return res, err
}

// project replaces source's rows of the projection.
func project(ctx context.Context, tx *sql.Tx, src Source, obs int64, skills []Skill) error {
	if err := unproject(ctx, tx, src.ID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO source (id, observation, at_ms, digest, skills) VALUES (?, ?, ?, ?, ?)`,
		src.ID, obs, src.ObservedAt.UnixMilli(), src.Digest, src.Skills); err != nil {
		return err
	}
	for _, s := range skills {
		if _, err := tx.ExecContext(ctx, `INSERT INTO skill (source, name, path, kind, version, digest, description) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			src.ID, s.Name, s.Path, s.Kind, s.Version, s.Digest, s.Description); err != nil {
			return err
		}
	}
	return nil
}

func unproject(ctx context.Context, tx *sql.Tx, source string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM skill WHERE source = ?`, source); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM source WHERE id = ?`, source)
	return err
}

// Remove drops source from the projection and records a "removed"
// observation; the history is kept, so a later Add reports its changes
// against the last catalog recorded before the removal. A source not in
// the projection is ASK_CATALOG_INDEX_NOT_FOUND.
func (ix *Index) Remove(ctx context.Context, source string, at time.Time) (Observation, error) {
	if err := ValidateSourceID(source); err != nil {
		return Observation{}, err
	}
	var obs Observation
	err := ix.writeTx(ctx, "removing "+source, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM source WHERE id = ?`, source).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return notFound(source)
		}
		ms := at.UnixMilli()
		out, err := tx.ExecContext(ctx, `INSERT INTO observation (source, at_ms, event, digest, skills) VALUES (?, ?, 'removed', '', 0)`, source, ms)
		if err != nil {
			return err
		}
		id, err := out.LastInsertId()
		if err != nil {
			return err
		}
		obs = Observation{ID: id, Source: source, At: msTime(ms), Event: EventRemoved, Changes: []Change{}}
		return unproject(ctx, tx, source)
	})
	return obs, err
}

func notFound(source string) *askerr.Error {
	return &askerr.Error{Code: CodeNotFound, Message: fmt.Sprintf("source %s is not in the catalog index", source),
		Try: []string{"agent-skills catalog index list   shows the indexed sources"}}
}

// Projection returns the current projection, sorted.
func (ix *Index) Projection(ctx context.Context) (Projection, error) {
	p := Projection{SchemaVersion: ProjectionSchemaVersion, Sources: []Source{}, Skills: []Skill{}}
	err := ix.view(ctx, "reading the projection", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, at_ms, digest, skills FROM source ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s Source
			var ms int64
			if err := rows.Scan(&s.ID, &ms, &s.Digest, &s.Skills); err != nil {
				return err
			}
			s.ObservedAt = msTime(ms)
			p.Sources = append(p.Sources, s)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		p.Skills, err = scanSkills(ctx, tx, `SELECT source, name, path, kind, version, digest, description FROM skill ORDER BY source, name, path`)
		return err
	})
	return p, err
}

// History returns source's observations, oldest first: every one at or
// after since when since is non-zero, else the latest one only. A source
// with no observation is ASK_CATALOG_INDEX_NOT_FOUND.
func (ix *Index) History(ctx context.Context, source string, since time.Time) ([]Observation, error) {
	if err := ValidateSourceID(source); err != nil {
		return nil, err
	}
	var out []Observation
	err := ix.view(ctx, "reading the history of "+source, func(tx *sql.Tx) error {
		var ids []int64
		q, args := `SELECT id FROM observation WHERE source = ? ORDER BY id DESC LIMIT 1`, []any{source}
		if !since.IsZero() {
			q, args = `SELECT id FROM observation WHERE source = ? AND at_ms >= ? ORDER BY id`, []any{source, since.UnixMilli()}
		}
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		if len(ids) == 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM observation WHERE source = ?`, source).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return notFound(source)
			}
		}
		out = []Observation{}
		for _, id := range ids {
			o, err := observation(ctx, tx, id)
			if err != nil {
				return err
			}
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

// Rebuild re-derives the whole projection from the recorded
// observations, in one transaction: each source whose latest observation
// is "observed", with that observation's skills. It returns the new
// projection.
func (ix *Index) Rebuild(ctx context.Context) (Projection, error) {
	err := ix.writeTx(ctx, "rebuilding the projection", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM skill`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM source`); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT o.id, o.source, o.at_ms, o.digest, o.skills FROM observation o
			WHERE o.id = (SELECT max(id) FROM observation WHERE source = o.source) AND o.event = 'observed' ORDER BY o.source`)
		if err != nil {
			return err
		}
		type latest struct {
			id  int64
			src Source
		}
		var all []latest
		for rows.Next() {
			var l latest
			var ms int64
			if err := rows.Scan(&l.id, &l.src.ID, &ms, &l.src.Digest, &l.src.Skills); err != nil {
				rows.Close()
				return err
			}
			l.src.ObservedAt = msTime(ms)
			all = append(all, l)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		for _, l := range all {
			skills, err := observedSkills(ctx, tx, l.id, l.src.ID)
			if err != nil {
				return err
			}
			if err := project(ctx, tx, l.src, l.id, skills); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Projection{}, err
	}
	return ix.Projection(ctx)
}

// observation reads one observation with its changes.
func observation(ctx context.Context, q querier, id int64) (Observation, error) {
	o := Observation{ID: id, Changes: []Change{}}
	var ms int64
	if err := q.QueryRowContext(ctx, `SELECT source, at_ms, event, digest, skills FROM observation WHERE id = ?`, id).
		Scan(&o.Source, &ms, &o.Event, &o.Digest, &o.Skills); err != nil {
		return o, err
	}
	o.At = msTime(ms)
	rows, err := q.QueryContext(ctx, `SELECT name, path, change, fields,
		before_kind, before_version, before_digest, before_description, after_kind, after_version, after_digest, after_description
		FROM skill_change WHERE observation = ? ORDER BY name, path`, id)
	if err != nil {
		return o, err
	}
	defer rows.Close()
	for rows.Next() {
		var c Change
		var fields string
		var b, a [4]sql.NullString
		if err := rows.Scan(&c.Name, &c.Path, &c.Change, &fields, &b[0], &b[1], &b[2], &b[3], &a[0], &a[1], &a[2], &a[3]); err != nil {
			return o, err
		}
		c.Fields = []string{}
		if fields != "" {
			c.Fields = strings.Split(fields, ",")
		}
		c.Before, c.After = state(b), state(a)
		o.Changes = append(o.Changes, c)
	}
	return o, rows.Err()
}

func state(v [4]sql.NullString) *State {
	if !v[0].Valid {
		return nil
	}
	return &State{Kind: v[0].String, Version: v[1].String, Digest: v[2].String, Description: v[3].String}
}

func observedSkills(ctx context.Context, q querier, obs int64, source string) ([]Skill, error) {
	skills, err := scanSkills(ctx, q, `SELECT ?, name, path, kind, version, digest, description FROM observed_skill WHERE observation = ? ORDER BY name, path`, source, obs)
	return skills, err
}

func scanSkills(ctx context.Context, q querier, query string, args ...any) ([]Skill, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Skill{}
	for rows.Next() {
		var s Skill
		if err := rows.Scan(&s.Source, &s.Name, &s.Path, &s.Kind, &s.Version, &s.Digest, &s.Description); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// diff returns the change of every skill from before to after, matched
// by name and path, sorted by name then path.
func diff(before, after []Skill) []Change {
	key := func(s Skill) [2]string { return [2]string{s.Name, s.Path} }
	bm := map[[2]string]Skill{}
	for _, s := range before {
		bm[key(s)] = s
	}
	am := map[[2]string]Skill{}
	for _, s := range after {
		am[key(s)] = s
	}
	out := []Change{}
	for k, b := range bm {
		a, ok := am[k]
		if !ok {
			out = append(out, Change{Change: ChangeRemoved, Name: k[0], Path: k[1], Fields: []string{}, Before: stateOf(b)})
			continue
		}
		if f := fields(b, a); len(f) > 0 {
			out = append(out, Change{Change: ChangeChanged, Name: k[0], Path: k[1], Fields: f, Before: stateOf(b), After: stateOf(a)})
		}
	}
	for k, a := range am {
		if _, ok := bm[k]; !ok {
			out = append(out, Change{Change: ChangeAdded, Name: k[0], Path: k[1], Fields: []string{}, After: stateOf(a)})
		}
	}
	slices.SortFunc(out, func(x, y Change) int { return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.Path, y.Path)) })
	return out
}

func stateOf(s Skill) *State {
	return &State{Kind: s.Kind, Version: s.Version, Digest: s.Digest, Description: s.Description}
}

func fields(b, a Skill) []string {
	var f []string
	if b.Description != a.Description {
		f = append(f, "description")
	}
	if b.Digest != a.Digest {
		f = append(f, "digest")
	}
	if b.Kind != a.Kind {
		f = append(f, "kind")
	}
	if b.Version != a.Version {
		f = append(f, "version")
	}
	return f
}

// Nil-safe accessors for a change's sides: a missing side is NULL.
func (s *State) kind() any        { return s.field(func(s *State) string { return s.Kind }) }
func (s *State) version() any     { return s.field(func(s *State) string { return s.Version }) }
func (s *State) digest() any      { return s.field(func(s *State) string { return s.Digest }) }
func (s *State) description() any { return s.field(func(s *State) string { return s.Description }) }

func (s *State) field(get func(*State) string) any {
	if s == nil {
		return nil
	}
	return get(s)
}
