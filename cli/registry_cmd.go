package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/publish"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/cli/internal/signing"
	"github.com/agent-skills/agent-skills/registry"
)

type registryCmd struct {
	List   registryListCmd   `cmd:"" default:"1" help:"List the configured registries in precedence order."`
	Add    registryAddCmd    `cmd:"" help:"Add a registry."`
	Remove registryRemoveCmd `cmd:"" help:"Remove a registry."`
	Export registryExportCmd `cmd:"" help:"Write a static HTTP registry (index.json and archives) from a registry."`
	Init   registryInitCmd   `cmd:"" help:"Create an empty registry in a folder (--git: a git repository with a first commit)."`
	Trust  registryTrustCmd  `cmd:"" help:"Replace or clear the keys a registry's SSH signatures are checked against."`
	Sign   registrySignCmd   `cmd:"" help:"Sign every version of a registry folder, and its index, with one SSH key."`
}

func (c *registryCmd) Help() string {
	return `Registries are asked in order; the first that has any version of a name owns that
name, so a later registry can never inject a higher version of it. Write
registry:name to choose a registry explicitly.

Your registries live in $AGENT_SKILLS_HOME/config.json. A project can share more in
its committed skills-registries.json (registry add --project): they come after
yours, so they own only the names none of your registries has, and one named like
one of yours is yours.

Examples:
  agent-skills registry list
  agent-skills registry add team https://git.example.com/team/skills.git --ref main --first
  agent-skills registry add mirror https://skills.example.com/index.json
  agent-skills registry add local ./my-registry
  agent-skills registry add --project team https://git.example.com/team/skills.git
  agent-skills registry init ./my-registry --git
  agent-skills registry remove team`
}

type registryListCmd struct {
	JSON        bool   `name:"json" help:"Print JSON."`
	ProjectRoot string `type:"path" help:"The project whose skills-registries.json is listed too (default: the nearest project above the working folder)."`
}

func (c *registryListCmd) Run(e *env) error {
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return err
	}
	root, err := e.ws.ProjectRoot(c.ProjectRoot)
	if err != nil {
		return err
	}
	list, err := e.ws.RegistryList(cfg, root)
	if err != nil {
		return err
	}
	for _, s := range list.Shadowed {
		e.Warn("%s", ui.Field(workspace.ShadowNotice(s)))
	}
	// A configuration edited by hand may hold a URL with a password: it
	// is used, but shown masked (user:***@host), in JSON too.
	regs := make([]workspace.ListedRegistry, len(list.Registries))
	for i, r := range list.Registries {
		r.URL = redact.URL(r.URL)
		regs[i] = r
	}
	if c.JSON {
		return e.JSON(regs)
	}
	// FROM appears when the project adds registries: "user" is
	// config.json, "project" the project's skills-registries.json.
	from := list.FromProject()
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	if from {
		fmt.Fprintln(tw, "NAME\tKIND\tURL\tTRUSTED\tFROM")
	} else {
		fmt.Fprintln(tw, "NAME\tKIND\tURL\tTRUSTED")
	}
	for _, r := range regs {
		line := fmt.Sprintf("%s\t%s\t%s\t%s", ui.Field(r.Name), ui.Field(r.Kind), ui.Field(workspace.Location(r.Registry)), yesNo(r.Trusted))
		if from {
			line += "\t" + r.From
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

type registryAddCmd struct {
	Name        string `arg:"" help:"A short name for the registry (used in registry:skill references and the lock file)."`
	URL         string `arg:"" help:"A path, file:// URL, git URL (…/repo.git#ref) or the https URL of an index.json."`
	Kind        string `enum:",local,git,http,oci" default:"" help:"local, git, http or oci; inferred from the URL when omitted (oci:// is oci)."`
	Ref         string `help:"Git branch, tag or commit (git registries)."`
	First       bool   `help:"Put the registry first, so that it owns every name it has (with --project: first of the project's)."`
	Untrusted   bool   `help:"Mark the registry untrusted."`
	TrustKey    string `type:"path" name:"trust-key" placeholder:"FILE" help:"An allowed_signers file: the registry's index and packages must then carry SSH signatures by these keys (its content is copied into your configuration; see registry trust)."`
	Project     bool   `help:"Add it to the project's skills-registries.json, committed with the project, instead of your own configuration."`
	ProjectRoot string `type:"path" help:"With --project: the project (default: the nearest project above the working folder)."`
}

func (c *registryAddCmd) Run(e *env) error {
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return err
	}
	if c.Project {
		return c.addToProject(e, cfg)
	}
	if _, ok := cfg.Registry(c.Name); ok {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("a registry named %q already exists", c.Name),
			Try: []string{"agent-skills registry remove " + c.Name + "   and add it again", "choose another name"}}
	}
	r, err := c.entry(e, cfg)
	if err != nil {
		return err
	}
	if c.First {
		cfg.Registries = append([]config.Registry{r}, cfg.Registries...)
	} else {
		cfg.Registries = append(cfg.Registries, r)
	}
	if err := cfg.Save(e.ws.ConfigPath()); err != nil {
		return saveError(e, err)
	}
	e.Done("added %s registry %s (%s)", r.Kind, c.Name, ui.Field(r.URL))
	if r.TrustedSigners != "" {
		t, _ := registry.ParseTrust(r.TrustedSigners)
		e.Done("registry %s trusts %s", c.Name, ui.Field(signing.Describe(t)))
	}
	return nil
}

