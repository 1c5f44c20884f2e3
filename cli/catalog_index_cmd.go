package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/catindex"
	"github.com/agent-skills/agent-skills/cli/internal/evidence"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/format"
)

type catalogIndexCmd struct {
	Add     catalogIndexAddCmd     `cmd:"" help:"Record a collection's committed skills-catalog.json in the index under a logical source id."`
	Remove  catalogIndexRemoveCmd  `cmd:"" help:"Drop a source from the index's current projection (its history is kept)."`
	List    catalogIndexListCmd    `cmd:"" help:"The indexed sources, or with --skills their skills (read-only)."`
	Diff    catalogIndexDiffCmd    `cmd:"" help:"The per-skill changes recorded for a source (read-only)."`
	Rebuild catalogIndexRebuildCmd `cmd:"" help:"Re-derive the current projection from the recorded observations; --json-fallback also writes skills-catalog.index.json."`
}

// catalogIndexEnv names the index folder when --index is not given.
const catalogIndexEnv = "AGENT_SKILLS_CATALOG_INDEX"

// catalogIndexPlace is the flag that chooses the index folder.
type catalogIndexPlace struct {
	Index string `name:"index" type:"path" help:"The index folder, which holds skills-catalog.db (default: AGENT_SKILLS_CATALOG_INDEX)."`
}

// dir returns the absolute index folder; it touches no file.
func (p catalogIndexPlace) dir(e *env) (string, error) {
	d := p.Index
	if d == "" {
		d = e.ws.Getenv(catalogIndexEnv)
	}
	if d == "" {
		return "", &askerr.Error{Code: askerr.CodeUsage, Message: "no catalog index folder given",
			Try: []string{"pass --index DIR, or set " + catalogIndexEnv + "=DIR"}}
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(e.ws.Cwd, d)
	}
	return filepath.Clean(d), nil
}

// check refuses an index folder inside one of collections or a source
// repository, or beside the evidence database (catindex.CheckPlace).
func (p catalogIndexPlace) check(e *env, dir string, collections ...string) error {
	evidenceDB := ""
	if loc, err := evidence.Locate("", e.ws.Getenv, e.ws.UserHome(), e.ws.Cwd); err == nil {
		evidenceDB = loc.Path
	}
	return catindex.CheckPlace(dir, collections, evidenceDB)
}

// refreshFallback rewrites skills-catalog.index.json when the folder
// already has one, so that it never lags the database it was derived
// from. It returns whether it wrote.
func refreshFallback(e *env, ix *catindex.Index, dir string, always bool) (bool, error) {
	file := filepath.Join(dir, catindex.JSONName)
	if !always {
		if _, err := os.Lstat(file); errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
	}
	p, err := ix.Projection(e.ctx)
	if err != nil {
		return false, err
	}
	if err := atomicfile.WriteFile(file, p.Encode(), 0o644); err != nil {
		return false, &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + e.Rel(file), Err: err}
	}
	return true, nil
}

type catalogIndexAddCmd struct {
	catalogIndexPlace
	Source     string `arg:"" help:"The collection's logical source id, e.g. github.com/acme/skills (never a local path)."`
	Collection string `arg:"" type:"path" help:"The collection folder holding the committed skills-catalog.json."`
	AllowStale bool   `help:"Index the committed catalog even when it differs from what catalog build derives now."`
	JSON       bool   `name:"json" help:"Print JSON."`
}

func (c *catalogIndexAddCmd) Help() string {
	return `Reads the collection's committed skills-catalog.json (strictly, at most 32 MiB) and
checks that it is fresh — what catalog build derives from the folder now — refusing a
stale one (ASK_CATALOG_STALE) unless --allow-stale. Then, in one transaction, records a
timestamped observation of the source (the digest of the file's bytes, the skill count,
each skill's change against the source's previous observation) and replaces the
source's rows of the current projection. The same catalog again records nothing.
Only the logical source id is stored, never the folder. The index folder must lie
outside every source collection and its repository, and apart from skills-usage.db.

Examples:
  agent-skills catalog index add github.com/acme/skills ~/src/acme-skills --index ~/catalog-index`
}

