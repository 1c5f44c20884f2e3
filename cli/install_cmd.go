package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

type installCmd struct {
	Skills         []string   `arg:"" optional:"" help:"[registry:]name[@version or range], or a source: owner/repo[/path][@skill][#ref], a git URL, a folder, an archive. With none, in a project, install exactly what skills.lock records."`
	Agent          []string   `short:"a" predictor:"agent" help:"Agent to install for (claude, codex, copilot, gemini, cursor, …, or all); repeatable. Default: every detected agent."`
	Scope          scopeFlags `embed:""`
	Dir            string     `type:"path" help:"Install into this folder instead of the agents' folders (receipted; not in skills.lock; not with --agent or --project). See docs/cli.md."`
	Registry       string     `predictor:"registry" help:"Resolve unqualified names in this registry only."`
	DryRun         bool       `help:"Print the full plan; write nothing."`
	Force          bool       `help:"Overwrite an install that was modified or not made by agent-skills, or take a skill from another registry or source than the one it is installed from."`
	NoDeps         bool       `help:"Install only the named skills, not their dependencies."`
	WithSuggests   bool       `help:"Also install the direct suggestions of the named skills (see docs/install-suggests-option.md)."`
	FrozenLockfile bool       `help:"Fail instead of changing skills.lock."`
	Strict         bool       `help:"Validate as agent-skills validate does and install all or nothing: a skill --skill '*' chose that fails refuses the run instead of being skipped."`
	Skill          []string   `help:"From a source offering several skills: install this one (repeatable; * for all)."`
	List           bool       `help:"List the skills a source offers; install nothing."`
	MaxSkills      int        `default:"1000" help:"Read at most this many skills from one source; a source offering more is refused, never cut short."`
	JSON           bool       `name:"json" help:"Print the plan and outcomes as JSON."`
	AllowRisk      []string   `name:"allow-risk" placeholder:"RULE" help:"Install despite content-scan findings of these rules (ids, or globs such as hidden-*; comma-separated or repeated); the receipts record the acceptance. See docs/security.md."`
}

func (c *installCmd) Help() string {
	return `Resolves the skills and their dependencies, fetches and verifies every package, and
puts each where the selected agents read it — once per folder, so that no agent sees a
skill twice — atomically, with a receipt of every file written. In a project the result
is pinned in skills.lock, and "agent-skills install" with no names restores exactly
what the lock records. Files you added inside an installed skill survive upgrades.

Examples:
  agent-skills install java-performance
  agent-skills install java-basics@^1.2 --agent claude --agent codex --project
  agent-skills install team:review-diff --global
  agent-skills install                          # restore from skills.lock
  agent-skills install java-performance --with-suggests --dry-run
  agent-skills install owner/repo --skill pdf-tools      # straight from a git repository
  agent-skills install https://github.com/o/r/tree/v1.2.0/skills/x
  agent-skills install ./my-skill                        # a local folder (or .zip/.tar.gz)
  agent-skills install owner/repo --list                 # what a source offers
  agent-skills install mcp:'python3 srv.py' --list       # skills an MCP server serves
  agent-skills install java-basics --dir ~/shared-skills # one folder of your own

Sources are pinned in skills.lock by commit and verified by digest; see docs/sources.md.`
}

func (c *installCmd) Run(e *env) error {
	if c.List {
		return c.list(e)
	}
	if c.Dir != "" && len(c.Skills) == 0 {
		return askerr.Usage("--dir needs skill names: a --dir install is not recorded in skills.lock, so there is nothing to restore")
	}
	s, err := skillset.Open(e.ctx, e.ws, skillset.Options{Scope: c.Scope.request(), Agents: c.Agent,
		Generator: generator(), Fault: e.faultHook(), LockedAgents: len(c.Skills) == 0, Dir: c.Dir, AllowRisk: c.AllowRisk})
	if err != nil {
		return err
	}
	var out *skillset.Outcome
	if len(c.Skills) == 0 {
		if c.WithSuggests {
			return askerr.Usage("--with-suggests needs skill names")
		}
		out, err = s.Restore(e.ctx, skillset.RestoreRequest{Force: c.Force, DryRun: c.DryRun, Strict: c.Strict,
			FrozenLockfile: c.FrozenLockfile, Progress: e.Progress(c.JSON)})
	} else {
		c.explainGlobal(e, s)
		var pick func([]source.Found) ([]source.Found, error)
		if e.OutIsTerminal() && e.stdinIsTerminal() {
			pick = e.pickSkills
		}
		out, err = s.Install(e.ctx, skillset.InstallRequest{Args: c.Skills, Skills: c.Skill, MaxSkills: c.MaxSkills,
			Registry: c.Registry, NoDeps: c.NoDeps, WithSuggests: c.WithSuggests, Force: c.Force, DryRun: c.DryRun, Strict: c.Strict,
			FrozenLockfile: c.FrozenLockfile, Pick: pick, Progress: e.Progress(c.JSON)})
	}
	e.Report(out, c.JSON)
	return err
}

