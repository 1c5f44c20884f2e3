package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
)

type catalogCmd struct {
	Build    catalogBuildCmd    `cmd:"" help:"Derive skills-catalog.json from a collection folder; --check fails when the committed one is stale."`
	Search   catalogSearchCmd   `cmd:"" help:"Search installed skills (both scopes, every agent), the bundled collection and the configured registries."`
	Read     catalogReadCmd     `cmd:"" help:"Print a skill's SKILL.md, or a Markdown file under its references/, with its digest."`
	Overview catalogOverviewCmd `cmd:"" help:"List every available skill, bounded in count and size."`
	Index    catalogIndexCmd    `cmd:"" help:"A derived SQLite index across several collections' catalogs: add, remove, list, diff, rebuild."`
}

// maxCatalogLimit caps --limit and --max-entries.
const maxCatalogLimit = 1000

type catalogBuildCmd struct {
	Collection string `arg:"" optional:"" default:"." type:"path" help:"The collection folder: a registry root, .agents/skills or any folder of packages."`
	Check      bool   `help:"Write nothing; exit 3 naming every difference when the committed skills-catalog.json is stale."`
	JSON       bool   `name:"json" help:"Print a machine-readable report."`
}

func (c *catalogBuildCmd) Help() string {
	return `skills-catalog.json lists every package of the collection — name, path, description,
version, keywords and the package digest — sorted, in canonical JSON, without time
stamps: building twice gives the same bytes and the second build rewrites nothing.
Every package must be valid. --check is the CI gate: it exits 3 naming each skill
added, removed or changed (and which fields) when the committed file is stale.

Examples:
  agent-skills catalog build skills/
  agent-skills catalog build --check`
}

// catalogBuildReport is the --json output of catalog build.
type catalogBuildReport struct {
	Path    string           `json:"path"`
	Skills  int              `json:"skills"`
	Check   bool             `json:"check"`
	Fresh   bool             `json:"fresh"`
	Written bool             `json:"written"`
	Changes []catalog.Change `json:"changes"`
}

func (c *catalogBuildCmd) Run(e *env) error {
	root, err := filepath.Abs(c.Collection)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.Collection)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills catalog build <collection folder>"}}
	}
	opts := e.ws.ValidateOptions(false)
	opts.DirName = filepath.Base(root)
	cat, err := catalog.Build(os.DirFS(root), opts)
	if err != nil {
		return err
	}
	if len(cat.Skills) == 0 {
		e.Note("no skill package found in %s: the catalog is empty", e.Rel(root))
	}
	file := filepath.Join(root, catalog.FileName)
	committed, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot read " + e.Rel(file), Err: err}
	}
	if err != nil {
		committed = nil
	}
	changes := catalog.Check(committed, cat)
	rep := catalogBuildReport{Path: e.Rel(file), Skills: len(cat.Skills), Check: c.Check, Fresh: len(changes) == 0, Changes: changes}
	if rep.Changes == nil {
		rep.Changes = []catalog.Change{}
	}
	if !c.Check && len(changes) > 0 {
		if err := atomicfile.WriteFile(file, cat.Encode(), 0o644); err != nil {
			return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + e.Rel(file), Err: err}
		}
		rep.Written = true
	}
	if c.JSON {
		if err := e.JSON(rep); err != nil {
			return err
		}
	} else {
		switch {
		case rep.Fresh:
			e.Info("%s is up to date (%d %s)", rep.Path, rep.Skills, ui.Plural(rep.Skills, "skill", "skills"))
		case rep.Written:
			e.Info("wrote %s (%d %s)", rep.Path, rep.Skills, ui.Plural(rep.Skills, "skill", "skills"))
			for _, ch := range changes {
				e.Verbose("  %s", ui.Field(ch.String()))
			}
		}
	}
	if c.Check && len(changes) > 0 {
		detail := make([]string, len(changes))
		for i, ch := range changes {
			detail[i] = ch.String()
		}
		return &askerr.Error{Code: CodeCatalogStale,
			Message: fmt.Sprintf("%s is stale: %d %s", rep.Path, len(changes), ui.Plural(len(changes), "difference", "differences")),
			Detail:  detail,
			Try:     []string{"agent-skills catalog build " + e.Rel(root) + "   then commit " + catalog.FileName}}
	}
	return nil
}