// entry checks the registry the command line describes and returns it as
// it would be configured: its kind inferred, a #ref split off, a relative
// path made absolute. It refuses at once, saving nothing, what every later
// command would refuse.
func (c *registryAddCmd) entry(e *env, cfg *config.Config) (config.Registry, error) {
	url, ref := c.URL, c.Ref
	kind := c.Kind
	if kind == "" {
		// The kind is read from the URL as written, #ref included: a
		// file:// URL or a path with a ref is a git repository.
		kind = inferKind(url)
		if ref != "" && kind == config.KindLocal {
			kind = config.KindGit // only git has refs
		}
	}
	if base, frag, ok := strings.Cut(url, "#"); ok && ref == "" {
		url, ref = base, frag
	}
	if why := config.CheckRegistryName(c.Name, kind); why != "" {
		return config.Registry{}, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%q cannot name a registry: %s", c.Name, why),
			Detail: []string{"Nothing was added."}, Try: []string{c.again(suggestName(c.Name, kind), c.URL) + "   (or another name)"}}
	}
	if err := checkScheme(url); err != nil {
		return config.Registry{}, err
	}
	if redact.HasPassword(url) {
		return config.Registry{}, credentialsInURL(c.Name, url, ref, kind, c.Project)
	}
	if kind == config.KindLocal && !strings.HasPrefix(url, "file://") || kind == config.KindGit && config.IsPath(url) {
		// A relative path would be read against the folder of every
		// later command.
		abs, err := filepath.Abs(url)
		if err != nil {
			return config.Registry{}, askerr.Usage("cannot resolve %s", url)
		}
		url = abs
	}
	if ref != "" && kind != config.KindGit {
		return config.Registry{}, askerr.Usage("--ref applies to git registries only; %s is a %s registry", c.URL, kind)
	}
	r := config.Registry{Name: c.Name, URL: url, Kind: kind, Ref: ref, Trusted: !c.Untrusted}
	if c.TrustKey != "" {
		if c.Project {
			return config.Registry{}, &askerr.Error{Code: askerr.CodeUsage, Message: "--trust-key cannot be used with --project: which keys to trust is each user's own setting",
				Detail: []string{"Nothing was added."},
				Try:    []string{"agent-skills registry add --project " + c.Name + " " + c.URL + "   and then, in your own configuration, agent-skills registry add " + c.Name + " " + c.URL + " --trust-key FILE"}}
		}
		if kind == config.KindBundled {
			return config.Registry{}, askerr.Usage("--trust-key does not apply to the bundled registry, which is part of agent-skills itself")
		}
		text, _, err := signing.LoadTrust(c.TrustKey)
		if err != nil {
			return config.Registry{}, err
		}
		r.TrustedSigners = text
	}
	// Refuse now what every later command would refuse — a plain-http
	// index on a remote host, a ref or URL git must not be given
	// (gitrun's rules) — rather than saving an entry that breaks them all.
	if _, err := workspace.OpenRegistry(r, e.ws.RegistryOptions(cfg)); err != nil {
		return config.Registry{}, &askerr.Error{Code: askerr.CodeOf(err), Message: err.Error(), Detail: []string{"Nothing was added."},
			Try: []string{c.again(c.Name, "<a corrected URL>") + "   (an https:// index, or a git URL)"}}
	}
	return r, nil
}

