package cli

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/skillinfo"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

type infoCmd struct {
	Skill    string `arg:"" help:"[registry:]name[@version or range]"`
	Registry string `predictor:"registry" help:"Look only in this registry."`
	JSON     bool   `name:"json" help:"Print JSON."`
}

func (c *infoCmd) Help() string {
	return `Shows the manifest of one version (the latest unless you name one), every published
version newest first with deprecations, dependencies, optional dependencies,
suggestions, compatibility, capabilities, integrity, and which registry owns the name.

Examples:
  agent-skills info java-performance
  agent-skills info java-basics@1.2.0 --json
  agent-skills info official:jvm-gc-tuning`
}

// infoReport is the --json shape of info: the published skill and where
// it is installed.
type infoReport struct {
	*skillinfo.Info
	Installed []infoInstalled `json:"installed"`
}

type infoInstalled struct {
	Scope   string   `json:"scope"`
	Version string   `json:"version,omitempty"`
	Agents  []string `json:"agents"`
	State   string   `json:"state"`
	Path    string   `json:"path"`
}

func (c *infoCmd) Run(e *env) error {
	ref, err := resolve.ParseReference(c.Skill)
	if err != nil {
		return err
	}
	if c.Registry != "" {
		if ref.Registry != "" && ref.Registry != c.Registry {
			return askerr.Usage("%s names registry %q but --registry says %q", c.Skill, ref.Registry, c.Registry)
		}
		ref.Registry = c.Registry
	}
	set, _, err := e.ws.Configured()
	if err != nil {
		return err
	}
	info, err := skillinfo.Lookup(e.ctx, set, ref)
	if err != nil {
		return err
	}
	rep := infoReport{Info: info, Installed: e.installedState(info.Name)}
	if c.JSON {
		return e.JSON(rep)
	}
	printInfo(e, rep)
	return nil
}

// printInfo renders the report; every value comes from an index or a
// package manifest, so each is escaped to one line (field).
func printInfo(e *env, r infoReport) {
	w := e.Out
	fmt.Fprintf(w, "%s %s (%s)  from %s\n", e.Style.Bold(ui.Field(r.Name)), ui.Field(r.Version), ui.Field(r.Kind), ui.Field(r.Registry))
	fmt.Fprintf(w, "%s\n\n", ui.OneLine(r.Description))
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-22s %s\n", k+":", v)
		}
	}
	row("latest", ui.Field(r.Latest))
	row("license", ui.Field(r.License))
	row("keywords", ui.Fields(r.Keywords, ", "))
	row("authors", ui.Fields(r.Authors, "; "))
	row("homepage", ui.Field(r.Homepage))
	row("repository", ui.Field(r.Repository))
	row("integrity", ui.Field(r.Integrity))
	deps := func(ds []format.Dependency) string {
		s := make([]string, len(ds))
		for i, d := range ds {
			s[i] = d.Name + " " + d.Version
		}
		return ui.Fields(s, ", ")
	}
	row("dependencies", deps(r.Dependencies))
	row("optional dependencies", deps(r.OptionalDependencies))
	row("suggests", ui.Fields(r.Suggests, ", "))
	compat := ui.Fields(r.Compatibility, ", ")
	if compat == "" {
		compat = "every agent"
	}
	row("compatibility", compat)
	row("capabilities", ui.Fields(r.Capabilities, ", "))
	row("also in", ui.Fields(r.AlsoIn, ", "))
	if r.Owner != "" && r.Owner != r.Registry {
		row("owner", ui.Field(r.Owner+" (a bare \""+r.Name+"\" resolves there; this is "+r.Registry+":"+r.Name+")"))
	}
	if len(r.Installed) > 0 {
		fmt.Fprintln(w, "\ninstalled:")
		for _, in := range r.Installed {
			fmt.Fprintf(w, "  %-7s %-8s %s  %s (%s)\n", in.Scope, ui.Field(ui.Dash(in.Version)), ui.Field(in.State), ui.Field(e.Rel(in.Path)), ui.Fields(in.Agents, ", "))
		}
	}
	fmt.Fprintln(w, "\nversions:")
	for _, v := range r.Versions {
		line := "  " + ui.Field(v.Version)
		if v.PublishedAt != "" {
			line += "  " + ui.Field(v.PublishedAt)
		}
		if v.Deprecated {
			line += "  " + e.Style.Yellow("deprecated")
			if v.DeprecationReason != "" {
				line += ": " + ui.OneLine(v.DeprecationReason)
			}
		}
		fmt.Fprintln(w, line)
	}
}

// installedState finds name in every root of both scopes.
func (e *env) installedState(name string) []infoInstalled {
	out := []infoInstalled{}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return out
	}
	root, _ := e.ws.ProjectRoot("")
	aenv := e.ws.AgentEnv(cfg, root)
	adapters, err := e.ws.SeenAgents(e.ctx, cfg, nil, aenv)
	if err != nil {
		return out
	}
	scopes := []agents.Scope{agents.ScopeGlobal}
	if root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	for _, sc := range scopes {
		found, err := install.Scan(e.ctx, install.Options{Scope: sc, Env: aenv, Agents: adapters})
		if err != nil {
			continue
		}
		for _, in := range found {
			if in.Name == name {
				out = append(out, infoInstalled{Scope: string(sc), Version: in.Version, Agents: in.Readers, State: string(in.State), Path: in.Dest})
			}
		}
	}
	return out
}