type catalogSearchCmd struct {
	Query       []string `arg:"" optional:"" help:"Words to look for in names, keywords and descriptions (all must match). Empty lists every skill."`
	Limit       int      `default:"20" help:"Show at most this many results (1-1000)."`
	ProjectRoot string   `type:"path" help:"The project folder (default: the nearest project above the working folder)."`
	JSON        bool     `name:"json" help:"Print JSON."`
}

func (c *catalogSearchCmd) Help() string {
	return `Searches what is installed (project and global scope, every agent's folders), the
bundled collection and every configured registry, ranked like "agent-skills search".
Each result names its source: installed:project, installed:global or a registry.

Examples:
  agent-skills catalog search java
  agent-skills catalog search gc tuning --limit 5 --json`
}

func (c *catalogSearchCmd) Run(e *env) error {
	if c.Limit < 1 || c.Limit > maxCatalogLimit {
		return askerr.Usage("--limit must be between 1 and %d", maxCatalogLimit)
	}
	src, err := e.catalogSources(c.ProjectRoot, true)
	if err != nil {
		return err
	}
	query := strings.Join(c.Query, " ")
	if len(query) > catalog.MaxQueryLength {
		return askerr.Usage("the query is longer than %d bytes", catalog.MaxQueryLength)
	}
	hits := catalog.Search(src.installed, src.indexes, query, c.Limit)
	if c.JSON {
		return e.JSON(struct {
			Query   string        `json:"query"`
			Results []catalog.Hit `json:"results"`
		}{query, hits})
	}
	rows := make([]ui.Hit, len(hits))
	for i, h := range hits {
		rows[i] = ui.Hit{Name: h.Name, Version: h.Version, Source: h.Source, Description: h.Description}
	}
	return e.SearchResults(query, "SOURCE", rows)
}

type catalogReadCmd struct {
	Skill       string `arg:"" help:"The skill's name."`
	Resource    string `arg:"" optional:"" help:"SKILL.md (the default) or a Markdown file under references/."`
	Source      string `help:"Read from this source only: installed:project, installed:global or a registry name."`
	ProjectRoot string `type:"path" help:"The project folder (default: the nearest project above the working folder)."`
	JSON        bool   `name:"json" help:"Print JSON with the content, its source and its digest."`
}

func (c *catalogReadCmd) Help() string {
	return `Serves only SKILL.md or Markdown files under references/ of the skill's package, at
most 256 KiB, never following a symbolic link: "..", absolute paths, encoded escapes
(%2e%2e/, %2f) and backslashes are refused. The skill is looked up installed in the
project, then installed globally, then in the registries (the verified package).
The content digest (sha256-…) is printed on stderr, or in --json.

Examples:
  agent-skills catalog read java-basics
  agent-skills catalog read java-performance references/profiling.md --json`
}

func (c *catalogReadCmd) Run(e *env) error {
	src, err := e.catalogSources(c.ProjectRoot, false)
	if err != nil {
		return err
	}
	doc, err := e.catalogRead(src, c.Skill, c.Resource, c.Source)
	if err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(doc)
	}
	// The document as text: new lines and tabs kept, anything a terminal
	// would act on escaped (--json has the exact bytes).
	fmt.Fprint(e.Out, termtext.Text(doc.Content))
	if !strings.HasSuffix(doc.Content, "\n") {
		fmt.Fprintln(e.Out)
	}
	e.Info("%s %s from %s, %d bytes, %s", ui.Field(doc.Skill), ui.Field(doc.Resource), ui.Field(doc.Source), doc.Size, doc.Digest)
	return nil
}

type catalogOverviewCmd struct {
	MaxEntries  int    `default:"100" help:"List at most this many skills (1-1000)."`
	MaxBytes    int    `default:"16384" help:"Keep the text under this many bytes (512-1048576)."`
	ProjectRoot string `type:"path" help:"The project folder (default: the nearest project above the working folder)."`
	JSON        bool   `name:"json" help:"Print JSON."`
}

