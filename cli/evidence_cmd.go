package cli

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/evidence"
	"github.com/agent-skills/agent-skills/cli/internal/setup"
)

type evidenceCmd struct {
	Status     evidenceStatusCmd     `cmd:"" help:"Show where the evidence store is, its schema and what it holds (read-only)."`
	Rankings   evidenceRankingsCmd   `cmd:"" help:"The skills agents read most in a period, with sessions and hosts (read-only)."`
	Outcomes   evidenceOutcomesCmd   `cmd:"" help:"Reported lifecycle outcomes per skill: attempts, succeeded, failed, unfinished (read-only)."`
	Overlap    evidenceOverlapCmd    `cmd:"" help:"Pairs of skills read in the same sessions (read-only)."`
	Inactivity evidenceInactivityCmd `cmd:"" help:"Installed or catalogued skills with no read observed in a period (read-only)."`
	History    evidenceHistoryCmd    `cmd:"" help:"Reads and reported outcomes per day (read-only)."`
	Memory     evidenceMemoryCmd     `cmd:"" help:"Everything the store holds about skills, in one snapshot, with counts around a cutoff (read-only)."`
	Record     evidenceRecordCmd     `cmd:"" help:"Record an explicit lifecycle event or a collection's complete inventory."`
}

// evidenceStore are the flags that choose the store.
type evidenceStore struct {
	DB string `name:"db" type:"path" help:"The evidence store (default: AGENT_SKILLS_USAGE_DB, else <state root>/skills-usage.db; see docs/evidence.md)."`
}

// locate returns where the store is; it touches no file.
func (s evidenceStore) locate(e *env) (evidence.Location, error) {
	return evidence.Locate(s.DB, e.ws.Getenv, e.ws.UserHome(), e.ws.Cwd)
}

// evidencePeriod are the flags that choose a query's period.
type evidencePeriod struct {
	Since string `help:"The period: the last N days, today included (e.g. 7d, 90d; default 30d)."`
	From  string `help:"The first day of the period (YYYY-MM-DD, UTC), instead of --since."`
	To    string `help:"The last day of the period (YYYY-MM-DD, UTC; default: today)."`
}

// maxPeriodDays bounds a period: ten years of days.
const maxPeriodDays = 3660

// period turns the flags into [From, To): whole UTC days.
func (p evidencePeriod) period(now time.Time) (evidence.Period, error) {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	end := today.AddDate(0, 0, 1)
	if p.To != "" {
		d, err := time.Parse(time.DateOnly, p.To)
		if err != nil {
			return evidence.Period{}, askerr.Usage("--to %q is not a date: use YYYY-MM-DD", p.To)
		}
		end = d.AddDate(0, 0, 1)
	}
	if p.From != "" {
		if p.Since != "" {
			return evidence.Period{}, askerr.Usage("--since and --from choose the period in two ways: give one")
		}
		d, err := time.Parse(time.DateOnly, p.From)
		if err != nil {
			return evidence.Period{}, askerr.Usage("--from %q is not a date: use YYYY-MM-DD", p.From)
		}
		if !d.Before(end) {
			return evidence.Period{}, askerr.Usage("--from %s is after --to", p.From)
		}
		if end.Sub(d) > maxPeriodDays*24*time.Hour {
			return evidence.Period{}, askerr.Usage("the period is longer than %d days", maxPeriodDays)
		}
		return evidence.Period{From: d, To: end}, nil
	}
	since := p.Since
	if since == "" {
		since = "30d"
	}
	n, ok := strings.CutSuffix(since, "d")
	days, err := strconv.Atoi(n)
	if !ok || err != nil || days < 1 || days > maxPeriodDays {
		return evidence.Period{}, askerr.Usage("--since %q is not a number of days: use e.g. 7d or 90d (1d-%dd)", since, maxPeriodDays)
	}
	return evidence.Period{From: end.AddDate(0, 0, -days), To: end}, nil
}