// again is the command that adds name at url the way this one was asked
// (with --project when it was).
func (c *registryAddCmd) again(name, url string) string {
	if c.Project {
		return "agent-skills registry add --project " + name + " " + url
	}
	return "agent-skills registry add " + name + " " + url
}

// addToProject adds the registry to the project's skills-registries.json.
// The entry passes the checks every project file is read with
// (config.CheckProject, and opening it from the file); a path inside the
// project is written relative to its root, so the file works in every
// clone.
func (c *registryAddCmd) addToProject(e *env, cfg *config.Config) error {
	if c.Untrusted {
		return &askerr.Error{Code: askerr.CodeUsage, Message: "--untrusted cannot be used with --project: trust is each user's own setting",
			Detail: []string{"Nothing was added. A project's registries come after each user's own, so they own only the names none of the user's registries has."},
			Try:    []string{"agent-skills registry add --project " + c.Name + " " + c.URL}}
	}
	root, err := projectRootFor(e, c.ProjectRoot)
	if err != nil {
		return err
	}
	p, err := config.LoadProject(root)
	if err != nil {
		return err
	}
	if p == nil {
		p = &config.Project{}
	}
	file := config.ProjectPath(root)
	if _, ok := p.Registry(c.Name); ok {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s already has a registry named %q", e.Rel(file), c.Name),
			Try: []string{"agent-skills registry remove --project " + c.Name + "   and add it again", "choose another name"}}
	}
	r, err := c.entry(e, cfg)
	if err != nil {
		return err
	}
	pr := config.ProjectRegistry{Name: r.Name, URL: r.URL, Kind: r.Kind, Ref: r.Ref}
	if config.IsPath(r.URL) {
		if rel, err := filepath.Rel(root, r.URL); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			pr.URL = filepath.ToSlash(rel)
		} else {
			e.Warn("%s is outside the project: the project file records it as an absolute path, which only machines that have it can use", ui.Field(r.URL))
		}
	}
	if whys := config.CheckProject(pr); len(whys) > 0 {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%q cannot be a project registry: %s", c.Name, strings.Join(whys, "; ")),
			Detail: []string{"Nothing was added."}, Try: []string{c.again("<another name>", c.URL)}}
	}
	if mine, ok := cfg.Registry(c.Name); ok {
		if got := pr.Resolve(root); mine.Kind != got.Kind || mine.URL != got.URL || mine.Ref != got.Ref {
			e.Warn("your own registry %s (%s) has this name: on this machine it is used instead of the project's", c.Name, ui.Field(redact.URL(workspace.Location(mine))))
		}
	}
	if c.First {
		p.Registries = append([]config.ProjectRegistry{pr}, p.Registries...)
	} else {
		p.Registries = append(p.Registries, pr)
	}
	if err := config.SaveProject(root, p); err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + file, Err: err}
	}
	e.Done("added %s registry %s to %s (%s); commit it with the project", r.Kind, c.Name, e.Rel(file), ui.Field(pr.URL))
	return nil
}

// projectRootFor returns the project a --project registry command edits:
// --project-root, else the nearest project above the working folder.
func projectRootFor(e *env, explicit string) (string, error) {
	root, err := e.ws.ProjectRoot(explicit)
	if err != nil {
		return "", err
	}
	if root == "" {
		return "", &askerr.Error{Code: askerr.CodeUsage,
			Message: "no project found above " + e.ws.Cwd,
			Detail:  []string{"A project is a folder with .git, skills.lock, skills-registries.json or an agent folder such as .claude or .agents; your home folder is never one."},
			Try:     []string{"--project-root <folder>", "git init   (to make this folder a project)"}}
	}
	return root, nil
}

// suggestName offers a name for a registry when the one asked for is
// reserved or malformed: the name lowercased and cleaned when that is
// allowed, else the same with a "my-" prefix.
func suggestName(name, kind string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		}
	}
	s := strings.Trim(b.String(), "-")
	for _, cand := range []string{s, "my-" + s} {
		if s != "" && config.CheckRegistryName(cand, kind) == "" {
			return cand
		}
	}
	return "my-registry"
}

