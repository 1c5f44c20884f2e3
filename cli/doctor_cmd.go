package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/policy"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/cli/internal/signing"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

type doctorCmd struct {
	ProjectRoot string `type:"path" help:"The project to check (default: the nearest project above the working folder)."`
	JSON        bool   `name:"json" help:"Print the findings as JSON."`
}

func (c *doctorCmd) Help() string {
	return `Checks the environment, each registry (reachable, trusted), each agent (evidence,
enabled, every folder it reads: missing, not a folder, not writable, a symbolic link,
a broken link) and every installed skill (modified, unmanaged, broken receipt, drift
from skills.lock, the same skill visible twice to one agent, skills in deprecated
folders), and shows the effective policy with the file and line of each entry. Every finding says how to fix it. Exit 1 when any check fails; with
--quiet only the warnings and failures are printed.
With --offline, registries are checked from their caches only.

Examples:
  agent-skills doctor
  agent-skills doctor --offline --json`
}

// finding is one doctor result.
type finding struct {
	Area    string `json:"area"`
	Subject string `json:"subject"`
	Status  string `json:"status"` // ok, warn, fail
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

type doctor struct {
	e        *env
	findings []finding
}

func (d *doctor) add(area, subject, status, msg, fix string) {
	d.findings = append(d.findings, finding{area, subject, status, msg, fix})
}

func (c *doctorCmd) Run(e *env) error {
	d := &doctor{e: e}
	cfg := d.environment()
	root, err := e.ws.ProjectRoot(c.ProjectRoot)
	if err != nil {
		return err
	}
	pol := d.policy(root)
	if cfg != nil {
		d.registries(cfg, root)
		aenv := e.ws.AgentEnv(cfg, root)
		d.agents(cfg, aenv)
		seen, _ := e.ws.SeenAgents(e.ctx, cfg, nil, aenv)
		d.installed(aenv, root, seen)
	}
	failed := 0
	for _, f := range d.findings {
		if f.Status == "fail" {
			failed++
		}
	}
	if c.JSON {
		out := struct {
			Findings []finding `json:"findings"`
			Failed   int       `json:"failed"`
			// Policy is the effective policy's lines with their origins.
			Policy []policy.Line `json:"policy"`
		}{d.findings, failed, pol}
		if err := e.JSON(out); err != nil {
			return err
		}
	} else {
		area := ""
		for _, f := range d.findings {
			if e.Quiet() && f.Status == "ok" {
				continue // quiet prints the problems only
			}
			if f.Area != area {
				area = f.Area
				fmt.Fprintf(e.Out, "%s\n", e.Style.Bold(area))
			}
			mark := map[string]string{"ok": e.Style.Green("ok  "), "warn": e.Style.Yellow("warn"), "fail": e.Style.Red("FAIL")}[f.Status]
			// Findings quote registry errors, URLs, skill names and paths.
			fmt.Fprintf(e.Out, "  %s %s: %s\n", mark, ui.Field(f.Subject), ui.Field(f.Message))
			if f.Fix != "" && f.Status != "ok" {
				fmt.Fprintf(e.Out, "       fix: %s\n", ui.Field(f.Fix))
			}
		}
	}
	if failed > 0 {
		return &askerr.Error{Code: CodeDoctorFailed, Message: fmt.Sprintf("%d %s failed", failed, ui.Plural(failed, "check", "checks")),
			Try: []string{"apply the fixes listed above, then run agent-skills doctor again"}}
	}
	return nil
}

// environment checks the binary, the home folder, the configuration and git.
func (d *doctor) environment() *config.Config {
	e := d.e
	d.add("environment", "agent-skills", "ok", versionString(), "")
	d.installMethod()
	home := e.ws.Home()
	if fi, err := os.Stat(home); err == nil && !fi.IsDir() {
		d.add("environment", "home", "fail", home+" is not a folder", "move it aside; agent-skills keeps its configuration and caches there")
	} else if err == nil && !writable(home) {
		d.add("environment", "home", "fail", home+" is not writable", "fix its permissions, or set AGENT_SKILLS_HOME")
	} else {
		d.add("environment", "home", "ok", home, "")
	}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		d.add("environment", "config", "fail", err.Error(), "fix the file at the named line, or move it aside for the defaults")
		return nil
	}
	d.add("environment", "config", "ok", fmt.Sprintf("%s (%d registries)", e.ws.ConfigPath(), len(cfg.Registries)), "")
	if p, err := e.ws.LookPath("git"); err == nil {
		d.add("environment", "git", "ok", p, "")
	} else {
		status := "warn"
		for _, r := range cfg.Registries {
			if r.Kind == config.KindGit {
				status = "fail"
			}
		}
		d.add("environment", "git", status, "git is not on PATH; git registries and sources cannot be read", "install git")
	}
	return cfg
}