// evidenceQuery are the flags every query takes.
type evidenceQuery struct {
	evidenceStore
	evidencePeriod
	Host  string `enum:",claude,codex,gemini,copilot" default:"" help:"Only observations from this host: claude, codex, gemini or copilot."`
	Limit int    `default:"50" help:"Print at most this many rows (1-1000)."`
	JSON  bool   `name:"json" help:"Print JSON."`
}

// query builds the store query of the flags.
func (q evidenceQuery) query(skill, cutoff string) (evidence.Query, error) {
	return buildEvidenceQuery(q.evidencePeriod, skill, q.Host, q.Limit, cutoff, time.Now())
}

// buildEvidenceQuery checks a query's bounds, the same for the commands
// and the MCP tools.
func buildEvidenceQuery(p evidencePeriod, skill, host string, limit int, cutoff string, now time.Time) (evidence.Query, error) {
	if limit < 1 || limit > 1000 {
		return evidence.Query{}, askerr.Usage("the limit must be 1-1000")
	}
	switch host {
	case "", "claude", "codex", "gemini", "copilot":
	default:
		return evidence.Query{}, askerr.Usage("unknown host %q: use claude, codex, gemini or copilot", host)
	}
	per, err := p.period(now)
	if err != nil {
		return evidence.Query{}, err
	}
	q := evidence.Query{Period: per, Skill: skill, Host: host, Limit: limit}
	if cutoff != "" {
		d, err := time.Parse(time.DateOnly, cutoff)
		if err != nil {
			return evidence.Query{}, askerr.Usage("the cutoff %q is not a date: use YYYY-MM-DD", cutoff)
		}
		if d.Before(per.From) || !d.Before(per.To) {
			return evidence.Query{}, askerr.Usage("the cutoff %s is outside the period %s to %s", cutoff,
				per.From.Format(time.DateOnly), per.To.AddDate(0, 0, -1).Format(time.DateOnly))
		}
		q.Cutoff = &d
	}
	return q, nil
}

// noEvidence is what a query says when the store does not exist: there is
// no evidence yet, which is not an error.
type noEvidence struct {
	Store   evidence.Location `json:"store"`
	Exists  bool              `json:"exists"`
	Message string            `json:"message"`
}

// evidenceQuery runs the named query (mcpserver.EvidenceQueries) on the
// store at loc, opened read-only within the query budget. A missing store
// gives noEvidence. Inactivity counts the installed skills too.
func (e *env) evidenceQuery(ctx context.Context, name string, loc evidence.Location, q evidence.Query, projectRoot string) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, evidence.QueryBudget)
	defer cancel()
	r, err := evidence.OpenReader(ctx, loc)
	if errors.Is(err, evidence.ErrNoStore) {
		return noEvidence{Store: loc, Message: "no evidence yet: " + loc.Path + " does not exist (" + loc.From + ")"}, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	gaps := func(c *evidence.Coverage) { c.Missing = append(e.readHookGaps(q.Host), c.Missing...) }
	switch name {
	case "status":
		return r.Status(ctx)
	case "rankings":
		v, err := r.Rankings(ctx, q)
		gaps(&v.Coverage)
		return v, err
	case "outcomes":
		return r.Outcomes(ctx, q)
	case "overlap":
		v, err := r.Overlap(ctx, q)
		gaps(&v.Coverage)
		return v, err
	case "inactivity":
		known, err := e.knownSkills(projectRoot)
		if err != nil {
			return nil, err
		}
		q.Known = known
		v, err := r.Inactivity(ctx, q)
		gaps(&v.Coverage)
		return v, err
	case "history":
		v, err := r.History(ctx, q)
		gaps(&v.Coverage)
		return v, err
	case "memory":
		v, err := r.Memory(ctx, q)
		gaps(&v.Coverage)
		return v, err
	}
	return nil, askerr.Usage("unknown evidence query %q", name)
}