// urlSchemes are the URL schemes a registry may have: anything else
// written scheme://… is refused, never taken for a relative folder.
var urlSchemes = []string{"file", "http", "https", "ssh", "git", "git+ssh", "ssh+git", "oci"}

// checkScheme refuses a URL whose scheme agent-skills cannot read, such
// as s3://host/x, which would otherwise be saved as the folder
// ./s3:/host/x.
func checkScheme(url string) error {
	scheme, _, ok := strings.Cut(url, "://")
	if !ok || slices.Contains(urlSchemes, strings.ToLower(scheme)) {
		return nil
	}
	return &askerr.Error{Code: askerr.CodeUsage,
		Message: fmt.Sprintf("%s: agent-skills cannot read %s:// registries", ui.Field(url), ui.Field(scheme)),
		Detail:  []string{"Nothing was added. A registry is a folder, a git repository (https, ssh, git or file URL), an https index.json or an oci:// registry."},
		Try:     []string{"agent-skills registry add <name> https://host/org/skills.git", "agent-skills registry add <name> ./folder   (for a folder whose name has \"://\" in it)"}}
}

type registryRemoveCmd struct {
	Name        string `arg:"" predictor:"registry" help:"The registry to remove."`
	Project     bool   `help:"Remove it from the project's skills-registries.json instead of your own configuration."`
	ProjectRoot string `type:"path" help:"With --project: the project (default: the nearest project above the working folder)."`
}

func (c *registryRemoveCmd) Run(e *env) error {
	if c.Project {
		return c.removeFromProject(e)
	}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return err
	}
	kept := cfg.Registries[:0]
	found := false
	for _, r := range cfg.Registries {
		if r.Name == c.Name {
			found = true
			continue
		}
		kept = append(kept, r)
	}
	if !found {
		names := make([]string, len(cfg.Registries))
		for i, r := range cfg.Registries {
			names[i] = r.Name
		}
		err := &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("no registry named %q", c.Name),
			Detail: []string{"configured: " + strings.Join(names, ", ")},
			Try:    []string{"agent-skills registry list"}}
		if root, _ := e.ws.ProjectRoot(c.ProjectRoot); root != "" {
			if p, _ := config.LoadProject(root); p != nil {
				if _, ok := p.Registry(c.Name); ok {
					err.Message = fmt.Sprintf("no registry named %q in your configuration; the project's %s has one", c.Name, config.ProjectFileName)
					err.Try = []string{"agent-skills registry remove --project " + c.Name}
				}
			}
		}
		return err
	}
	cfg.Registries = kept
	if err := cfg.Save(e.ws.ConfigPath()); err != nil {
		return saveError(e, err)
	}
	e.Done("removed registry %s", c.Name)
	return nil
}

// removeFromProject removes the registry from the project file, which it
// reads without checking its entries, so that removing the entry a
// problem is in repairs the file; the file goes when no registry is left.
func (c *registryRemoveCmd) removeFromProject(e *env) error {
	root, err := projectRootFor(e, c.ProjectRoot)
	if err != nil {
		return err
	}
	file := config.ProjectPath(root)
	data, err := config.ReadProject(root)
	if err != nil {
		return err
	}
	if data == nil {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("the project %s has no %s", root, config.ProjectFileName),
			Try: []string{"agent-skills registry list"}}
	}
	p, err := config.DecodeProject(data, file)
	if err != nil {
		return err
	}
	kept := p.Registries[:0]
	var names []string
	for _, r := range p.Registries {
		names = append(names, r.Name)
		if r.Name != c.Name {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(names) {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s has no registry named %q", e.Rel(file), c.Name),
			Detail: []string{"listed there: " + strings.Join(names, ", ")},
			Try:    []string{"agent-skills registry list"}}
	}
	p.Registries = kept
	if err := config.SaveProject(root, p); err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + file, Err: err}
	}
	if len(kept) == 0 {
		e.Done("removed registry %s; %s listed no other, so it was removed too", c.Name, e.Rel(file))
	} else {
		e.Done("removed registry %s from %s", c.Name, e.Rel(file))
	}
	return nil
}