func (c *catalogIndexAddCmd) Run(e *env) error {
	if err := catindex.ValidateSourceID(c.Source); err != nil {
		return err
	}
	dir, err := c.dir(e)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(c.Collection)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.Collection)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills catalog index add <source id> <collection folder>"}}
	}
	if err := c.check(e, dir, root); err != nil {
		return err
	}
	file := filepath.Join(root, catalog.FileName)
	data, err := atomicfile.ReadPlain(file, false, catalog.MaxCatalogSize)
	switch {
	case errors.Is(err, atomicfile.ErrTooLarge) || errors.Is(err, atomicfile.ErrNotPlain):
		return &askerr.Error{Code: catindex.CodeCatalog, Message: fmt.Sprintf("%s: %v", e.Rel(file), err),
			Try: []string{"agent-skills catalog build " + e.Rel(root)}}
	case err != nil:
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot read " + e.Rel(file), Err: err}
	case data == nil:
		return &askerr.Error{Code: catindex.CodeCatalog, Message: fmt.Sprintf("%s has no %s", e.Rel(root), catalog.FileName),
			Try: []string{"agent-skills catalog build " + e.Rel(root) + "   then commit " + catalog.FileName}}
	}
	cat, err := catalog.Decode(data)
	if err != nil {
		return &askerr.Error{Code: catindex.CodeCatalog, Message: e.Rel(file) + ": " + err.Error(),
			Try: []string{"agent-skills catalog build " + e.Rel(root) + "   then commit " + catalog.FileName}}
	}
	if !c.AllowStale {
		opts := e.ws.ValidateOptions(false)
		opts.DirName = filepath.Base(root)
		fresh, err := catalog.Build(os.DirFS(root), opts)
		if err != nil {
			return err
		}
		if changes := catalog.Check(data, fresh); len(changes) > 0 {
			detail := make([]string, len(changes))
			for i, ch := range changes {
				detail[i] = ch.String()
			}
			return &askerr.Error{Code: CodeCatalogStale,
				Message: fmt.Sprintf("%s is stale: an index of it would be misleading; nothing was recorded", e.Rel(file)),
				Detail:  detail,
				Try: []string{"agent-skills catalog build " + e.Rel(root) + "   then commit " + catalog.FileName,
					"or pass --allow-stale to index the committed file as it is"}}
		}
	}
	ix, err := catindex.Open(e.ctx, dir)
	if err != nil {
		return err
	}
	defer ix.Close()
	res, err := ix.Add(e.ctx, c.Source, format.BytesDigest(data), cat, time.Now())
	if err != nil {
		return err
	}
	if _, err := refreshFallback(e, ix, dir, false); err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(res)
	}
	e.renderIndexAdd(res)
	return nil
}

type catalogIndexRemoveCmd struct {
	catalogIndexPlace
	Source string `arg:"" help:"The source id to drop."`
	JSON   bool   `name:"json" help:"Print JSON."`
}

func (c *catalogIndexRemoveCmd) Help() string {
	return `Drops the source and its skills from the current projection and records a "removed"
observation. Its history stays: diff still shows it, and adding the source again
reports the changes against the last catalog recorded before the removal.

Examples:
  agent-skills catalog index remove github.com/acme/skills --index ~/catalog-index`
}

func (c *catalogIndexRemoveCmd) Run(e *env) error {
	if err := catindex.ValidateSourceID(c.Source); err != nil {
		return err
	}
	ix, dir, err := c.openExisting(e, "")
	if err != nil {
		return err
	}
	defer ix.Close()
	obs, err := ix.Remove(e.ctx, c.Source, time.Now())
	if err != nil {
		return err
	}
	if _, err := refreshFallback(e, ix, dir, false); err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(obs)
	}
	e.Done("removed %s from the catalog index (its history is kept)", c.Source)
	return nil
}

// noIndex is what a read-only command says when the index does not
// exist: there is no index yet, which is not an error.
type noIndex struct {
	Index   string `json:"index"`
	Exists  bool   `json:"exists"`
	Message string `json:"message"`
}

// openExisting resolves and checks the index folder and opens the index
// there for writing, without creating it: a missing index is
// ASK_CATALOG_INDEX_NOT_FOUND, its message ending with why.
func (p catalogIndexPlace) openExisting(e *env, why string) (*catindex.Index, string, error) {
	dir, err := p.dir(e)
	if err != nil {
		return nil, "", err
	}
	if err := p.check(e, dir); err != nil {
		return nil, "", err
	}
	ix, err := catindex.OpenExisting(e.ctx, dir)
	if errors.Is(err, catindex.ErrNoIndex) {
		return nil, "", &askerr.Error{Code: catindex.CodeNotFound,
			Message: fmt.Sprintf("there is no catalog index at %s%s", e.Rel(filepath.Join(dir, catindex.DBName)), why),
			Try:     []string{"agent-skills catalog index add <source id> <collection folder> --index " + e.Rel(dir)}}
	}
	return ix, dir, err
}

// openIndexReader opens the index read-only; a missing one prints
// noIndex and returns nil.
func (e *env) openIndexReader(dir string, asJSON bool) (*catindex.Index, error) {
	ix, err := catindex.OpenReader(e.ctx, dir)
	if errors.Is(err, catindex.ErrNoIndex) {
		path := filepath.Join(dir, catindex.DBName)
		ni := noIndex{Index: path, Message: "no catalog index yet at " + path}
		if asJSON {
			return nil, e.JSON(ni)
		}
		e.Info("no catalog index yet: %s does not exist", e.Rel(path))
		return nil, nil
	}
	return ix, err
}

type catalogIndexListCmd struct {
	catalogIndexPlace
	Skills bool `help:"List the skills (name, version, source, digest) instead of the sources."`
	JSON   bool `name:"json" help:"Print JSON."`
}

func (c *catalogIndexListCmd) Help() string {
	return `Prints the current projection: each source with its latest observation time, catalog
digest and skill count, or with --skills every indexed skill. It opens the index
read-only and never creates it: a missing index is "no catalog index yet", exit 0.

Examples:
  agent-skills catalog index list --index ~/catalog-index
  agent-skills catalog index list --skills --json`
}

