package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/audit"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// CodeAuditFindings is audit's failure: findings at or above --fail-on.
const CodeAuditFindings = "ASK_AUDIT_FINDINGS"

// auditInformationURI is the driver's informationUri in SARIF logs.
const auditInformationURI = "https://github.com/agent-skills/agent-skills/blob/main/docs/security.md"

type auditCmd struct {
	Path        string   `arg:"" optional:"" type:"path" help:"A package folder, or a folder of packages (a collection or a registry root). Default: the current folder."`
	Installed   bool     `help:"Audit every skill installed for the selected agents and scopes instead of a folder."`
	Agent       []string `short:"a" predictor:"agent" help:"With --installed: only the folders these agents read; repeatable. Default: every supported agent."`
	Global      bool     `help:"With --installed: only the global skills."`
	Project     bool     `help:"With --installed: only the project's skills."`
	ProjectRoot string   `type:"path" help:"With --installed: the project folder (default: the nearest project above the working folder)."`
	JSON        bool     `name:"json" help:"Print the report as JSON (schema in docs/cli.md)."`
	SARIF       bool     `name:"sarif" help:"Print the report as SARIF 2.1.0, for GitHub code scanning and other SARIF tools."`
	FailOn      string   `name:"fail-on" default:"high" placeholder:"SEVERITY" help:"Exit 5 when a finding is at or above this severity: critical, high, medium, low, info, or none (never). Default: high."`
}

func (c *auditCmd) Help() string {
	return `Scans skill packages for hidden text, prompt injection, remote execution, exfiltration,
secrets and undeclared capabilities — the scanner install runs — and reports every finding:
  path:line:col: severity rule message
followed by the excerpt (hidden characters shown as <U+XXXX>) and the fix; then a summary
line on standard error. The whole report is printed first; then the exit code is 5
(ASK_AUDIT_FINDINGS) when a finding is at or above --fail-on (default high), else 0.

Examples:
  agent-skills audit                          # the package or collection in the current folder
  agent-skills audit skills/ --fail-on medium
  agent-skills audit --installed              # every installed skill, project and global
  agent-skills audit --installed --global --agent claude-code
  agent-skills audit . --sarif > audit.sarif  # for github/codeql-action/upload-sarif`
}

func (c *auditCmd) Run(e *env) error {
	failOn, err := parseFailOn(c.FailOn)
	if err != nil {
		return err
	}
	switch {
	case c.JSON && c.SARIF:
		return askerr.Usage("--json and --sarif cannot be used together")
	case c.Installed && c.Path != "":
		return askerr.Usage("audit takes a folder or --installed, not both")
	case !c.Installed && (len(c.Agent) > 0 || c.Global || c.Project || c.ProjectRoot != ""):
		return askerr.Usage("--agent, --global, --project and --project-root select installed skills: use them with --installed")
	case c.Global && c.Project:
		return askerr.Usage("--global and --project cannot be used together")
	}
	var targets []audit.Target
	if c.Installed {
		targets, err = c.installed(e)
	} else {
		targets, err = c.folder(e)
	}
	if err != nil {
		return err
	}
	res, err := audit.Scan(e.ctx, targets, scan.Options{})
	if err != nil {
		return err
	}
	switch {
	case c.SARIF:
		err = e.JSON(audit.SARIF(res, audit.Tool{Name: "agent-skills", Version: release(), InformationURI: auditInformationURI}))
	case c.JSON:
		err = e.JSON(audit.NewDocument(res, failOn))
	default:
		c.print(e, res)
	}
	if err != nil {
		return err
	}
	return auditVerdict(res, failOn)
}

// parseFailOn reads --fail-on: a severity, or "none" (nil).
func parseFailOn(v string) (*scan.Severity, error) {
	if v == "none" {
		return nil, nil
	}
	s, err := scan.ParseSeverity(v)
	if err != nil {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--fail-on: " + err.Error(),
			Try: []string{"--fail-on critical|high|medium|low|info|none"}}
	}
	return &s, nil
}

