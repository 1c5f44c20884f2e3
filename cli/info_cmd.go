package cli

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

type infoCmd struct {
	Skill    string `arg:"" help:"[registry:]name[@version or range]"`
	Registry string `help:"Look only in this registry."`
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

// infoReport is the --json shape of info.
type infoReport struct {
	Name                 string              `json:"name"`
	Registry             string              `json:"registry"`
	Version              string              `json:"version"`
	Latest               string              `json:"latest"`
	Kind                 string              `json:"kind"`
	Description          string              `json:"description"`
	License              string              `json:"license,omitempty"`
	Keywords             []string            `json:"keywords,omitempty"`
	Authors              []string            `json:"authors,omitempty"`
	Homepage             string              `json:"homepage,omitempty"`
	Repository           string              `json:"repository,omitempty"`
	Integrity            string              `json:"integrity"`
	Dependencies         []format.Dependency `json:"dependencies"`
	OptionalDependencies []format.Dependency `json:"optionalDependencies"`
	Suggests             []string            `json:"suggests"`
	Compatibility        []string            `json:"compatibility"`
	Capabilities         []string            `json:"capabilities"`
	Versions             []infoVersion       `json:"versions"`
	AlsoIn               []string            `json:"alsoIn,omitempty"`
	Owner                string              `json:"owner,omitempty"`
	Installed            []infoInstalled     `json:"installed"`
}

type infoInstalled struct {
	Scope   string   `json:"scope"`
	Version string   `json:"version,omitempty"`
	Agents  []string `json:"agents"`
	State   string   `json:"state"`
	Path    string   `json:"path"`
}

type infoVersion struct {
	Version           string `json:"version"`
	PublishedAt       string `json:"publishedAt,omitempty"`
	Deprecated        bool   `json:"deprecated,omitempty"`
	DeprecationReason string `json:"deprecationReason,omitempty"`
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
	reg, sk, err := set.Lookup(e.ctx, ref.Registry, ref.Name)
	if err != nil {
		return err
	}
	v, err := pickVersion(sk, ref)
	if err != nil {
		return err
	}
	pkg, err := reg.Package(e.ctx, sk.Name, v.Version)
	if err != nil {
		return err
	}
	rep := infoReport{
		Name: sk.Name, Registry: reg.Name(), Version: v.Version, Latest: sk.Latest,
		Kind: string(pkg.Kind), Description: pkg.Description(), Integrity: v.Integrity,
		Dependencies: []format.Dependency{}, OptionalDependencies: []format.Dependency{},
		Suggests: []string{}, Compatibility: []string{}, Capabilities: []string{},
	}
	if m := pkg.Manifest; m != nil {
		rep.License, rep.Keywords, rep.Homepage = m.License, m.Keywords, m.Homepage
		for _, a := range m.Authors {
			rep.Authors = append(rep.Authors, a.String())
		}
		if m.Repository != nil {
			rep.Repository = m.Repository.URL
			if m.Repository.Directory != "" {
				rep.Repository += " (" + m.Repository.Directory + ")"
			}
		}
		rep.Dependencies = append(rep.Dependencies, m.Dependencies...)
		rep.OptionalDependencies = append(rep.OptionalDependencies, m.OptionalDependencies...)
		rep.Suggests = append(rep.Suggests, m.Suggests...)
		for _, a := range m.Compatibility.Agents {
			s := a.ID
			if a.MinVersion != "" {
				s += " " + a.MinVersion
			}
			rep.Compatibility = append(rep.Compatibility, s)
		}
		rep.Capabilities = append(rep.Capabilities, m.Capabilities...)
	}
	for _, pv := range sk.Sorted() {
		rep.Versions = append(rep.Versions, infoVersion{pv.Version, pv.PublishedAt, pv.Deprecated, pv.DeprecationReason})
	}
	for _, r := range set.Registries() {
		if r.Name() == reg.Name() {
			continue
		}
		if idx, err := r.Index(e.ctx); err == nil {
			if _, ok := idx.Skill(sk.Name); ok {
				rep.AlsoIn = append(rep.AlsoIn, r.Name())
			}
		}
	}
	if owner, _, err := set.Owner(e.ctx, sk.Name); err == nil {
		rep.Owner = owner.Name()
	}
	rep.Installed = e.installedState(sk.Name)
	if c.JSON {
		return e.JSON(rep)
	}
	printInfo(e, rep)
	return nil
}

// pickVersion chooses the version info shows: the one named exactly, the
// highest non-deprecated one satisfying a range, or the latest.
func pickVersion(sk *registry.Skill, ref resolve.Reference) (*registry.Version, error) {
	want := ref.Range
	if want == "" || want == "latest" {
		want = sk.Latest
		if want == "" {
			if vs := sk.Sorted(); len(vs) > 0 {
				return vs[0], nil
			}
		}
	}
	if v, ok := sk.Version(want); ok {
		return v, nil
	}
	con, err := semver.NewConstraint(want)
	if err == nil {
		for _, v := range sk.Sorted() {
			if !v.Deprecated && v.Semver() != nil && con.Check(v.Semver()) {
				return v, nil
			}
		}
	}
	var have []string
	for _, v := range sk.Sorted() {
		have = append(have, v.Version)
	}
	return nil, &askerr.Error{Code: "ASK_VERSION_NOT_FOUND",
		Message: fmt.Sprintf("%s has no version matching %s", sk.Name, want),
		Detail:  []string{"published: " + strings.Join(have, ", ")},
		Try:     []string{"agent-skills info " + sk.Name}}
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
