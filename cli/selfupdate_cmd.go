package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/releases"
	"github.com/agent-skills/agent-skills/cli/internal/selfupdate"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/registry"
)

// selfUpdateCommands puts self-update in app's command tree.
type selfUpdateCommands struct {
	SelfUpdate selfUpdateCmd `cmd:"" name:"self-update" help:"Update agent-skills itself the way it was installed (npm, Homebrew), or print how to."`
}

type selfUpdateCmd struct {
	Check  bool   `help:"Only report: the version installed, the newest release, how agent-skills was installed and what self-update would do. Exits 0 also when a newer release exists."`
	To     string `placeholder:"VERSION" help:"Install this release instead of the newest one (an older one too)."`
	DryRun bool   `name:"dry-run" help:"Print the command self-update would run, and run nothing."`
}

func (c *selfUpdateCmd) Help() string {
	return `Replaces agent-skills with its newest release (or --to VERSION) the way it was
installed, which it tells from evidence:
  npm, installed globally  npm install --global PACKAGE@VERSION
  npm, in a project        npm install --prefix PROJECT --save-dev PACKAGE@VERSION
                           (--save-prod, --save-dev or --save-optional: the list
                           package.json has it in; --save-exact for an exact spec)
  Homebrew                 brew upgrade agent-skills/tap/agent-skills
npm and brew are run directly, with an argument array and no shell, and their
output is shown. Then the binary they installed (the npm platform package's,
Homebrew's opt/agent-skills) must report the version asked for in its
--version; another version, or none, is ASK_SELF_UPDATE_FAILED. For go install, a release archive, a development build, npx's
cache and pnpm, yarn or bun projects it prints the exact commands instead and
exits 1 (ASK_SELF_UPDATE_MANUAL). The releases are looked up at
AGENT_SKILLS_RELEASES_URL, config.json's updates.releasesURL, or the project's
GitHub releases.

Examples:
  agent-skills self-update --check
  agent-skills self-update
  agent-skills self-update --to 0.2.0 --dry-run`
}

func (c *selfUpdateCmd) Run(e *env) error {
	doc, err := lookUpReleases(e)
	if err != nil {
		return err
	}
	current := release()
	target, ok := doc.Newest(current)
	newest := target
	if c.To != "" {
		want := strings.TrimPrefix(strings.TrimSpace(c.To), "v")
		found := false
		for _, r := range doc.Releases {
			if r.Version == want {
				target, found = r, true
			}
		}
		switch {
		case !found:
			return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("there is no agent-skills release %s", ui.Field(c.To)),
				Detail: []string{"releases: " + releaseList(doc)}, Try: []string{"agent-skills self-update --check"}}
		case target.Yanked:
			return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("agent-skills %s was withdrawn (yanked)", target.Version),
				Try: []string{"agent-skills self-update, for the newest release"}}
		case target.Version == current:
			e.Info("agent-skills %s is installed already", current)
			return nil
		}
		ok = true
	}
	if c.Check {
		return c.report(e, current, target, ok)
	}
	if !ok {
		e.Info("agent-skills %s is the newest release", ui.Field(current))
		return nil
	}
	if c.To != "" && newest.Version != target.Version {
		if inst, err := detectInstall(e); err == nil && inst.Method == selfupdate.Homebrew {
			return &askerr.Error{Code: CodeSelfUpdateManual,
				Message: fmt.Sprintf("Homebrew installs the version its formula names, not a chosen one (%s)", target.Version),
				Try:     []string{"brew upgrade " + inst.Formula + ", for the formula's version", "or install release " + target.Version + " from its archive: " + selfupdate.DownloadURL(target.Version, selfupdate.ArchiveName(target.Version, runtime.GOOS, runtime.GOARCH))}}
		}
	}
	_, err = runSelfUpdate(e, target, c.DryRun)
	return err
}

// report prints what --check found.
func (c *selfUpdateCmd) report(e *env, current string, target releases.Release, newer bool) error {
	inst, err := detectInstall(e)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Out, "installed: agent-skills %s\n", ui.Field(current))
	if !newer {
		fmt.Fprintf(e.Out, "newest:    %s (installed)\n", ui.Field(current))
	} else {
		fmt.Fprintf(e.Out, "newest:    %s\n", ui.Field(describeRelease(target)))
	}
	fmt.Fprintf(e.Out, "installed by: %s\n", inst.Method)
	for _, ev := range inst.Evidence {
		fmt.Fprintf(e.Out, "  %s\n", ui.Field(ev))
	}
	if !newer {
		return nil
	}
	plan := selfupdate.PlanFor(inst, target.Version, runtime.GOOS, runtime.GOARCH)
	if plan.Runnable() {
		fmt.Fprintf(e.Out, "self-update would run: %s\n", ui.Field(plan.CommandLine()))
		return nil
	}
	fmt.Fprintf(e.Out, "self-update cannot replace it (%s); instead:\n", ui.Field(plan.Why))
	for _, m := range plan.Manual {
		fmt.Fprintf(e.Out, "  %s\n", ui.Field(m))
	}
	return nil
}