// registries loads each registry's index (from cache only with
// --offline), the user's and then the project's, and says where each
// comes from.
func (d *doctor) registries(cfg *config.Config, root string) {
	e := d.e
	list, err := e.ws.RegistryList(cfg, root)
	if err != nil {
		// The project's file is refused whole; the user's registries
		// still work and are checked.
		msg := redact.Text(err.Error())
		var det askerr.Detailed
		if errors.As(err, &det) {
			if lines := det.ErrorDetail(); len(lines) > 1 {
				msg += ": " + strings.Join(lines[:len(lines)-1], "; ")
			}
		}
		d.add("registries", e.Rel(config.ProjectPath(root)), "fail", msg+"; none of its registries is used",
			"fix "+e.Rel(config.ProjectPath(root))+", or remove the entry at fault: agent-skills registry remove --project <name>")
		list, _ = e.ws.RegistryList(cfg, "")
	} else if list.ProjectFile != "" {
		d.add("registries", e.Rel(list.ProjectFile), "ok", "the project's registries: they come after yours and own only the names none of yours has", "")
	}
	for _, s := range list.Shadowed {
		d.add("registries", s.Project.Name, "warn", workspace.ShadowNotice(s),
			"if the project's is the one meant, give yours another name (agent-skills registry remove "+s.Project.Name+", then add it under a new name)")
	}
	if len(list.Registries) == 0 {
		// Every install by name fails with none; only direct sources work.
		d.add("registries", "registries", "fail", "no registry is configured in "+e.ws.ConfigPath()+": skills cannot be installed by name",
			"agent-skills registry add bundled bundled:   (the collection inside agent-skills), or agent-skills registry add <name> <url>")
		return
	}
	_, statErr := os.Stat(e.ws.ConfigPath())
	opts := e.ws.RegistryOptions(cfg)
	var notes []string
	opts.Notify = func(n string) { notes = append(notes, n) }
	for _, lr := range list.Registries {
		rc := lr.Registry
		notes = nil
		// A URL edited into the configuration by hand may carry a
		// password: findings show it masked, in --json too.
		shown := redact.URL(rc.URL)
		trust := "trusted"
		if !rc.Trusted {
			trust = "untrusted (owns no name by precedence)"
		}
		from := "from " + lr.File
		switch {
		case lr.From == workspace.FromProject:
			from = "from the project's " + e.Rel(lr.File)
		case statErr != nil:
			from = "a default (there is no " + lr.File + ")"
		}
		reg, err := list.Open(lr, opts)
		if err != nil {
			fix := "agent-skills registry remove " + rc.Name + ", then add it again correctly"
			if lr.From == workspace.FromProject {
				fix = "agent-skills registry remove --project " + rc.Name + ", then add it again correctly"
			}
			d.add("registries", rc.Name, "fail", redact.Text(err.Error())+"; "+from, fix)
			continue
		}
		idx, err := reg.Index(e.ctx)
		if code := askerr.CodeOf(err); code == registry.CodeSignatureMissing || code == registry.CodeSignatureInvalid {
			d.signing(rc, nil, err)
			continue
		}
		if err != nil {
			msg := redact.Text(strings.SplitN(err.Error(), "\n", 2)[0])
			d.add("registries", rc.Name, "warn", fmt.Sprintf("%s %s, %s: unreachable: %s; %s", rc.Kind, shown, trust, msg, from),
				"check the network and the URL; skills it owns cannot be installed until it answers")
			continue
		}
		if rc.Kind == config.KindOCI && len(notes) > 0 {
			// An OCI registry that did not answer serves its cached index:
			// reachability is what doctor reports.
			d.add("registries", rc.Name, "warn", fmt.Sprintf("%s %s, %s, %d skills from the cache: %s; %s", rc.Kind, shown, trust, len(idx.Skills),
				redact.Text(notes[0]), from), "check the network, the URL and your login (docker login, or AGENT_SKILLS_OCI_TOKEN)")
			d.signing(rc, idx, nil) // the cached index's signature verified again
			continue
		}
		d.add("registries", rc.Name, "ok", fmt.Sprintf("%s %s, %s, %d skills; %s", rc.Kind, shown, trust, len(idx.Skills), from), "")
		d.signing(rc, idx, nil)
	}
}