// folder finds the packages of the audited folder. Paths in SARIF are
// relative to the working folder when the folder is in it — a CI job runs
// at the repository's root, where code scanning places them — else to the
// folder itself.
func (c *auditCmd) folder(e *env) ([]audit.Target, error) {
	p := c.Path
	if p == "" {
		p = "."
	}
	root, err := filepath.Abs(p)
	if err != nil {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "cannot resolve " + p, Err: err}
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("cannot read %s", e.Rel(root)), Err: err,
			Try: []string{"agent-skills audit <folder of a skill package or collection>"}}
	}
	if !fi.IsDir() {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"agent-skills audit " + e.Rel(filepath.Dir(root))}}
	}
	targets, err := audit.Folder(root)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("no skill package found in %s", e.Rel(root)),
			Detail: []string{"A package is a folder with a skill.yaml, or a SKILL.md for a bare skill."},
			Try:    []string{"agent-skills audit --installed   to audit the installed skills"}}
	}
	for i := range targets {
		t := &targets[i]
		t.Show = filepath.ToSlash(e.Rel(t.Dir))
		if !t.Place("%SRCROOT%", e.ws.Cwd) {
			t.Place("%SRCROOT%", root)
		}
	}
	return targets, nil
}

// installed finds the installed skills of the selected agents and scopes:
// both scopes unless --global or --project says one (the project's only
// when there is a project), every supported agent unless --agent names
// some. An audit looks at every agent's folders by default, detected or
// not, since a skill installed there is read as soon as the agent is.
// SARIF paths of project skills are relative to the project root, those of
// global skills to the home folder (uriBaseId HOME), or to their agent
// folder (AGENTROOT<n>) when it lies outside it.
func (c *auditCmd) installed(e *env) ([]audit.Target, error) {
	cfg, root, err := e.ws.ConfigAndProject(c.ProjectRoot)
	if err != nil {
		return nil, err
	}
	if c.Project && root == "" {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--project: no project folder at or above " + e.Rel(e.ws.Cwd),
			Try: []string{"--project-root <folder>", "agent-skills audit --installed --global"}}
	}
	adapters := e.ws.Table().All()
	if len(c.Agent) > 0 {
		if adapters, err = e.ws.Table().Select(c.Agent); err != nil {
			return nil, err
		}
	}
	var scopes []agents.Scope
	if !c.Global && root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	if !c.Project {
		scopes = append(scopes, agents.ScopeGlobal)
	}
	roots := skillRoots(adapters, scopes, e.ws.AgentEnv(cfg, root))
	targets, err := audit.Installed(e.ctx, roots)
	if err != nil {
		return nil, err
	}
	files, err := audit.InstalledFiles(fileRoots(adapters, scopes, e.ws.AgentEnv(cfg, root)))
	if err != nil {
		return nil, err
	}
	targets = append(targets, files...)
	home := e.ws.UserHome()
	bases := map[string]string{}
	for i := range targets {
		t := &targets[i]
		t.Show = filepath.ToSlash(e.Rel(t.Dir))
		if t.Scope == string(agents.ScopeProject) && t.Place("%SRCROOT%", root) {
			continue
		}
		if t.Scope == string(agents.ScopeGlobal) && t.Place("HOME", home) {
			continue
		}
		parent := filepath.Dir(t.Dir)
		id, ok := bases[parent]
		if !ok {
			id = fmt.Sprintf("AGENTROOT%d", len(bases)+1)
			bases[parent] = id
		}
		t.Place(id, parent)
	}
	return targets, nil
}