func (c *catalogOverviewCmd) Help() string {
	return `Lists installed skills (project first, then global), then the skills of the bundled
collection and the registries, one line each with its source and description,
bounded by --max-entries and --max-bytes; a last line says how many were left out.

Examples:
  agent-skills catalog overview
  agent-skills catalog overview --max-entries 20 --json`
}

func (c *catalogOverviewCmd) Run(e *env) error {
	if c.MaxEntries < 1 || c.MaxEntries > maxCatalogLimit {
		return askerr.Usage("--max-entries must be between 1 and %d", maxCatalogLimit)
	}
	if c.MaxBytes < 512 || c.MaxBytes > 1<<20 {
		return askerr.Usage("--max-bytes must be between 512 and 1048576")
	}
	src, err := e.catalogSources(c.ProjectRoot, true)
	if err != nil {
		return err
	}
	all := append(slices.Clone(src.installed), catalog.RegistrySkills(src.indexes)...)
	ov := catalog.BuildOverview(all, catalog.OverviewOptions{MaxEntries: c.MaxEntries, MaxBytes: c.MaxBytes})
	if c.JSON {
		return e.JSON(ov)
	}
	fmt.Fprint(e.Out, termtext.Text(ov.Text))
	return nil
}

// catalogSource is what catalog queries run over.
type catalogSource struct {
	installed []catalog.Skill
	indexes   []registry.Loaded
	set       *registry.Set
}

// metaCachePath is the file that remembers installed skills' metadata
// between scans (see catalog.MetaCache). Deleting it only costs one slower
// scan.
func (e *env) metaCachePath() string { return filepath.Join(e.ws.CacheDir(), "installed-skills.cache") }

// scanInstalled scans the installed skills with the metadata cache and
// saves what the scan learned. A cache that cannot be saved is reported
// with --verbose and otherwise ignored: it only makes the next scan faster.
func (e *env) scanInstalled(roots []catalog.Root, manifest bool) ([]catalog.Skill, error) {
	cache := catalog.LoadMetaCache(e.metaCachePath())
	skills, err := catalog.ScanInstalled(e.ctx, roots, catalog.ScanOptions{Manifest: manifest, Cache: cache})
	if err != nil {
		return nil, err
	}
	if err := cache.Save(e.metaCachePath()); err != nil {
		e.Verbose("metadata cache not saved: %v", err)
	}
	return skills, nil
}

// catalogRoots returns the skill folders of every supported agent, in the
// project (when there is one) and globally, each with its readers.
func (e *env) catalogRoots(cfg *config.Config, projectRoot string) []catalog.Root {
	scopes := []agents.Scope{agents.ScopeGlobal}
	if projectRoot != "" {
		scopes = []agents.Scope{agents.ScopeProject, agents.ScopeGlobal}
	}
	return skillRoots(e.ws.Table().All(), scopes, e.ws.AgentEnv(cfg, projectRoot))
}

// skillRoots returns the skill folders the adapters read in each scope,
// in that order, each folder once with every adapter that reads it.
func skillRoots(adapters []agents.Adapter, scopes []agents.Scope, aenv agents.Env) []catalog.Root {
	var roots []catalog.Root
	for _, sc := range scopes {
		byPath := map[string]int{}
		for _, a := range adapters {
			for _, r := range agents.Roots(a, format.KindSkill, sc, aenv) {
				i, ok := byPath[r.Path]
				if !ok {
					i = len(roots)
					byPath[r.Path] = i
					roots = append(roots, catalog.Root{Path: r.Path, Scope: string(sc)})
				}
				if !slices.Contains(roots[i].Readers, a.ID()) {
					roots[i].Readers = append(roots[i].Readers, a.ID())
				}
			}
		}
	}
	return roots
}