// signing reports the signature state of a registry with trusted
// signers: the keys and principals it trusts, whether its index
// signature verified (idx loaded) or failed (err), and how many of its
// versions carry a package signature that verifies. A registry without
// trusted signers gets no finding: nothing about it is signed or checked.
func (d *doctor) signing(rc config.Registry, idx *registry.Index, err error) {
	t, perr := registry.ParseTrust(rc.TrustedSigners)
	if t == nil || perr != nil {
		return // no signers; a broken set already failed to open
	}
	subject := rc.Name + " signatures"
	keys := signing.Describe(t)
	fix := "agent-skills registry trust " + rc.Name + " --trust-key <allowed_signers>   (after a key rotation), or ask the registry's maintainers to publish with --sign-key"
	if err != nil {
		msg := redact.Text(strings.SplitN(err.Error(), "\n", 2)[0])
		d.add("registries", subject, "fail", fmt.Sprintf("%s (%s); trusts %s", msg, askerr.CodeOf(err), keys), fix)
		return
	}
	total, bad := 0, []string{}
	now := time.Now()
	for _, s := range idx.Skills {
		for _, v := range s.Versions {
			total++
			if _, verr := t.VerifyPackage(rc.Name, s.Name, v, now); verr != nil {
				bad = append(bad, s.Name+"@"+v.Version)
			}
		}
	}
	if len(bad) > 0 {
		shown := bad
		if len(shown) > 5 {
			shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(bad)-5))
		}
		d.add("registries", subject, "warn", fmt.Sprintf("index signature verified; %d of %d versions are unsigned or fail their signature and will not install (%s); trusts %s",
			len(bad), total, strings.Join(shown, ", "), keys), fix)
		return
	}
	d.add("registries", subject, "ok", fmt.Sprintf("index signature verified; all %d versions signed; trusts %s", total, keys), "")
}