// print is the text report: each package's findings, a warning for each
// package not read in full, and the summary line on standard error.
func (c *auditCmd) print(e *env, res audit.Result) {
	for _, p := range res.Packages {
		switch {
		case p.Skipped != "":
			e.Warn("%s not audited: %s", ui.Field(p.Show), ui.Field(p.Skipped))
			continue
		case p.Err != nil:
			e.Warn("%s was not read in full: %s", ui.Field(p.Show), ui.Field(p.Err.Error()))
		}
		e.Findings(p.Show, p.Report.Findings)
		if p.Report.Omitted > 0 {
			e.Note("%s: %d more %s not shown (one rule fired more than 20 times in a file)", ui.Field(p.Show),
				p.Report.Omitted, ui.Plural(p.Report.Omitted, "finding", "findings"))
		}
	}
	if len(res.Packages) == 0 {
		e.Info("no installed skills found")
		return
	}
	e.Info("%s", auditSummary(res))
}

// auditSummary is "N packages audited: F findings (c critical, h high, m
// medium, l low, i info)", and ", S not audited" for skipped folders.
func auditSummary(res audit.Result) string {
	n := res.Audited()
	c := res.Counts()
	total := res.Findings()
	line := fmt.Sprintf("%d %s audited: %d %s (%d critical, %d high, %d medium, %d low, %d info)",
		n, ui.Plural(n, "package", "packages"), total, ui.Plural(total, "finding", "findings"),
		c[scan.Critical], c[scan.High], c[scan.Medium], c[scan.Low], c[scan.Info])
	if skipped := len(res.Packages) - n; skipped > 0 {
		line += fmt.Sprintf(", %d not audited", skipped)
	}
	return line
}

// auditVerdict is the command's error once the report is printed:
// ASK_AUDIT_FINDINGS for findings at or above failOn, else ASK_IO when a
// package could not be read in full — an audit that could not see a file
// does not pass.
func auditVerdict(res audit.Result, failOn *scan.Severity) error {
	if failOn != nil {
		if n, pkgs := res.AtLeast(*failOn); n > 0 {
			err := &askerr.Error{Code: CodeAuditFindings,
				Message: fmt.Sprintf("%d %s at or above %s in %d of %d %s", n, ui.Plural(n, "finding", "findings"), *failOn,
					pkgs, res.Audited(), ui.Plural(res.Audited(), "package", "packages")),
				Try: []string{"fix each finding as its fix line says, then audit again"}}
			if *failOn < scan.Critical {
				// Say what a higher threshold would let pass, when it would.
				up := *failOn + 1
				if m, _ := res.AtLeast(up); m < n {
					err.Try = append(err.Try, fmt.Sprintf("--fail-on %s   fails only on the %d at or above %s", up, m, up))
				}
			}
			return err
		}
	}
	if failed := res.Failed(); len(failed) > 0 {
		names := make([]string, len(failed))
		for i, p := range failed {
			names[i] = p.Show
		}
		return askerr.IO(fmt.Sprintf("%d %s could not be read in full: %s", len(failed), ui.Plural(len(failed), "package", "packages"),
			strings.Join(names, ", ")), failed[0].Err)
	}
	return nil
}

// fileRoots returns the folders the adapters read commands and workflows
// from as single files, in each scope, each folder and kind once with
// every adapter that reads it.
func fileRoots(adapters []agents.Adapter, scopes []agents.Scope, aenv agents.Env) []audit.FileRoot {
	var out []audit.FileRoot
	at := map[[2]string]int{}
	for _, sc := range scopes {
		for _, kind := range []format.Kind{format.KindCommand, format.KindWorkflow} {
			for _, a := range adapters {
				loc, ok := a.LocationFor(kind, sc, aenv)
				if !ok || loc.Shape != agents.ShapeFile {
					continue
				}
				for _, r := range agents.Roots(a, kind, sc, aenv) {
					k := [2]string{r.Path, string(kind)}
					i, seen := at[k]
					if !seen {
						i = len(out)
						at[k] = i
						out = append(out, audit.FileRoot{Path: r.Path, Scope: string(sc), Kind: kind, Ext: loc.Extension})
					}
					if !slices.Contains(out[i].Readers, a.ID()) {
						out[i].Readers = append(out[i].Readers, a.ID())
					}
				}
			}
		}
	}
	return out
}
