package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/plugin"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/format"
)

type pluginCmd struct {
	Build      pluginBuildCmd      `cmd:"" help:"Turn a collection into a plugin marketplace for Claude Code, Codex and Copilot CLI."`
	Submission pluginSubmissionCmd `cmd:"" help:"Write the inert, skills-only plugin folder (and a deterministic ZIP) for a plugin directory."`
}

// pluginIdentity are the flags that name and describe the plugin.
type pluginIdentity struct {
	Name          string `help:"The plugin's name (default: the collection folder's name)."`
	PluginVersion string `name:"plugin-version" default:"0.1.0" help:"The plugin's version."`
	Description   string `help:"The plugin's description (default: derived from the skills)."`
	Author        string `help:"The plugin's author and the marketplace's owner (default: the skills' common first author, else the plugin name)."`
	License       string `help:"The plugin's SPDX licence (default: the licence every skill declares)."`
	Force         bool   `help:"Replace a non-empty --out (and, with --zip, an existing ZIP)."`
	JSON          bool   `name:"json" help:"Print what was written as JSON."`
}

// pluginReport is the --json output of plugin build and plugin submission.
type pluginReport struct {
	Out         string   `json:"out"`
	Zip         string   `json:"zip,omitempty"`
	Plugin      string   `json:"plugin"`
	Marketplace string   `json:"marketplace,omitempty"`
	Hosts       []string `json:"hosts,omitempty"`
	Skills      []string `json:"skills"`
	Files       int      `json:"files"`
	Left        []string `json:"left"`
	Stripped    []string `json:"stripped,omitempty"`
}

// pluginSource is where the skills come from: a collection folder, or with
// --installed the skills agent-skills installed.
type pluginSource struct {
	Source      string `arg:"" optional:"" type:"path" help:"The collection folder: any folder of skill packages, such as skills/ (default: the current folder)."`
	Installed   bool   `help:"Build from the skills agent-skills installed (both scopes unless --global or --project) instead of a collection folder."`
	Global      bool   `help:"With --installed: only the global skills."`
	Project     bool   `help:"With --installed: only the project's skills."`
	ProjectRoot string `type:"path" help:"With --installed: the project folder (default: the nearest project above the working folder)."`
}

// collection reads the skills the flags name; dir is the folder whose name
// is the default plugin name.
func (s pluginSource) collection(e *env) (c *plugin.Collection, dir string, err error) {
	if s.Installed {
		if s.Source != "" {
			return nil, "", askerr.Usage("--installed builds from the installed skills: give no collection folder")
		}
		return s.installed(e)
	}
	if s.Global || s.Project || s.ProjectRoot != "" {
		return nil, "", askerr.Usage("--global, --project and --project-root go with --installed")
	}
	src := s.Source
	if src == "" {
		src = "."
	}
	root, err := filepath.Abs(src)
	if err != nil {
		return nil, "", askerr.Usage("cannot resolve %s", src)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, "", &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills plugin build <collection folder> --out DIR"}}
	}
	opts := e.ws.ValidateOptions(false)
	opts.DirName = filepath.Base(root)
	c, err = plugin.LoadCollection(os.DirFS(root), opts)
	return c, root, err
}