type registryInitCmd struct {
	Dir  string `arg:"" type:"path" help:"The folder to make a registry: a new one, or one without registry/skills.yaml (--git: a new or empty one)."`
	Name string `help:"The registry's name, written into its index (default: the folder's name)."`
	Git  bool   `help:"Make it a git repository with a first commit (branch main), ready to push."`
	JSON bool   `name:"json" help:"Print what was created as JSON."`
}

func (c *registryInitCmd) Help() string {
	return `Creates registry/skills.yaml (schemaVersion 1, the registry's name, no skills) in the
folder. Publish into it with publish --write; share it by pushing it (--git) or
serving it with registry export.

Examples:
  agent-skills registry init ./team-registry
  agent-skills registry init ./team-registry --git --name team`
}

func (c *registryInitCmd) Run(e *env) error {
	name := c.Name
	if name == "" {
		name = suggestName(filepath.Base(c.Dir), config.KindLocal)
	}
	res, err := publish.Init(e.ctx, publish.InitOptions{Dir: c.Dir, Name: name, Git: c.Git})
	if err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(res)
	}
	rel := e.Rel(res.Path)
	e.Done("created registry %s in %s (%s)", name, rel, res.Index)
	if res.Commit != "" {
		e.Done("  a git repository on branch %s, first commit %s", res.Branch, res.Commit[:min(12, len(res.Commit))])
		e.Done("next: git -C %s remote add origin <url>, then git -C %s push -u origin %s", rel, rel, res.Branch)
		e.Done("next: agent-skills registry add %s <url>   (or registry add --project %s <url>, to share it in a project)", name, name)
		return nil
	}
	e.Done("next: agent-skills publish <skill folder> --registry %s --write", rel)
	e.Done("next: agent-skills registry add %s %s   (or registry add --project %s %s, to share it in a project)", name, rel, name, rel)
	return nil
}

// saveError reports a configuration that could not be written: an
// invalid one as it is, a failed write (a full disk, a read-only or
// missing folder) as ASK_IO.
func saveError(e *env, err error) error {
	var c askerr.Coded
	if errors.As(err, &c) {
		return err
	}
	return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + e.ws.ConfigPath(), Err: err,
		Try: []string{"free some disk space or fix the folder's permissions, then run the command again",
			"or point AGENT_SKILLS_HOME at a writable folder"}}
}

// credentialsInURL refuses to store a registry URL that carries a
// password: config.json is a plain file, readable by whatever runs as the
// user and often copied or committed, and cargo and Go's module loader
// refuse such URLs too. The password belongs in the git credential
// helper, which git consults for every fetch of a git registry; the
// error gives the exact commands, with the URL to add instead.
func credentialsInURL(name, url, ref, kind string, project bool) error {
	clean := redact.WithoutPassword(url)
	add := "agent-skills registry add " + name + " " + clean
	file := "config.json"
	if project {
		add = "agent-skills registry add --project " + name + " " + clean
		file = config.ProjectFileName + ", which is committed with the project"
	}
	if ref != "" {
		add += " --ref " + ref
	}
	e := &askerr.Error{Code: CodeRegistryCredentials,
		Message: "the registry URL " + redact.URL(url) + " carries a password; agent-skills does not store credentials in " + file,
		Detail:  []string{"Nothing was added. The password was not written anywhere."},
	}
	if kind != config.KindGit {
		e.Detail = append(e.Detail, "An HTTP registry's index is read without credentials; a private registry is best served as a git repository, whose credentials come from git.")
		e.Try = []string{add + "   (if the index needs no password)"}
		return e
	}
	e.Detail = append(e.Detail, "Store the password in your git credential helper instead; git asks it on every fetch (one must be configured: git config --global credential.helper).")
	e.Try = []string{
		"git credential approve   (then type the next two lines and an empty line; the password stays out of your shell history)",
		"url=" + clean,
		"password=<the password>",
		add,
	}
	return e
}

// inferKind guesses a registry's kind from its URL as written, #ref
// included: the bundled collection, else registry.InferKind (an index
// document over HTTP is http, anything git can clone or a file:// URL or
// path with a #ref is git, everything else is a folder).
func inferKind(url string) string {
	if url == config.BundledURL {
		return config.KindBundled
	}
	return registry.InferKind(url)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