// indexList is the --json output of catalog index list.
type indexList struct {
	Index   string            `json:"index"`
	Exists  bool              `json:"exists"`
	Sources []catindex.Source `json:"sources"`
	Skills  []catindex.Skill  `json:"skills,omitempty"`
}

func (c *catalogIndexListCmd) Run(e *env) error {
	dir, err := c.dir(e)
	if err != nil {
		return err
	}
	ix, err := e.openIndexReader(dir, c.JSON)
	if ix == nil || err != nil {
		return err
	}
	defer ix.Close()
	p, err := ix.Projection(e.ctx)
	if err != nil {
		return err
	}
	out := indexList{Index: ix.Path(), Exists: true, Sources: p.Sources}
	if c.Skills {
		out.Skills = p.Skills
	}
	if c.JSON {
		return e.JSON(out)
	}
	e.renderIndexList(p, c.Skills)
	return nil
}

type catalogIndexDiffCmd struct {
	catalogIndexPlace
	Source string `arg:"" help:"The source id."`
	Since  string `help:"Every observation at or after this time (YYYY-MM-DD, UTC, or RFC 3339); default: the latest observation only."`
	JSON   bool   `name:"json" help:"Print JSON."`
}

func (c *catalogIndexDiffCmd) Help() string {
	return `Prints the changes recorded for a source: by default those of its latest observation
(the difference between its last two), with --since those of every observation from
that time on, oldest first. Each change is a skill added, removed or changed, with
its version, digest and description before and after. Read-only; a missing index is
"no catalog index yet", exit 0.

Examples:
  agent-skills catalog index diff github.com/acme/skills --index ~/catalog-index
  agent-skills catalog index diff github.com/acme/skills --since 2026-11-01 --json`
}

// indexDiff is the --json output of catalog index diff.
type indexDiff struct {
	Index        string                 `json:"index"`
	Source       string                 `json:"source"`
	Observations []catindex.Observation `json:"observations"`
}

func (c *catalogIndexDiffCmd) Run(e *env) error {
	if err := catindex.ValidateSourceID(c.Source); err != nil {
		return err
	}
	var since time.Time
	if c.Since != "" {
		t, err := time.Parse(time.DateOnly, c.Since)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, c.Since); err != nil {
				return askerr.Usage("--since %q is not a time: use YYYY-MM-DD or RFC 3339 (2026-11-01T09:00:00Z)", c.Since)
			}
		}
		since = t
	}
	dir, err := c.dir(e)
	if err != nil {
		return err
	}
	ix, err := e.openIndexReader(dir, c.JSON)
	if ix == nil || err != nil {
		return err
	}
	defer ix.Close()
	obs, err := ix.History(e.ctx, c.Source, since)
	if err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(indexDiff{Index: ix.Path(), Source: c.Source, Observations: obs})
	}
	e.renderIndexDiff(c.Source, obs)
	return nil
}

type catalogIndexRebuildCmd struct {
	catalogIndexPlace
	JSONFallback bool `name:"json-fallback" help:"Also write skills-catalog.index.json: the same projection as canonical JSON, without history."`
	JSON         bool `name:"json" help:"Print JSON."`
}

func (c *catalogIndexRebuildCmd) Help() string {
	return `Re-derives the current projection (sources and skills) from the recorded observations
in one transaction: each source whose latest observation is not a removal, with the
skills of that observation. The sources' folders are not read. --json-fallback also
writes skills-catalog.index.json beside the database, atomically: the projection as
sorted canonical JSON with no history, for readers without SQLite; add and remove
keep that file up to date once it exists. The evidence database is refused.

Examples:
  agent-skills catalog index rebuild --index ~/catalog-index --json-fallback`
}

// indexRebuild is the --json output of catalog index rebuild.
type indexRebuild struct {
	Index    string `json:"index"`
	Sources  int    `json:"sources"`
	Skills   int    `json:"skills"`
	Fallback string `json:"fallback,omitempty"`
}

func (c *catalogIndexRebuildCmd) Run(e *env) error {
	ix, dir, err := c.openExisting(e, ": nothing to rebuild from")
	if err != nil {
		return err
	}
	defer ix.Close()
	p, err := ix.Rebuild(e.ctx)
	if err != nil {
		return err
	}
	out := indexRebuild{Index: ix.Path(), Sources: len(p.Sources), Skills: len(p.Skills)}
	if c.JSONFallback {
		if _, err := refreshFallback(e, ix, dir, true); err != nil {
			return err
		}
		out.Fallback = filepath.Join(dir, catindex.JSONName)
	}
	if c.JSON {
		return e.JSON(out)
	}
	e.Done("rebuilt %s from its observations: %d %s, %d %s", e.Rel(out.Index),
		out.Sources, ui.Plural(out.Sources, "source", "sources"), out.Skills, ui.Plural(out.Skills, "skill", "skills"))
	if out.Fallback != "" {
		e.Done("wrote %s", e.Rel(out.Fallback))
	}
	return nil
}