// installed collects the skills agent-skills installed, one copy per name:
// the project's over the global one, and within a scope the copy Claude Code
// reads, else the first root. Unmanaged, disabled and receipt-broken ones
// are left out and named; modified ones are shipped as they are, with a note.
func (s pluginSource) installed(e *env) (*plugin.Collection, string, error) {
	if s.Global && s.Project {
		return nil, "", askerr.Usage("--global and --project cannot be used together")
	}
	cfg, root, err := e.ws.ConfigAndProject(s.ProjectRoot)
	if err != nil {
		return nil, "", err
	}
	aenv := e.ws.AgentEnv(cfg, root)
	adapters, err := e.ws.SeenAgents(e.ctx, cfg, nil, aenv)
	if err != nil {
		return nil, "", err
	}
	var scopes []agents.Scope
	if !s.Global && root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	if !s.Project {
		scopes = append(scopes, agents.ScopeGlobal)
	}
	if len(scopes) == 0 {
		return nil, "", askerr.Usage("--project: no project above the working folder (give --project-root)")
	}
	c := &plugin.Collection{}
	for _, sc := range scopes {
		found, err := install.Scan(e.ctx, install.Options{Scope: sc, Env: aenv, Agents: adapters})
		if err != nil {
			return nil, "", err
		}
		// The copy Claude Code reads first, then by root.
		slices.SortStableFunc(found, func(a, b install.Installed) int {
			ca, cb := slices.Contains(a.Readers, "claude-code"), slices.Contains(b.Readers, "claude-code")
			if ca != cb {
				if ca {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Root, b.Root)
		})
		for _, in := range found {
			if in.Kind != format.KindSkill {
				continue
			}
			switch {
			case in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken:
				e.Note("left out %s in %s: %s, not installed by agent-skills", ui.Field(in.Name), ui.Field(e.Rel(in.Root)), in.State)
				continue
			case in.Disabled:
				e.Note("left out %s in %s: disabled", ui.Field(in.Name), ui.Field(e.Rel(in.Root)))
				continue
			}
			opts := e.ws.ValidateOptions(false)
			opts.DirName = filepath.Base(in.Dest)
			one, err := plugin.LoadCollection(os.DirFS(in.Dest), opts)
			if err != nil {
				return nil, "", err
			}
			if len(c.Merge(one)) > 0 {
				continue
			}
			if in.State == install.StateModified {
				e.Note("%s in %s was changed since it was installed; the plugin ships it as it is now", ui.Field(in.Name), ui.Field(e.Rel(in.Root)))
			}
		}
	}
	if len(c.Skills) == 0 {
		return nil, "", &askerr.Error{Code: askerr.CodeUsage, Message: "agent-skills installed no skill in the scopes looked at",
			Try: []string{"agent-skills list   shows what is installed", "agent-skills plugin build <collection folder> --out DIR"}}
	}
	dir := root
	if dir == "" || s.Global {
		dir = "installed-skills"
	}
	return c, dir, nil
}

// load reads the skills and fills the options every plugin command shares.
func (p pluginIdentity) load(e *env, src pluginSource) (*plugin.Collection, plugin.Options, error) {
	c, dir, err := src.collection(e)
	if err != nil {
		return nil, plugin.Options{}, err
	}
	name := p.Name
	if name == "" {
		name = filepath.Base(dir)
	}
	return c, plugin.Options{Name: name, Version: p.PluginVersion, Description: p.Description, Author: p.Author, License: p.License}, nil
}

// report describes a written tree.
func (p pluginIdentity) report(e *env, out string, c *plugin.Collection, o plugin.Options, t plugin.Tree) pluginReport {
	r := pluginReport{Out: e.Rel(out), Plugin: o.Name, Files: len(t.Files), Left: c.Left, Stripped: t.Stripped}
	for _, s := range c.Skills {
		r.Skills = append(r.Skills, s.Name)
	}
	if r.Left == nil {
		r.Left = []string{}
	}
	return r
}

type pluginBuildCmd struct {
	pluginSource
	Out       string `required:"" type:"path" help:"The folder to write the marketplace into; it must be new or empty unless --force."`
	Host      string `default:"all" enum:"claude,codex,copilot,all" help:"The hosts to write manifests for: claude, codex, copilot or all."`
	Market    string `name:"marketplace" help:"The marketplace's name (default: the plugin's name)."`
	WithMCP   bool   `name:"with-mcp" help:"Add this CLI's MCP server (agent-skills mcp serve) to the plugin."`
	WithHooks bool   `name:"with-hooks" help:"Add this CLI's session-start hook (agent-skills hook session-index), in each host's own format."`
	pluginIdentity
}

func (c *pluginBuildCmd) Help() string {
	return `Writes a marketplace folder holding one plugin with every skill of the collection,
each skill's files copied byte for byte: .claude-plugin/marketplace.json and
plugins/<name>/.claude-plugin/plugin.json for Claude Code (Copilot CLI installs these
too), .agents/plugins/marketplace.json and .codex-plugin/plugin.json for Codex, and a
root plugin.json for Copilot CLI. --with-mcp and --with-hooks add this CLI's MCP server
and session-start hook; both run "agent-skills", which must be on the user's PATH.
The output is deterministic (sorted, no time stamps) and written atomically. Commands
and workflows are left out: a plugin here carries skills. See docs/plugins.md.

Examples:
  agent-skills plugin build skills/ --out dist/marketplace
  agent-skills plugin build --host claude --with-mcp --with-hooks --out dist/mkt --name team-skills
  claude plugin marketplace add ./dist/mkt && claude plugin install team-skills@team-skills`
}

func (c *pluginBuildCmd) Run(e *env) error {
	hosts, err := plugin.ParseHosts(c.Host)
	if err != nil {
		return err
	}
	col, o, err := c.load(e, c.pluginSource)
	if err != nil {
		return err
	}
	o.Marketplace, o.Hosts, o.MCP, o.Hooks = c.Market, hosts, c.WithMCP, c.WithHooks
	t, err := plugin.Build(col, o)
	if err != nil {
		return err
	}
	if err := plugin.WriteDir(c.Out, t, c.Force, e.Rel); err != nil {
		return err
	}
	mkt := o.Marketplace
	if mkt == "" {
		mkt = o.Name
	}
	r := c.report(e, c.Out, col, o, t)
	r.Marketplace = mkt
	for _, h := range hosts {
		r.Hosts = append(r.Hosts, string(h))
	}
	if c.JSON {
		return e.JSON(r)
	}
	for _, l := range col.Left {
		e.Note("left out %s: a plugin carries skills only", ui.Field(l))
	}
	e.Done("wrote %s: plugin %s with %d %s for %s", r.Out, o.Name, len(r.Skills), ui.Plural(len(r.Skills), "skill", "skills"), strings.Join(r.Hosts, ", "))
	abs, _ := filepath.Abs(c.Out)
	for _, h := range hosts {
		switch h {
		case plugin.Claude:
			e.Info("  claude plugin marketplace add %s && claude plugin install %s@%s", ui.Field(abs), o.Name, mkt)
		case plugin.Codex:
			e.Info("  codex plugin marketplace add %s && codex plugin add %s@%s", ui.Field(abs), o.Name, mkt)
		case plugin.Copilot:
			e.Info("  copilot plugin marketplace add %s && copilot plugin install %s@%s", ui.Field(abs), o.Name, mkt)
		}
	}
	return nil
}

type pluginSubmissionCmd struct {
	pluginSource
	Out string `required:"" type:"path" help:"The plugin folder to write; it must be new or empty unless --force."`
	Zip bool   `help:"Also write <out>.zip, byte for byte the same for the same input."`
	pluginIdentity
}

func (c *pluginSubmissionCmd) Help() string {
	return `Writes the plugin a directory review accepts: .claude-plugin/plugin.json, a generated
512x512 .claude-plugin/icon.png, a README generated from the skills' descriptions and
skills/<name>/ with each skill's files. It is inert: no hooks, no MCP server, and no
scripts — executable files, files under a skill's scripts/ and files starting with
"#!" are left out and named. A skill whose SKILL.md declares hooks is refused
(ASK_PLUGIN_NOT_INERT). --zip writes <out>.zip beside the folder: sorted entries,
fixed times and permissions, so two runs give identical bytes. See docs/plugins.md.

Examples:
  agent-skills plugin submission skills/ --out dist/submission --name team-skills --zip
  claude plugin validate --strict --profile directory dist/submission`
}

func (c *pluginSubmissionCmd) Run(e *env) error {
	col, o, err := c.load(e, c.pluginSource)
	if err != nil {
		return err
	}
	t, err := plugin.Submission(col, o)
	if err != nil {
		return err
	}
	zipName := strings.TrimRight(c.Out, string(filepath.Separator)) + ".zip"
	var zip []byte
	if c.Zip {
		if zip, err = t.Zip(); err != nil {
			return askerr.IO("cannot encode "+e.Rel(zipName), err)
		}
		// Refuse an existing ZIP before the folder is written.
		if _, err := os.Lstat(zipName); err == nil && !c.Force {
			return &askerr.Error{Code: plugin.CodeTargetExists, Message: e.Rel(zipName) + " exists; nothing was written",
				Try: []string{"choose another --out, or add --force to replace it"}}
		}
	}
	if err := plugin.WriteDir(c.Out, t, c.Force, e.Rel); err != nil {
		return err
	}
	r := c.report(e, c.Out, col, o, t)
	if c.Zip {
		if err := plugin.WriteFile(zipName, zip, true, e.Rel); err != nil {
			return err
		}
		r.Zip = e.Rel(zipName)
	}
	if c.JSON {
		return e.JSON(r)
	}
	for _, l := range col.Left {
		e.Note("left out %s: a plugin carries skills only", ui.Field(l))
	}
	for _, s := range t.Stripped {
		e.Warn("left out %s: a submission ships no scripts", ui.Field(s))
	}
	e.Done("wrote %s: plugin %s with %d %s, skills only", r.Out, o.Name, len(r.Skills), ui.Plural(len(r.Skills), "skill", "skills"))
	if r.Zip != "" {
		e.Done("wrote %s", r.Zip)
	}
	return nil
}