// catalogSources scans the installed skills and, when withIndexes, loads
// the configured registries' indexes (plus the bundled collection when no
// configured registry serves it). A registry that cannot be loaded is
// skipped with a notice.
func (e *env) catalogSources(projectRootFlag string, withIndexes bool) (*catalogSource, error) {
	cfg, root, err := e.ws.ConfigAndProject(projectRootFlag)
	if err != nil {
		return nil, err
	}
	installed, err := e.scanInstalled(e.catalogRoots(cfg, root), true)
	if err != nil {
		return nil, err
	}
	src := &catalogSource{installed: installed}
	set, err := e.catalogSet(cfg)
	if err != nil {
		return nil, err
	}
	src.set = set
	if withIndexes {
		loaded, err := set.Indexes(e.ctx, "")
		if err != nil {
			if e.ctx.Err() != nil {
				return nil, err
			}
			e.Note("registries skipped: %v", err)
		}
		src.indexes = loaded
	}
	return src, nil
}

// catalogSet opens the configured registries, adding the bundled
// collection last when no configured registry is the bundled one.
func (e *env) catalogSet(cfg *config.Config) (*registry.Set, error) {
	opts := e.ws.RegistryOptions(cfg)
	var regs []registry.Registry
	bundled := false
	for _, r := range cfg.Registries {
		reg, err := workspace.OpenRegistry(r, opts)
		if err != nil {
			return nil, err
		}
		bundled = bundled || r.Kind == config.KindBundled
		regs = append(regs, reg)
	}
	if !bundled {
		if reg, err := registry.Open(registry.Spec{Name: "bundled", URL: config.BundledURL, Kind: config.KindBundled, Untrusted: true}, opts); err == nil {
			regs = append(regs, reg)
		}
	}
	return registry.NewSet(func(msg string) { e.Note("%s", msg) }, regs...), nil
}

// catalogRead serves resource of the skill called name: installed in the
// project, installed globally, then the registries' verified package, or
// only from source when it is set.
func (e *env) catalogRead(src *catalogSource, name, resource, source string) (catalog.Document, error) {
	res, err := catalog.CheckResource(resource)
	if err != nil {
		return catalog.Document{}, err
	}
	for _, s := range src.installed {
		if s.Name != name || (source != "" && s.Source != source) {
			continue
		}
		b, res, err := catalog.ReadDir(s.Dir, res)
		if err != nil {
			return catalog.Document{}, err
		}
		return document(s.Name, res, s.Source, s.Version, b), nil
	}
	if strings.HasPrefix(source, "installed:") {
		return catalog.Document{}, catalogNotFound(name, source)
	}
	reg, sk, err := e.catalogLookup(src.set, name, source)
	if err != nil {
		return catalog.Document{}, err
	}
	version := sk.Latest
	if version == "" && len(sk.Versions) > 0 {
		version = sk.Sorted()[len(sk.Versions)-1].Version
	}
	pkg, err := reg.Package(e.ctx, name, version)
	if err != nil {
		return catalog.Document{}, err
	}
	b, res, err := catalog.ReadFS(pkg.FS, res)
	if err != nil {
		return catalog.Document{}, err
	}
	return document(name, res, reg.Name(), version, b), nil
}

// catalogLookup finds the registry skill called name: in source when set,
// else in the registry that owns the name.
func (e *env) catalogLookup(set *registry.Set, name, source string) (registry.Registry, *registry.Skill, error) {
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	var (
		reg registry.Registry
		sk  *registry.Skill
		err error
	)
	if source != "" {
		reg, sk, err = set.Lookup(ctx, source, name)
	} else {
		reg, sk, err = set.Owner(ctx, name)
	}
	if errors.Is(err, registry.ErrNotFound) || (err == nil && sk == nil) {
		return nil, nil, catalogNotFound(name, source)
	}
	return reg, sk, err
}

// catalogNotFound is the error of a skill no source has.
func catalogNotFound(name, source string) error {
	where := "installed or in a configured registry"
	if source != "" {
		where = "in " + source
	}
	return &askerr.Error{Code: catalog.CodeCatalogNotFound, Message: fmt.Sprintf("no skill named %q is %s", name, where),
		Try: []string{"agent-skills catalog search " + name}}
}

// document builds a read result.
func document(name, res, source, version string, b []byte) catalog.Document {
	return catalog.Document{Skill: name, Resource: res, Source: source, Version: version,
		Digest: catalog.ContentDigest(b), Size: len(b), Content: string(b)}
}