// runEvidence runs a query for a command and prints its result.
func (e *env) runEvidence(s evidenceStore, asJSON bool, name string, q evidence.Query, projectRoot string) error {
	loc, err := s.locate(e)
	if err != nil {
		return err
	}
	v, err := e.evidenceQuery(e.ctx, name, loc, q, projectRoot)
	if err != nil {
		return err
	}
	if asJSON {
		return e.JSON(v)
	}
	if ne, ok := v.(noEvidence); ok {
		e.Info("no evidence yet: %s does not exist (%s)", e.Rel(ne.Store.Path), ne.Store.From)
		e.Info("it is created by the first skill read a registered hook observes (agent-skills setup enable --host <host> --reads --write) or by agent-skills evidence record")
		return nil
	}
	e.renderEvidence(v)
	return nil
}

type evidenceStatusCmd struct {
	evidenceStore
	JSON bool `name:"json" help:"Print JSON."`
}

func (c *evidenceStatusCmd) Help() string {
	return `Prints where the evidence store is and which setting chose it (--db,
AGENT_SKILLS_USAGE_DB, I9_SKILLS_USAGE_DB or the default under the state root), and,
when it exists, its schema version and how many records of each kind it holds. It opens
the store read-only: a missing store stays missing.

Examples:
  agent-skills evidence status
  agent-skills evidence status --db ./old-usage.db --json`
}

func (c *evidenceStatusCmd) Run(e *env) error {
	return e.runEvidence(c.evidenceStore, c.JSON, "status", evidence.Query{}, "")
}

type evidenceRankingsCmd struct {
	evidenceQuery
	Skill string `help:"Only this skill."`
}

func (c *evidenceRankingsCmd) Help() string {
	return `Ranks the skills by the reads of their files that the hosts' hooks observed in the
period: reads, sessions, hosts, first and last read. A read is a count of a host opening
a skill's SKILL.md or reference, not proof that the skill was followed. Every result
states its denominator, its period and the coverage that is missing (days a host's
hook did not run).

Examples:
  agent-skills evidence rankings
  agent-skills evidence rankings --since 90d --host claude --json`
}

func (c *evidenceRankingsCmd) Run(e *env) error {
	q, err := c.query(c.Skill, "")
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "rankings", q, "")
}

type evidenceOutcomesCmd struct {
	evidenceQuery
	Skill string `help:"Only this skill."`
}

func (c *evidenceOutcomesCmd) Help() string {
	return `Counts, per skill, the attempts reported with agent-skills evidence record lifecycle
(or the MCP record_lifecycle tool) in the period and how they finished: succeeded,
failed, abandoned, blocked, or not finished. These are the emitters' assertions, not
measurements.

Examples:
  agent-skills evidence outcomes --since 7d`
}

func (c *evidenceOutcomesCmd) Run(e *env) error {
	q, err := c.query(c.Skill, "")
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "outcomes", q, "")
}

type evidenceOverlapCmd struct {
	evidenceQuery
	Skill string `help:"Only pairs with this skill."`
}

func (c *evidenceOverlapCmd) Help() string {
	return `Lists pairs of skills whose files were read in the same host session in the period:
the sessions with both, the sessions with each, and their Jaccard index (both / either).
Reads from hosts that give no session id cannot be paired and are counted as missing
coverage. Skills read together may still do different jobs: overlap is a question to
ask, not an answer.

Examples:
  agent-skills evidence overlap --since 90d`
}

func (c *evidenceOverlapCmd) Run(e *env) error {
	q, err := c.query(c.Skill, "")
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "overlap", q, "")
}

type evidenceInactivityCmd struct {
	evidenceQuery
	ProjectRoot string `type:"path" help:"The project whose installed skills count (default: the nearest project above the working folder)."`
}

func (c *evidenceInactivityCmd) Help() string {
	return `Lists the skills installed here (project and global) or listed in a recorded collection
inventory that no hook observed being read in the period, with the last read ever seen.
No observed read does not prove a skill is unused: a host without a registered hook, a
skill loaded by other means, or a short period all look the same. The missing coverage
lines say which of these the store can see.

Examples:
  agent-skills evidence inactivity --since 90d`
}