// agents checks detection and every root of every agent. A folder
// several agents read, or one reached through a link from another
// agent's folder, is checked once and named with every agent that reads
// it (issue 13, item 6).
func (d *doctor) agents(cfg *config.Config, aenv agents.Env) {
	var order []string               // root folders, first seen first
	readers := map[string][]string{} // root folder → agents that read it
	for _, r := range agents.DetectAll(d.e.ctx, aenv, d.e.ws.Table().All()) {
		a := r.Adapter
		var ev []string
		for _, x := range r.Detection.Evidence {
			ev = append(ev, string(x.Kind)+" "+x.Detail)
		}
		enabled := ""
		if !cfg.AgentEnabled(a.ID()) {
			enabled = ", disabled in config"
		}
		switch r.Detection.Confidence {
		case agents.ConfidenceStrong:
			d.add("agents", a.ID(), "ok", "detected ("+strings.Join(ev, "; ")+")"+enabled, "")
		case agents.ConfidenceWeak:
			d.add("agents", a.ID(), "warn", "only a project marker ("+strings.Join(ev, "; ")+"): not used unless named"+enabled,
				"pass --agent "+a.ID()+" to install for it")
			continue
		default:
			continue
		}
		scopes := []agents.Scope{agents.ScopeGlobal}
		if aenv.ProjectRoot != "" {
			scopes = append(scopes, agents.ScopeProject)
		}
		// Each folder as the agent spells it, links unresolved: a link is
		// worth a finding of its own.
		raw := aenv
		raw.Canonical = nil
		for _, sc := range scopes {
			for _, kind := range format.Kinds() {
				for _, root := range agents.Roots(a, kind, sc, raw) {
					if _, ok := readers[root.Path]; !ok {
						order = append(order, root.Path)
					}
					if !slices.Contains(readers[root.Path], a.ID()) {
						readers[root.Path] = append(readers[root.Path], a.ID())
					}
				}
			}
		}
	}
	// The agents that read each real folder, through any spelling.
	byReal := map[string][]string{}
	for _, p := range order {
		real := canonicalOf(aenv, p)
		for _, id := range readers[p] {
			if !slices.Contains(byReal[real], id) {
				byReal[real] = append(byReal[real], id)
			}
		}
	}
	for _, p := range order {
		d.root(p, readers[p], byReal[canonicalOf(aenv, p)])
	}
}

// canonicalOf is the one spelling of the folder p (see agents.Env).
func canonicalOf(aenv agents.Env, p string) string {
	if aenv.Canonical == nil {
		return p
	}
	return aenv.Canonical(p)
}

// root checks one agent root on disk: path is the folder as the agents
// spell it, readers the agents that read it so, shared every agent that
// reads the same real folder by any path.
func (d *doctor) root(path string, readers, shared []string) {
	subject := d.e.Rel(path) + " (" + strings.Join(readers, ", ") + ")"
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return // created on first install
	case err != nil:
		d.add("agents", subject, "fail", err.Error(), "fix the folder's permissions")
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Stat(path)
		if err != nil {
			d.add("agents", subject, "fail", "a broken symbolic link", "remove the link, or point it at an existing folder")
			return
		}
		if !target.IsDir() {
			d.add("agents", subject, "fail", "a symbolic link to a file, not a folder", "point the link at a folder, or replace it with one")
			return
		}
		// One folder behind two paths is the shared layout (.claude/skills
		// -> ../.agents/skills): agent-skills writes each skill there once,
		// and Claude Code and Codex were seen to list it once.
		real, _ := filepath.EvalSymlinks(path)
		msg := "a link to " + d.e.Rel(real)
		if len(shared) > len(readers) {
			msg += ": one folder for " + strings.Join(shared, ", ") + "; each skill is written there once"
		}
		d.add("agents", subject, "ok", msg, "")
	case !fi.IsDir():
		d.add("agents", subject, "fail", "not a folder", "move the file aside; the agent expects a folder here")
	case !writable(path):
		d.add("agents", subject, "fail", "not writable", "fix the folder's permissions")
	}
}

