package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/skillinfo"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
	"github.com/agent-skills/agent-skills/registry"
)

type mcpCmd struct {
	Serve  mcpServeCmd  `cmd:"" help:"Run the MCP server over stdio (search_skills, read_skill, skills_overview, skill_info, onboarding, evidence_*; SEP-2640 skills/list, skills/get and skill:// resources)."`
	Config mcpConfigCmd `cmd:"" help:"Print the registration snippet of the MCP server for a host."`
}

type mcpServeCmd struct {
	AllowWrite bool `name:"allow-write" help:"Also offer install_skill and uninstall_skill (each previews with dryRun, the default, unless dryRun is false)."`
	Online     bool `help:"Let registries fetch their indexes and packages (cached under AGENT_SKILLS_HOME/cache); without it only cached copies are read, so the read-only tools create no file."`
	evidenceStore
}

func (c *mcpServeCmd) Help() string {
	return `Speaks the Model Context Protocol on stdin/stdout for a coding agent. The tools search
and read the installed skills (project and global, every agent), the bundled collection
and the configured registries; they are read-only and create no file. The onboarding
tool returns the commands that wire up a host, as data. The evidence_* tools answer the
usage evidence queries of agent-skills evidence (read-only: a missing store stays
missing). The same skills are served by
the MCP Skills Extension (SEP-2640): skills/list, skills/get, and every file as a
skill:// resource (skill://installed/project/<name>/…, skill://installed/global/<name>/…,
skill://registry/<registry>/<name>/…) with its sha256 digest and size. With
--allow-write, install_skill and uninstall_skill run the same code as install and
uninstall, previewing unless called with dryRun false, and record_lifecycle records
a lifecycle event as agent-skills evidence record lifecycle does. Logs go to stderr.

Examples:
  agent-skills mcp serve
  agent-skills mcp config --host claude`
}

func (c *mcpServeCmd) Run(e *env) error {
	if e.ws.Getenv("GOGC") == "" {
		// Main collects garbage rarely for short commands; a server that
		// runs for a whole agent session goes back to the default.
		debug.SetGCPercent(100)
	}
	b, err := e.newMCPBackend(!c.Online && !c.AllowWrite)
	if err != nil {
		return err
	}
	loc, err := c.locate(e)
	if err != nil {
		return err
	}
	srv := mcpserver.New(b, mcpserver.Options{Version: release(), AllowWrite: c.AllowWrite, Skills: b,
		Evidence: &mcpEvidence{e: e, loc: loc}, Bump: mcpBump{e: e}})
	// Standard output carries JSON-RPC for a program, not text for a
	// person: it bypasses the terminal backstop (JSON has no raw control
	// characters anyway). Logs on standard error keep it.
	t := &mcpserver.LineTransport{In: e.stdin, Out: e.RawOut(), Methods: mcpserver.SkillMethods(b)}
	if err := srv.Run(e.ctx, t); err != nil && e.ctx.Err() == nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "the MCP session ended with an error", Err: err}
	}
	return nil
}

type mcpConfigCmd struct {
	Host       string `required:"" enum:"claude,codex,copilot,gemini,opencode" help:"The host: claude, codex, copilot, gemini or opencode."`
	AllowWrite bool   `name:"allow-write" help:"Register the server with --allow-write."`
	JSON       bool   `name:"json" help:"Print the file, format, snippet and command as JSON."`
}

func (c *mcpConfigCmd) Help() string {
	return `Prints what to add to the host's MCP configuration so that it starts
"agent-skills mcp serve": Claude Code's .mcp.json (or the claude mcp add command),
Codex's ~/.codex/config.toml [mcp_servers.agent-skills] table, Copilot CLI's
~/.copilot/mcp-config.json, Gemini CLI's settings.json mcpServers and OpenCode's
opencode.json "mcp" (the command and its arguments in one list).

Examples:
  agent-skills mcp config --host codex >> ~/.codex/config.toml`
}