func (c *evidenceInactivityCmd) Run(e *env) error {
	q, err := c.query("", "")
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "inactivity", q, c.ProjectRoot)
}

// knownSkills lists the installed skills, project and global, without
// saving the metadata cache: a query writes nothing.
func (e *env) knownSkills(projectRoot string) ([]evidence.KnownSkill, error) {
	cfg, root, err := e.ws.ConfigAndProject(projectRoot)
	if err != nil {
		return nil, err
	}
	skills, err := catalog.ScanInstalled(e.ctx, e.catalogRoots(cfg, root), catalog.ScanOptions{Cache: catalog.LoadMetaCache(e.metaCachePath())})
	if err != nil {
		return nil, err
	}
	out := make([]evidence.KnownSkill, 0, len(skills))
	for _, s := range skills {
		k := evidence.KnownSkill{Name: s.Name, Scope: strings.TrimPrefix(s.Source, "installed:")}
		if k.Scope == "project" {
			k.Project = root
		}
		out = append(out, k)
	}
	return out, nil
}

type evidenceHistoryCmd struct {
	evidenceQuery
	Skill string `arg:"" optional:"" help:"The skill (default: every skill)."`
}

func (c *evidenceHistoryCmd) Help() string {
	return `Prints, day by day over the period, the reads observed and the lifecycle outcomes
reported, for one skill or all. Days a host's hook did not run are named as missing
coverage, so a quiet day can be told from an unobserved one.

Examples:
  agent-skills evidence history my-skill --since 14d`
}

func (c *evidenceHistoryCmd) Run(e *env) error {
	q, err := c.query(c.Skill, "")
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "history", q, "")
}

type evidenceMemoryCmd struct {
	evidenceQuery
	Skill  string `arg:"" optional:"" help:"The skill (default: every skill with a record)."`
	Cutoff string `help:"Also count each skill's records before and after this day (YYYY-MM-DD, UTC) within the period."`
}

func (c *evidenceMemoryCmd) Help() string {
	return `Inspects what the store remembers about skills, read in one consistent snapshot: per
skill the reads (by host and kind), the file digests and versions they saw (the evidence's
identity), the lifecycle outcomes reported, the collections whose inventory lists it, and
the coverage that is missing. With --cutoff it counts the records before and after that
day within the period, to show what a retention cut-off would keep. It never deletes or
changes a record, and it is not a retention policy.

Examples:
  agent-skills evidence memory my-skill
  agent-skills evidence memory --since 365d --cutoff 2026-06-01 --json`
}

func (c *evidenceMemoryCmd) Run(e *env) error {
	q, err := c.query(c.Skill, c.Cutoff)
	if err != nil {
		return err
	}
	return e.runEvidence(c.evidenceStore, c.JSON, "memory", q, "")
}

type evidenceRecordCmd struct {
	Lifecycle evidenceRecordLifecycleCmd `cmd:"" help:"Record one stage of an attempt to use a skill (started, or finished with its outcome)."`
	Catalog   evidenceRecordCatalogCmd   `cmd:"" help:"Record the complete inventory of a collection folder now, with its catalog digest."`
}

type evidenceRecordLifecycleCmd struct {
	evidenceStore
	EventID string `name:"event-id" required:"" help:"The event's id, chosen by you (1-128 of A-Z a-z 0-9 . _ : -): a retry with the same id and content records nothing new."`
	Attempt string `required:"" help:"The attempt the event belongs to (same characters): one started and one finished event per attempt."`
	Skill   string `required:"" help:"The skill's name."`
	Version string `name:"skill-version" help:"The skill's version."`
	Stage   string `required:"" enum:"started,finished" help:"started or finished."`
	Outcome string `enum:",succeeded,failed,abandoned,blocked" default:"" help:"With --stage finished: succeeded, failed, abandoned or blocked."`
	At      string `help:"When it happened (RFC 3339; default: now)."`
	Emitter string `required:"" help:"Who asserts it, e.g. ci or agent:claude (1-64 characters)."`
	Reason  string `help:"A short reason code (no free text: up to 64 of A-Z a-z 0-9 . _ : -)."`
	JSON    bool   `name:"json" help:"Print JSON."`
}