// installed checks every installed package in both scopes.
func (d *doctor) installed(aenv agents.Env, root string, all []agents.Adapter) {
	scopes := []agents.Scope{agents.ScopeGlobal}
	if root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	for _, sc := range scopes {
		found, err := install.Scan(d.e.ctx, install.Options{Scope: sc, Env: aenv, Agents: all})
		if err != nil {
			d.add("skills", string(sc), "fail", err.Error(), "")
			continue
		}
		seen := map[string]install.Installed{}
		for _, in := range found {
			seen[in.Name] = in
			subject := fmt.Sprintf("%s (%s, %s)", in.Name, sc, d.e.Rel(in.Dest))
			switch in.State {
			case install.StateModified:
				d.add("skills", subject, "warn", "changed since install: "+strings.Join(in.ModifiedFiles, ", "),
					"keep your changes, or agent-skills install "+in.Name+" --force to restore the package")
			case install.StateUnmanaged:
				d.add("skills", subject, "warn", "not installed by agent-skills",
					"agent-skills install "+in.Name+" --force to manage it, or leave it")
			case install.StateReceiptBroken:
				d.add("skills", subject, "fail", "its install receipt is unreadable or does not match",
					"agent-skills install "+in.Name+" --force to rewrite it")
			default:
				msg := in.Version + " from " + ui.Dash(skillset.OriginOf(in).String())
				if in.Disabled {
					msg += ", disabled: no agent lists it"
				}
				d.add("skills", subject, "ok", msg, "")
			}
			if len(in.SeenTwiceBy) > 0 && !in.Disabled {
				d.add("skills", subject, "fail", "visible twice to "+strings.Join(in.SeenTwiceBy, ", "),
					"agent-skills uninstall "+in.Name+" from one of the folders (or remove the copy by hand)")
			}
			if len(in.Deprecated) > 0 {
				d.add("skills", subject, "warn", "in a folder "+strings.Join(in.Deprecated, ", ")+" reads only for compatibility",
					"agent-skills uninstall "+in.Name+" and install it again")
			}
			if in.Pending {
				d.add("skills", subject, "warn", "an interrupted install left a pending receipt",
					"run any agent-skills install or uninstall in this scope; it recovers")
			}
		}
		if sc == agents.ScopeProject {
			psc := workspace.Scope{Kind: sc, Root: root}
			lock, err := skillset.ReadLock(psc.LockPath())
			if err != nil {
				// The named lines are the error's detail, not its text.
				msg := strings.Join(append([]string{err.Error()}, askerr.DetailOf(err)...), "; ")
				d.add("skills", "skills.lock", "fail", msg, "fix the named lines, or restore the file from version control")
				continue
			}
			lock = d.interrupted(aenv, psc, lock)
			if lock == nil {
				continue
			}
			for name, l := range lock.Skills {
				in, ok := seen[name]
				switch {
				case !ok:
					d.add("skills", name+" (skills.lock)", "fail", "locked at "+l.Version+" but not installed",
						"agent-skills install   (restores everything skills.lock records)")
				case in.Version != "" && in.Version != l.Version:
					d.add("skills", name+" (skills.lock)", "fail", fmt.Sprintf("locked at %s but %s is installed", l.Version, in.Version),
						"agent-skills install   (to match the lock) or agent-skills update "+name)
				}
			}
		}
	}
}

// interrupted reports the journal an interrupted install, update or
// uninstall left, and returns the lock the next such command will record
// first (the lock itself when there is none): the drift checks then
// report what that leaves, and never offer to restore what an
// interrupted uninstall had removed. Nothing is written.
func (d *doctor) interrupted(aenv agents.Env, sc workspace.Scope, lock *resolve.Lock) *resolve.Lock {
	run, err := skillset.PendingRun(d.e.ctx, d.e.ws, sc, aenv)
	if err != nil {
		d.add("skills", "skills.lock", "fail", err.Error(), "read "+skillset.JournalPath(d.e.ws, sc)+", then remove it")
		return lock
	}
	if run == nil {
		return lock
	}
	what := fmt.Sprintf("an interrupted %q (started %s)", run.Command, run.Started)
	status, msg := "warn", what+" left its journal; skills.lock already records what it did"
	if run.Changed {
		status, msg = "fail", what+" is not recorded in skills.lock: "+strings.Join(run.Diff, "; ")
	}
	fix := "run any agent-skills install, update or uninstall in this project: it records what the interrupted run did, first"
	if len(run.Partial) > 0 {
		fix = run.Rerun + "   (finishes it)"
	}
	d.add("skills", "skills.lock", status, msg, fix)
	return run.Lock
}

// writable reports whether a new file can be created in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".agent-skills-doctor-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return true
}