func (c *mcpConfigCmd) Run(e *env) error {
	var args []string
	if c.AllowWrite {
		args = append(args, "--allow-write")
	}
	hc, err := mcpserver.HostConfigFor(c.Host, args...)
	if err != nil {
		return askerr.Usage("%v", err)
	}
	if c.JSON {
		return e.JSON(hc)
	}
	e.Info("add to %s:", hc.File)
	if hc.Command != "" {
		e.Info("or run: %s", hc.Command)
	}
	e.Info("or let agent-skills merge it, with a preview and a receipt: agent-skills setup enable --host %s --mcp", c.Host)
	if hc.Note != "" {
		e.Info("note: %s", hc.Note)
	}
	fmt.Fprint(e.Out, hc.Snippet)
	return nil
}

// mcpBackend answers the MCP tools with the catalog queries and, for the
// write tools, the install and uninstall commands.
type mcpBackend struct {
	e    *env
	cfg  *config.Config
	root string
	set  *registry.Set
	// cache remembers installed skills' metadata between tool calls. It
	// starts from the CLI's cache file but is never saved: the server
	// creates no file unless a write tool is called.
	cache *catalog.MetaCache
	// mu serialises the write tools.
	mu sync.Mutex
}

// newMCPBackend opens the configuration and the registries once; offline
// registries read only their caches.
func (e *env) newMCPBackend(offline bool) (*mcpBackend, error) {
	q := e.withContext(e.ctx)
	q.ws.OfflineFlag = q.ws.OfflineFlag || offline
	cfg, root, err := q.ws.ConfigAndProject("")
	if err != nil {
		return nil, err
	}
	set, err := q.catalogSet(cfg)
	if err != nil {
		return nil, err
	}
	return &mcpBackend{e: q, cfg: cfg, root: root, set: set, cache: catalog.LoadMetaCache(q.metaCachePath())}, nil
}

// source scans what is installed now and, when asked, the indexes.
func (b *mcpBackend) source(ctx context.Context, withIndexes bool) (*catalogSource, error) {
	installed, err := catalog.ScanInstalled(ctx, b.e.catalogRoots(b.cfg, b.root), catalog.ScanOptions{Manifest: true, Cache: b.cache})
	if err != nil {
		return nil, err
	}
	src := &catalogSource{installed: installed, set: b.set}
	if withIndexes {
		src.indexes, _ = b.set.Indexes(ctx, "")
	}
	return src, nil
}

// Search implements mcpserver.Backend.
func (b *mcpBackend) Search(ctx context.Context, query string, limit int) ([]catalog.Hit, error) {
	src, err := b.source(ctx, true)
	if err != nil {
		return nil, err
	}
	return catalog.Search(src.installed, src.indexes, query, limit), nil
}

// Read implements mcpserver.Backend.
func (b *mcpBackend) Read(ctx context.Context, skill, resource, source string) (catalog.Document, error) {
	src, err := b.source(ctx, false)
	if err != nil {
		return catalog.Document{}, err
	}
	return b.e.withContext(ctx).catalogRead(src, skill, resource, source)
}

// Overview implements mcpserver.Backend.
func (b *mcpBackend) Overview(ctx context.Context, opts catalog.OverviewOptions) (catalog.Overview, error) {
	src, err := b.source(ctx, true)
	if err != nil {
		return catalog.Overview{}, err
	}
	all := append(slices.Clone(src.installed), catalog.RegistrySkills(src.indexes)...)
	return catalog.BuildOverview(all, opts), nil
}

// Info implements mcpserver.Backend with the assembly of info (skillinfo)
// and the installed copies the catalog sees.
func (b *mcpBackend) Info(ctx context.Context, skill string) (mcpserver.Info, error) {
	src, err := b.source(ctx, false)
	if err != nil {
		return mcpserver.Info{}, err
	}
	info := mcpserver.Info{Name: skill, Versions: []mcpserver.VersionInfo{}, Requires: []mcpserver.Requirement{},
		Optional: []mcpserver.Requirement{}, Suggests: []string{}, Installed: []catalog.Skill{}}
	for _, s := range src.installed {
		if s.Name == skill {
			info.Installed = append(info.Installed, s)
			if info.Description == "" {
				info.Description = s.Description
			}
		}
	}
	pub, err := skillinfo.Lookup(ctx, b.set, resolve.Reference{Name: skill})
	if errors.Is(err, registry.ErrNotFound) {
		if len(info.Installed) > 0 {
			return info, nil
		}
		return mcpserver.Info{}, catalogNotFound(skill, "")
	}
	if err != nil {
		return mcpserver.Info{}, err
	}
	info.Registry, info.Latest, info.Description = pub.Registry, pub.Latest, ui.FoldSpace(pub.Description)
	for _, v := range pub.Versions {
		info.Versions = append(info.Versions, mcpserver.VersionInfo{Version: v.Version, Deprecated: v.Deprecated})
	}
	for _, d := range pub.Dependencies {
		info.Requires = append(info.Requires, mcpserver.Requirement{Name: d.Name, Range: d.Version})
	}
	for _, d := range pub.OptionalDependencies {
		info.Optional = append(info.Optional, mcpserver.Requirement{Name: d.Name, Range: d.Version})
	}
	info.Suggests = append(info.Suggests, pub.Suggests...)
	return info, nil
}