func (c *evidenceRecordLifecycleCmd) Help() string {
	return `Records an assertion about one use of a skill: its start, or its finish and outcome.
The record is validated before anything is written; it is the only way, with a verified
hook observation and record catalog, that the store is created. A retry with the same
--event-id and the same content is a no-op; the same id with other content, a second
start or finish of one attempt, or a finish before its start is refused (exit 5) and
changes nothing. No prompt or free text is stored.

Examples:
  agent-skills evidence record lifecycle --event-id ci-841-start --attempt ci-841 \
      --skill release-notes --stage started --emitter ci
  agent-skills evidence record lifecycle --event-id ci-841-end --attempt ci-841 \
      --skill release-notes --stage finished --outcome succeeded --emitter ci`
}

// recordResult is record's --json output.
type recordResult struct {
	Store    evidence.Location `json:"store"`
	Kind     string            `json:"kind"`
	Inserted bool              `json:"inserted"`
	ID       int64             `json:"id"`
}

func (c *evidenceRecordLifecycleCmd) Run(e *env) error {
	l, err := lifecycleRecord(c.EventID, c.Attempt, c.Skill, c.Version, c.Stage, c.Outcome, c.At, c.Emitter, c.Reason)
	if err != nil {
		return err
	}
	return e.writeStore(c.evidenceStore, c.JSON, "lifecycle", func(ctx context.Context, s *evidence.Store) (evidence.WriteResult, error) {
		return s.RecordLifecycle(ctx, l)
	}, fmt.Sprintf("%s %s of attempt %s of %s", l.Stage, l.EventID, l.Attempt, l.Skill))
}

// lifecycleRecord builds and validates a lifecycle record, the same for
// the command and the MCP tool; at is RFC 3339 or empty for now.
func lifecycleRecord(eventID, attempt, skill, version, stage, outcome, at, emitter, reason string) (evidence.Lifecycle, error) {
	when := time.Now().UTC()
	if at != "" {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return evidence.Lifecycle{}, askerr.Usage("the time %q is not RFC 3339 (e.g. 2026-12-03T14:00:00Z)", at)
		}
		when = t.UTC()
	}
	l := evidence.Lifecycle{EventID: eventID, Attempt: attempt, Skill: skill, Version: version, Stage: stage,
		Outcome: outcome, At: when, Emitter: emitter, Reason: reason}
	return l, l.Validate()
}

type evidenceRecordCatalogCmd struct {
	evidenceStore
	Collection string `arg:"" type:"path" help:"The collection folder (every package must be valid, as for catalog build)."`
	ID         string `name:"id" help:"The collection's logical identifier, e.g. github.com/acme/skills (default: the folder's name; never a local path)."`
	JSON       bool   `name:"json" help:"Print JSON."`
}

func (c *evidenceRecordCatalogCmd) Help() string {
	return `Derives the collection's inventory exactly as catalog build does — every package,
validated, with its digest — and records it as a complete inventory at this time, with
the digest of the canonical catalog. Inactivity then counts the collection's skills that
no hook saw read. Only the logical --id is stored, never the folder's path. Recording the
same inventory again at the same second is a no-op.

Examples:
  agent-skills evidence record catalog skills/ --id github.com/acme/skills`
}