// selfUpdate replaces agent-skills with target the way it was installed,
// printing what it runs; updated reports that the new binary is in place,
// and then the caller must exit 0 before the command the user asked for,
// which runs under the new binary when the user runs it again. It is the
// seam of the update notifier's menu.
func selfUpdate(e *env, target releases.Release) (updated bool, err error) {
	return runSelfUpdate(e, target, false)
}

func runSelfUpdate(e *env, target releases.Release, dryRun bool) (bool, error) {
	inst, err := detectInstall(e)
	if err != nil {
		return false, err
	}
	plan := selfupdate.PlanFor(inst, target.Version, runtime.GOOS, runtime.GOARCH)
	e.Verbose("installed by %s:", inst.Method)
	for _, ev := range inst.Evidence {
		e.Verbose("  %s", ui.Field(ev))
	}
	if !plan.Runnable() {
		return false, &askerr.Error{Code: CodeSelfUpdateManual,
			Message: fmt.Sprintf("agent-skills cannot replace itself with %s: %s", target.Version, ui.Field(plan.Why)),
			Detail:  append([]string{"installed by: " + string(inst.Method)}, fieldsOf(inst.Evidence)...),
			Try:     fieldsOf(plan.Manual)}
	}
	program, err := programPath(e, plan)
	if err != nil {
		return false, &askerr.Error{Code: CodeSelfUpdateManual, Message: err.Error(),
			Detail: fieldsOf(inst.Evidence), Try: []string{ui.Field(plan.CommandLine())}}
	}
	line := ui.Field(plan.CommandLine())
	if dryRun {
		e.Done("would run: %s", line)
		e.Info("installed by %s; agent-skills %s → %s", inst.Method, ui.Field(release()), ui.Field(target.Version))
		return false, nil
	}
	e.Info("updating agent-skills %s → %s (installed by %s)", ui.Field(release()), ui.Field(target.Version), inst.Method)
	e.Info("running: %s", line)
	e.Flush()
	// npm's and brew's output is theirs, as if the user had run them: it
	// goes to the terminal as it comes, without the backstop's escaping.
	if err := selfupdate.Run(e.ctx, program, plan.Args, plan.Dir, e.RawOut(), e.RawErr()); err != nil {
		if e.ctx.Err() != nil {
			return false, e.ctx.Err()
		}
		return false, &askerr.Error{Code: CodeSelfUpdateFailed, Message: line + " failed", Err: err,
			Try: []string{"fix what " + plan.Program + " reported above, then run agent-skills self-update again", "or run it yourself: " + line}}
	}
	return verifyUpdate(e, inst, plan, target.Version, line)
}

// verifyUpdate checks, after npm or brew succeeded, that the binary they
// installed is the version asked for: it runs the new binary's --version
// (selfupdate.NewBinaries says where it is). A binary that reports another
// version, or fails to run, is ASK_SELF_UPDATE_FAILED: npm and brew can
// succeed without installing it (brew upgrade with an out-of-date tap
// says the formula is installed already). When the new binary cannot be
// located, it says so instead of claiming the update; updated is true
// then too, since npm or brew did change the installation.
func verifyUpdate(e *env, inst selfupdate.Install, plan selfupdate.Plan, version, line string) (updated bool, err error) {
	paths, why := selfupdate.NewBinaries(inst)
	bin := selfupdate.FindBinary(paths)
	if bin == "" {
		if why == "" {
			why = "no binary at " + strings.Join(paths, ", ")
		}
		e.Warn("%s finished, but agent-skills cannot find the binary it installed to check its version (%s)", line, ui.Field(why))
		e.Done("run agent-skills --version to see which version is installed")
		return true, nil
	}
	got, printed, err := selfupdate.BinaryVersion(e.ctx, bin)
	if e.ctx.Err() != nil {
		return false, e.ctx.Err()
	}
	try := []string{"run it yourself: " + line + ", then " + quoteArg(bin) + " --version"}
	if plan.Program == "brew" {
		try = []string{"brew update, then brew upgrade " + inst.Formula + ": a tap that is not up to date has no formula of " + version, try[0]}
	}
	detail := []string{"checked: " + ui.Field(bin) + " --version"}
	if printed != "" {
		detail = append(detail, "it printed: "+ui.Field(firstLineOf(printed)))
	}
	switch {
	case err != nil:
		return false, &askerr.Error{Code: CodeSelfUpdateFailed, Message: line + " finished, but the binary it installed does not report its version",
			Err: err, Detail: detail, Try: try}
	case got != version:
		return false, &askerr.Error{Code: CodeSelfUpdateFailed,
			Message: fmt.Sprintf("%s finished, but the binary it installed is agent-skills %s, not %s", line, ui.Field(got), version),
			Detail:  detail, Try: try}
	}
	e.Info("checked: %s --version reports %s", ui.Field(bin), ui.Field(got))
	e.Done("agent-skills %s is installed; run your command again to use it", ui.Field(version))
	return true, nil
}

// firstLineOf is the first line of s, marked when more followed.
func firstLineOf(s string) string {
	if line, _, more := strings.Cut(s, "\n"); more {
		return line + " …"
	}
	return s
}