// Install implements mcpserver.Backend with the install use case.
func (b *mcpBackend) Install(ctx context.Context, req mcpserver.WriteRequest) (mcpserver.WriteResult, error) {
	return b.write(ctx, req, func(s *skillset.Session) (*skillset.Outcome, error) {
		return s.Install(ctx, skillset.InstallRequest{Args: []string{req.Skill}, DryRun: req.DryRun})
	})
}

// Uninstall implements mcpserver.Backend with the uninstall use case.
func (b *mcpBackend) Uninstall(ctx context.Context, req mcpserver.WriteRequest) (mcpserver.WriteResult, error) {
	return b.write(ctx, req, func(s *skillset.Session) (*skillset.Outcome, error) {
		return s.Uninstall(ctx, skillset.UninstallRequest{Names: []string{req.Skill}, DryRun: req.DryRun})
	})
}

// write opens a session for the request's scope and agents and runs one
// use case on it; the report is the outcome as install --json prints it.
func (b *mcpBackend) write(ctx context.Context, req mcpserver.WriteRequest, run func(*skillset.Session) (*skillset.Outcome, error)) (mcpserver.WriteResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q := b.e.withContext(ctx)
	res := mcpserver.WriteResult{DryRun: req.DryRun}
	s, err := skillset.Open(ctx, q.ws, skillset.Options{Agents: req.Agents, Generator: generator(),
		Scope: workspace.ScopeRequest{Global: req.Scope == "global", Project: req.Scope == "project"}})
	if err != nil {
		return res, err
	}
	out, err := run(s)
	if out != nil {
		data, jerr := json.MarshalIndent(out, "", "  ")
		if jerr != nil {
			return res, askerr.Internal("cannot encode the result as JSON", jerr)
		}
		res.Report = string(termtext.JSON(data)) + "\n"
	}
	return res, err
}

// sepLimits are the SEP-2640 per-skill limits, applied when a skill's file
// set is loaded: 512 files and 16 MiB in total (so also per file).
var sepLimits = format.Limits{MaxFiles: mcpserver.MaxSkillResources, MaxFileSize: mcpserver.MaxSkillBytes,
	MaxTotalSize: mcpserver.MaxSkillBytes}

// ServedSkills implements mcpserver.SkillStore: the installed skills whose
// metadata could be read, then every skill of the loaded registry indexes
// (the bundled collection included), each under its origin's prefix.
func (b *mcpBackend) ServedSkills(ctx context.Context) ([]mcpserver.SkillRef, error) {
	src, err := b.source(ctx, true)
	if err != nil {
		return nil, err
	}
	var refs []mcpserver.SkillRef
	for _, s := range src.installed {
		if origin := installedOrigin(s.Source); origin != "" && s.Problem == "" && format.ValidName(s.Name) {
			refs = append(refs, mcpserver.SkillRef{Origin: origin, Name: s.Name})
		}
	}
	for _, s := range catalog.RegistrySkills(src.indexes) {
		if format.ValidName(s.Name) {
			refs = append(refs, mcpserver.SkillRef{Origin: mcpserver.RegistryOrigin(s.Source), Name: s.Name})
		}
	}
	return refs, nil
}