// explainGlobal says, once, at the point of surprise, why an install in
// a git repository goes to the user's global folders: neither --global
// nor --project was given, and the repository has no skills.lock and no
// agent folder yet, so it is not taken for a project (docs/cli.md).
func (c *installCmd) explainGlobal(e *env, s *skillset.Session) {
	if c.Scope.Global || c.Scope.Project || c.Dir != "" || s.Scope.Project() {
		return
	}
	root, err := e.ws.ProjectRoot(c.Scope.ProjectRoot)
	if err != nil || root == "" {
		return
	}
	e.Info("installing globally, for every project of yours: %s has no skills.lock and no agent folder yet; "+
		"to install into this project only (creating its agent folders and skills.lock), add --project", ui.Field(root))
}

// list prints what one source offers (--list).
func (c *installCmd) list(e *env) error {
	if c.MaxSkills < 0 {
		return askerr.Usage("--max-skills must not be negative")
	}
	srcRefs, regArgs, err := e.ws.SplitSources(c.Skills)
	if err != nil {
		return err
	}
	if len(srcRefs) != 1 || len(regArgs) != 0 {
		return askerr.Usage("--list takes exactly one source (owner/repo, a git URL, a folder, an archive or an MCP server)")
	}
	sc, err := e.ws.DecideScope(c.Scope.request())
	if err != nil {
		return err
	}
	if err := skillset.CheckListedSource(e.ws, sc, srcRefs[0]); err != nil {
		return err
	}
	return e.listSource(srcRefs[0], c.MaxSkills, c.JSON)
}

// stdinIsTerminal reports whether standard input is a terminal.
func (e *env) stdinIsTerminal() bool {
	f, ok := e.stdin.(*os.File)
	return ok && ui.IsTerminalFile(f)
}

// pickSkills asks on the terminal which of several skills to install.
func (e *env) pickSkills(found []source.Found) ([]source.Found, error) {
	fmt.Fprintln(e.Err, "This source offers several skills:")
	for i, f := range found {
		where := ""
		if len(f.Conflicts) > 0 { // two folders offer this name: say which is which
			where = "  (" + ui.Field(dotPath(f.Path)) + ")"
		}
		fmt.Fprintf(e.Err, "  %d) %s%s  %s\n", i+1, ui.Field(f.Name), where, ui.Truncate(ui.OneLine(f.Description), 60))
	}
	fmt.Fprint(e.Err, "Install which? (numbers separated by spaces, or * for all): ")
	e.Flush() // the prompt has no new line; show it before waiting
	var line string
	buf := make([]byte, 1)
	for {
		n, err := e.stdin.Read(buf)
		if n == 0 || err != nil || buf[0] == '\n' {
			break
		}
		line += string(buf[:n])
	}
	line = strings.TrimSpace(line)
	if line == "*" {
		return found, nil
	}
	var out []source.Found
	for _, f := range strings.Fields(line) {
		var i int
		if _, err := fmt.Sscanf(f, "%d", &i); err != nil || i < 1 || i > len(found) {
			return nil, askerr.Usage("%q is not one of the numbers shown", f)
		}
		out = append(out, found[i-1])
	}
	if len(out) == 0 {
		return nil, askerr.Usage("no skill chosen")
	}
	return out, nil
}

