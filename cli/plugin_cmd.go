package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/plugin"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
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

// load reads the collection at source and fills the options every plugin
// command shares.
func (p pluginIdentity) load(e *env, source string) (*plugin.Collection, plugin.Options, error) {
	root, err := filepath.Abs(source)
	if err != nil {
		return nil, plugin.Options{}, askerr.Usage("cannot resolve %s", source)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, plugin.Options{}, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills plugin build <collection folder> --out DIR"}}
	}
	opts := e.ws.ValidateOptions(false)
	opts.DirName = filepath.Base(root)
	c, err := plugin.LoadCollection(os.DirFS(root), opts)
	if err != nil {
		return nil, plugin.Options{}, err
	}
	name := p.Name
	if name == "" {
		name = filepath.Base(root)
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
	Source    string `arg:"" optional:"" default:"." type:"path" help:"The collection folder: any folder of skill packages, such as skills/ (default: the current folder)."`
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
	col, o, err := c.load(e, c.Source)
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
	Source string `arg:"" optional:"" default:"." type:"path" help:"The collection folder (default: the current folder)."`
	Out    string `required:"" type:"path" help:"The plugin folder to write; it must be new or empty unless --force."`
	Zip    bool   `help:"Also write <out>.zip, byte for byte the same for the same input."`
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
	col, o, err := c.load(e, c.Source)
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