// installedOrigin maps an installed skill's source to its URI prefix.
func installedOrigin(source string) string {
	switch source {
	case catalog.InstalledSource("project"):
		return mcpserver.OriginProject
	case catalog.InstalledSource("global"):
		return mcpserver.OriginGlobal
	}
	return ""
}

// OpenSkill implements mcpserver.SkillStore. The file set is the one
// format.Load gives the folder (or the registry's verified package) under
// the SEP-2640 limits: links and special files are left out, and a skill
// over a limit is not served. Reads go through catalog.ReadDirFile and
// ReadFSFile, read_skill's confinement, with the 16 MiB cap.
func (b *mcpBackend) OpenSkill(ctx context.Context, ref mcpserver.SkillRef) (mcpserver.SkillFiles, error) {
	notServed := mcpserver.NotServed
	if registryName, ok := strings.CutPrefix(ref.Origin, mcpserver.RegistryOrigin("")); ok {
		src, err := b.source(ctx, false)
		if err != nil {
			return mcpserver.SkillFiles{}, err
		}
		reg, sk, err := b.e.withContext(ctx).catalogLookup(src.set, ref.Name, registryName)
		if err != nil {
			return mcpserver.SkillFiles{}, notServed("%s", oneLineErr(err))
		}
		version := sk.Latest
		if version == "" && len(sk.Versions) > 0 {
			version = sk.Sorted()[len(sk.Versions)-1].Version
		}
		pkg, err := reg.Package(ctx, ref.Name, version)
		if err != nil {
			if ctx.Err() != nil {
				return mcpserver.SkillFiles{}, err
			}
			return mcpserver.SkillFiles{}, notServed("the package %s@%s cannot be opened: %v", ref.Name, version, oneLineErr(err))
		}
		files, err := skillFileSet(pkg.FS)
		if err != nil {
			return mcpserver.SkillFiles{}, notServed("%v", err)
		}
		return mcpserver.SkillFiles{Files: files, Read: func(rel string) ([]byte, error) {
			return catalog.ReadFSFile(pkg.FS, rel, mcpserver.MaxSkillBytes)
		}}, nil
	}
	src, err := b.source(ctx, false)
	if err != nil {
		return mcpserver.SkillFiles{}, err
	}
	for _, s := range src.installed {
		if s.Name != ref.Name || installedOrigin(s.Source) != ref.Origin {
			continue
		}
		if s.Problem != "" {
			return mcpserver.SkillFiles{}, notServed("%s", s.Problem)
		}
		dir := s.Dir
		files, err := skillFileSet(os.DirFS(dir))
		if err != nil {
			return mcpserver.SkillFiles{}, notServed("%v", err)
		}
		return mcpserver.SkillFiles{Files: files, Read: func(rel string) ([]byte, error) {
			return catalog.ReadDirFile(dir, rel, mcpserver.MaxSkillBytes)
		}}, nil
	}
	return mcpserver.SkillFiles{}, notServed("no skill %s is installed there", ref.Name)
}

// skillFileSet returns a skill package's file set under sepLimits, with
// SKILL.md in it and without the paths catalog.CheckPath refuses; a
// package that is not a skill or exceeds a limit is an error that says so.
func skillFileSet(fsys fs.FS) ([]string, error) {
	pkg, diags := format.Load(fsys, format.LoadOptions{Limits: sepLimits})
	for _, d := range diags {
		if d.Code == format.CodePackageTooLarge {
			return nil, fmt.Errorf("it exceeds the MCP Skills Extension's limits (%d files, %d bytes): %s",
				mcpserver.MaxSkillResources, mcpserver.MaxSkillBytes, d.Message)
		}
	}
	if pkg.Kind != format.KindSkill {
		return nil, fmt.Errorf("it is a %s, not a skill", pkg.Kind)
	}
	// A name read_skill's confinement refuses (a "%", which could be
	// an encoded escape) is left out like a link, not served broken.
	files := slices.DeleteFunc(slices.Clone(pkg.Files), func(p string) bool { return catalog.CheckPath(p) != nil })
	if !slices.Contains(files, "SKILL.md") {
		files = append(files, "SKILL.md")
		slices.Sort(files)
	}
	return files, nil
}

// oneLineErr is an error's first line.
func oneLineErr(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}