// quoteArg quotes a path for the Try line when a shell would split it.
func quoteArg(s string) string {
	return selfupdate.Plan{Program: s}.CommandLine()
}

// lookUpReleases fetches the releases document; any failure is
// ASK_RELEASES_UNAVAILABLE.
func lookUpReleases(e *env) (*releases.Document, error) {
	unavailable := func(msg string, err error) error {
		return &askerr.Error{Code: CodeReleasesUnavailable, Message: msg, Err: err,
			Try: []string{"check your network, or set AGENT_SKILLS_RELEASES_URL (or config.json updates.releasesURL) to a releases.json you can reach",
				"download a release from " + selfupdate.Repository + "/releases"}}
	}
	if e.ws.Offline() {
		return nil, unavailable("the releases cannot be looked up offline (--offline or AGENT_SKILLS_OFFLINE=1)", nil)
	}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return nil, err
	}
	u := releases.URL(e.ws.Getenv, cfg)
	client := registry.NewHTTPClient(registry.HTTPOptions{Timeouts: e.ws.HTTP, Notify: func(msg string) { e.Note("%s", msg) }})
	defer client.CloseIdleConnections()
	e.Verbose("looking up the releases at %s", ui.Field(u))
	doc, err := releases.Fetch(e.ctx, client, u)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, unavailable("cannot look up the agent-skills releases at "+ui.Field(u), err)
	}
	return doc, nil
}

// detectInstall tells how this binary was installed.
func detectInstall(e *env) (selfupdate.Install, error) {
	exe, err := os.Executable()
	if err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
	}
	if err != nil {
		return selfupdate.Install{}, askerr.IO("cannot find this agent-skills binary's path", err)
	}
	bi, _ := debug.ReadBuildInfo()
	inst, err := selfupdate.Detect(selfupdate.Inputs{
		Executable: exe, Version: release(), Getenv: e.ws.Getenv, UserHome: e.ws.UserHome(), BuildInfo: bi, GOOS: runtime.GOOS,
		ReadFile:     func(p string, limit int) ([]byte, error) { return atomicfile.ReadPlain(p, true, limit) },
		EvalSymlinks: filepath.EvalSymlinks,
		NPMGlobalPrefix: func() (string, error) {
			npm, err := e.ws.LookPath("npm")
			if err != nil {
				return "", errors.New("npm is not on PATH")
			}
			return selfupdate.GlobalPrefix(e.ctx, npm)
		},
	})
	if err != nil {
		return inst, &askerr.Error{Code: CodeSelfUpdateManual, Message: "cannot tell how agent-skills was installed", Err: err,
			Try: []string{"reinstall it the way you installed it, e.g. npm install --global PACKAGE@latest",
				"or download a release from " + selfupdate.Repository + "/releases"}}
	}
	return inst, nil
}

// programPath finds the plan's program: the path the installation names
// (the brew of the Cellar's prefix), else the PATH's, outside every folder
// the working folder's project controls (workspace.Machine.LookPath).
func programPath(e *env, plan selfupdate.Plan) (string, error) {
	if plan.ProgramPath != "" {
		if fi, err := os.Stat(plan.ProgramPath); err == nil && !fi.IsDir() {
			return plan.ProgramPath, nil
		}
	}
	p, err := e.ws.LookPath(plan.Program)
	if err != nil {
		return "", fmt.Errorf("%s is not on PATH", plan.Program)
	}
	// The project being updated controls its own folder: an npm in its
	// node_modules/.bin is one of its dependencies, not the user's npm.
	if plan.Dir != "" {
		if rel, err := filepath.Rel(plan.Dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("the %s on PATH, %s, is inside the project %s; agent-skills runs only one from outside it", plan.Program, p, plan.Dir)
		}
	}
	return p, nil
}

// describeRelease is "0.2.0 (2026-12-01) https://…: notes".
func describeRelease(r releases.Release) string {
	s := r.Version
	if r.Date != "" {
		s += " (" + r.Date + ")"
	}
	if r.URL != "" {
		s += " " + r.URL
	}
	if r.Notes != "" {
		s += ": " + r.Notes
	}
	return s
}

// releaseList is the document's versions, newest last as listed.
func releaseList(doc *releases.Document) string {
	var vs []string
	for _, r := range doc.Releases {
		if !r.Yanked {
			vs = append(vs, r.Version)
		}
	}
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

// fieldsOf escapes each line for the terminal.
func fieldsOf(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ui.Field(l)
	}
	return out
}

// installMethod is doctor's line on how agent-skills was installed, which
// is what self-update acts on.
func (d *doctor) installMethod() {
	inst, err := detectInstall(d.e)
	if err != nil {
		d.add("environment", "installed by", "warn", err.Error(), "self-update cannot tell how to update agent-skills; reinstall it")
		return
	}
	msg := string(inst.Method)
	if len(inst.Evidence) > 0 {
		msg += ": " + strings.Join(inst.Evidence, "; ")
	}
	d.add("environment", "installed by", "ok", msg, "")
}