func (c *evidenceRecordCatalogCmd) Run(e *env) error {
	root, err := filepath.Abs(c.Collection)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.Collection)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills evidence record catalog <collection folder>"}}
	}
	id := c.ID
	if id == "" {
		id = filepath.Base(root)
	}
	opts := e.ws.ValidateOptions(false)
	opts.DirName = filepath.Base(root)
	cat, err := catalog.Build(os.DirFS(root), opts)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(cat.Encode())
	obs := evidence.CatalogObservation{Collection: id, At: time.Now().UTC().Truncate(time.Second),
		Digest: "sha256:" + hex.EncodeToString(sum[:]), Skills: make([]evidence.CatalogSkill, 0, len(cat.Skills))}
	for _, s := range cat.Skills {
		d, err := hexDigest(s.Digest)
		if err != nil {
			return askerr.Internal("the catalog of "+e.Rel(root)+" has a digest that is not SHA-256", err)
		}
		obs.Skills = append(obs.Skills, evidence.CatalogSkill{Name: s.Name, Version: s.Version, Digest: d})
	}
	if err := obs.Validate(); err != nil {
		return err
	}
	return e.writeStore(c.evidenceStore, c.JSON, "catalog", func(ctx context.Context, s *evidence.Store) (evidence.WriteResult, error) {
		return s.RecordCatalog(ctx, obs)
	}, fmt.Sprintf("the inventory of %s (%d skills, %s)", id, len(obs.Skills), obs.Digest))
}

// hexDigest turns a package digest as catalogs write it ("sha256-" and
// base64) into the form the evidence store keeps ("sha256:" and hex).
func hexDigest(sri string) (string, error) {
	b64, ok := strings.CutPrefix(sri, "sha256-")
	if !ok {
		return "", fmt.Errorf("%q is not sha256-<base64>", sri)
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("%q is not sha256-<base64 of 32 bytes>", sri)
	}
	return "sha256:" + hex.EncodeToString(b), nil
}

// record opens (creating it when needed) the store at loc for a
// validated record and writes it.
func record(ctx context.Context, loc evidence.Location, kind string, write func(context.Context, *evidence.Store) (evidence.WriteResult, error)) (recordResult, error) {
	st, err := evidence.OpenWriter(ctx, loc)
	if err != nil {
		return recordResult{}, err
	}
	res, err := write(ctx, st)
	if cerr := st.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return recordResult{}, err
	}
	return recordResult{Store: loc, Kind: kind, Inserted: res.Inserted, ID: res.ID}, nil
}

// writeStore records for a command and prints what it did.
func (e *env) writeStore(s evidenceStore, asJSON bool, kind string, write func(context.Context, *evidence.Store) (evidence.WriteResult, error), what string) error {
	loc, err := s.locate(e)
	if err != nil {
		return err
	}
	res, err := record(e.ctx, loc, kind, write)
	if err != nil {
		return err
	}
	if asJSON {
		return e.JSON(res)
	}
	if res.Inserted {
		e.Done("recorded %s in %s", what, e.Rel(loc.Path))
	} else {
		e.Done("already recorded: %s (in %s); nothing changed", what, e.Rel(loc.Path))
	}
	return nil
}

// readHookGaps names each host whose settings hold no read hook now, in
// the user's scope or the project's: its reads cannot be in the store,
// whatever the period. It only reads the hosts' settings files (setup
// status), and runs nothing.
func (e *env) readHookGaps(host string) []string {
	senv := e.setupEnv()
	scopes := []setup.Scope{setup.User}
	if senv.ProjectRoot != "" {
		scopes = append(scopes, setup.Project)
	}
	var gaps []string
	for _, name := range []string{"claude", "codex", "gemini", "copilot"} {
		if host != "" && name != host {
			continue
		}
		h, ok := setup.HostNamed(name)
		if !ok {
			continue
		}
		found := false
		for _, sc := range scopes {
			r := setup.Status(senv, h, sc, setup.Options{Parts: []setup.Part{setup.Reads}}, func(setup.Env, string) *setup.CommandCheck { return nil })
			for _, en := range r.Entries {
				if en.Part == setup.Reads && (en.Status == "registered" || en.Status == "modified" || en.Status == "foreign") {
					found = true
				}
			}
		}
		if !found {
			gaps = append(gaps, fmt.Sprintf("no read hook is registered for %s now, so none of its reads are counted (agent-skills setup enable --host %s --reads)", name, name))
		}
	}
	return gaps
}