// sourceListing is install --list --json: what one source offers.
type sourceListing struct {
	// Source is the canonical source id skills.lock would record.
	Source string `json:"source"`
	// URL is where the source was read, without credentials.
	URL string `json:"url"`
	// Commit is the commit read, for a git source.
	Commit string `json:"commit,omitempty"`
	// Registry reports a source that is a registry: it offers no skill
	// to install directly; RegistryURL is what registry add takes.
	Registry    bool   `json:"registry"`
	RegistryURL string `json:"registryURL,omitempty"`
	// Skills are the skills it offers, sorted by name.
	Skills []listedSkill `json:"skills"`
}

// listedSkill is one skill of a sourceListing.
type listedSkill struct {
	// Name is what --skill takes.
	Name string `json:"name"`
	// Path is the skill's folder inside the source, slash-separated;
	// "." is the source's root.
	Path string `json:"path"`
	// Description is the description, as written.
	Description string `json:"description"`
	// Bare reports a skill without skill.yaml.
	Bare bool `json:"bare"`
	// Plugin names the Claude plugin that lists it, if any.
	Plugin string `json:"plugin,omitempty"`
	// Nested are the folders of SKILL.md files inside this skill's folder:
	// part of its package, not skills of their own.
	Nested []string `json:"nested,omitempty"`
	// Copies are the other folders that offer the same skill, byte for
	// byte; Conflicts those that offer another package under its name.
	Copies    []string `json:"copies,omitempty"`
	Conflicts []string `json:"conflicts,omitempty"`
}

// listSource prints what a source offers (install --list), reading at
// most maxSkills skills (0: the default cap), as a table or JSON.
func (e *env) listSource(r source.Ref, maxSkills int, asJSON bool) error {
	opts := e.ws.SourceOptions("", nil)
	opts.List, opts.MaxSkills = true, maxSkills
	res, err := source.Fetch(e.ctx, r, opts)
	if err != nil {
		return err
	}
	if asJSON {
		out := sourceListing{Source: res.Source, URL: res.URL, Commit: res.Commit, Registry: res.Registry,
			RegistryURL: res.RegistryURL, Skills: []listedSkill{}}
		for _, f := range res.Found {
			out.Skills = append(out.Skills, listedSkill{Name: f.Name, Path: dotPath(f.Path), Description: f.Description,
				Bare: f.Bare, Plugin: f.Plugin, Nested: f.Nested, Copies: f.Copies, Conflicts: f.Conflicts})
		}
		return e.JSON(out)
	}
	if res.Registry {
		fmt.Fprintf(e.Out, "%s is a registry; add it with: agent-skills registry add <name> %s\n", ui.Field(r.Input), ui.Field(res.RegistryURL))
		return nil
	}
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPATH\tDESCRIPTION")
	for _, f := range res.Found {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", ui.Field(f.Name), ui.Field(dotPath(f.Path)), ui.Truncate(ui.OneLine(f.Description), 70))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	e.discoveryNotes(res.Found)
	return nil
}

// discoveryNotes says, once each, what discovery did not offer as a skill
// of its own: a SKILL.md inside a skill's folder (part of that package),
// and a name several folders offer with different contents (which --skill
// '*' skips).
func (e *env) discoveryNotes(found []source.Found) {
	conflicts := map[string]bool{}
	for _, f := range found {
		if len(f.Nested) > 0 {
			files := make([]string, len(f.Nested))
			for i, n := range f.Nested {
				files[i] = ui.Field(n + "/SKILL.md")
			}
			it, part := "it is", "a skill of its own"
			if len(files) > 1 {
				it, part = "they are", "skills of their own"
			}
			e.Note("%s (%s) contains %s; %s part of %s's package, not %s",
				ui.Field(f.Name), ui.Field(dotPath(f.Path)), joinAnd(files), it, ui.Field(f.Name), part)
		}
		if len(f.Conflicts) > 0 && !conflicts[f.Name] {
			conflicts[f.Name] = true
			paths := []string{ui.Field(dotPath(f.Path))}
			for _, c := range f.Conflicts {
				paths = append(paths, ui.Field(dotPath(c)))
			}
			slices.Sort(paths)
			e.Note("%d folders offer a skill named %s with different contents (%s); install one with --skill <folder>; --skill '*' skips them",
				len(paths), ui.Field(f.Name), strings.Join(paths, ", "))
		}
	}
}

// dotPath shows a source path, "." for the root.
func dotPath(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// joinAnd joins items as "a", "a and b" or "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
