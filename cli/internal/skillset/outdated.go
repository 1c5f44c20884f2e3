package skillset

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry/gitrun"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file is the read-only use case behind `agent-skills outdated`:
// for every installed skill, the version installed, the one `update`
// would move it to, and the newest one there is, as npm outdated shows
// them.

// Freshness says whether an installed skill has a newer version.
type Freshness string

// Freshness values of an OutdatedSkill.
const (
	// FreshOutdated: update, or update --major, would move it.
	FreshOutdated Freshness = "outdated"
	// FreshCurrent: nothing newer is known.
	FreshCurrent Freshness = "current"
	// FreshUnknown: what is newer cannot be known now; Reason says why
	// (offline, the registry is gone, an archive has no versions).
	FreshUnknown Freshness = "unknown"
)

// OutdatedSkill is one row of `agent-skills outdated`; its JSON form is
// the --json output (docs/cli.md).
type OutdatedSkill struct {
	// Name and Scope ("global" or "project") identify the install.
	Name  string `json:"name"`
	Scope string `json:"scope"`
	// Installed is the installed version.
	Installed string `json:"installed"`
	// Wanted is the version `agent-skills update <name>` moves to: the
	// newest within ^Installed that what the other installed skills (in
	// a project, skills.lock) require of it allows; Latest is the
	// registry's latest, or the newest semver tag of a source installed
	// from a tag. Both are "" when unknown, and for a source that follows
	// a branch, whose new commit has no version until it is fetched
	// (LatestCommit says where the branch is).
	Wanted string `json:"wanted"`
	Latest string `json:"latest"`
	// Registry is where it was resolved, or Source and Subpath the source
	// and folder it was installed from, with Ref (the branch or tag asked
	// for, "" for the default branch) and Commit (the installed one).
	Registry string `json:"registry,omitempty"`
	Source   string `json:"source,omitempty"`
	Subpath  string `json:"subpath,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Commit   string `json:"commit,omitempty"`
	// LatestCommit is the commit the source's branch points to now.
	LatestCommit string `json:"latestCommit,omitempty"`
	// Status is outdated, current or unknown; Reason says why it is
	// unknown, or what else the user should know (pinned to a commit).
	Status Freshness `json:"status"`
	Reason string    `json:"reason,omitempty"`
	// Agents are the agents it is installed for; Disabled says no agent
	// lists it (agent-skills disable).
	Agents   []string `json:"agents"`
	Disabled bool     `json:"disabled,omitempty"`
}

// OutdatedRequest is what `agent-skills outdated [names…]` asks for.
type OutdatedRequest struct {
	// Names limits the report to these skills; none: every installed one.
	Names []string
	// Global and Project limit it to one scope (default: both, the
	// project when there is one); ProjectRoot names the project.
	Global, Project bool
	ProjectRoot     string
	// Agents are the agents whose folders are read (default: every
	// detected agent, else every supported one, as list reads them).
	Agents []string
}

// OutdatedReport is the outcome of Outdated.
type OutdatedReport struct {
	// Skills are sorted by scope (global first), then name.
	Skills []OutdatedSkill `json:"skills"`
	// Notices are what the user should read besides the rows (an
	// interrupted run, a registry that cannot answer).
	Notices []Notice `json:"notices,omitempty"`
}

// Outdated reports, for every installed skill of the global scope and of
// the project, the installed version, the one update would move it to and
// the newest one. It writes nothing — no agent folder, receipt,
// skills.lock or journal; registry caches refresh as any read refreshes
// them, and a folder source is read into a temporary folder that is
// removed — and it is not an error for a skill to be out of date. Skills
// from git sources are compared with the branch tip or the newest semver
// tag on the server (unknown offline); a folder source with its files
// now; an archive is unknown.
func Outdated(ctx context.Context, ws *workspace.Machine, r OutdatedRequest) (*OutdatedReport, error) {
	rep := &OutdatedReport{Skills: []OutdatedSkill{}}
	err := eachReportScope(ctx, ws, r, "outdated", func(p *op) error {
		rows, err := p.outdated(r.Names)
		rep.Notices = append(rep.Notices, p.out.Notices...)
		rep.Skills = append(rep.Skills, rows...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// eachReportScope runs fn, a read-only report, on the global scope and on
// the project's (as r limits them), each with the agents r selects.
func eachReportScope(ctx context.Context, ws *workspace.Machine, r OutdatedRequest, command string, fn func(p *op) error) error {
	if r.Global && r.Project {
		return askerr.Usage("--global and --project cannot be used together")
	}
	set, cfg, err := ws.Configured()
	if err != nil {
		return err
	}
	root, err := ws.ProjectRoot(r.ProjectRoot)
	if err != nil {
		return err
	}
	if r.Project && root == "" {
		if _, err := ws.DecideScope(workspace.ScopeRequest{Project: true, ProjectRoot: r.ProjectRoot}); err != nil {
			return err
		}
	}
	env := ws.AgentEnv(cfg, root)
	adapters, err := ws.SeenAgents(ctx, cfg, r.Agents, env)
	if err != nil {
		return err
	}
	var scopes []workspace.Scope
	if !r.Project {
		scopes = append(scopes, workspace.Scope{Kind: agents.ScopeGlobal})
	}
	if !r.Global && root != "" {
		scopes = append(scopes, workspace.Scope{Kind: agents.ScopeProject, Root: root})
	}
	for _, sc := range scopes {
		s := &Session{Scope: sc, Agents: adapters, Env: env, Config: cfg, Registries: set, ws: ws}
		if s.Lock, err = ReadLock(sc.LockPath()); err != nil {
			return err
		}
		if err := fn(s.begin(ctx, command, nil, nil, true, nil)); err != nil {
			return err
		}
	}
	return nil
}

// outdated is Outdated for one scope.
func (p *op) outdated(only []string) ([]OutdatedSkill, error) {
	rows, err := p.installedRows(only)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		row := &rows[i]
		var l *resolve.LockedSkill
		if p.lock != nil {
			if e, ok := p.lock.Skills[row.Name]; ok {
				l = &e
			}
		}
		switch {
		case row.Source != "" && l != nil:
			p.sourceFreshness(row, *l)
		case row.Source != "":
			row.Status, row.Reason = FreshUnknown, "installed globally from a source, and only skills.lock records its branch or tag; install it again to update it"
		default:
			p.registryFreshness(row)
		}
	}
	return rows, nil
}

// installedRows lists what is installed in the scope, by name (only
// those of only, when given), with the version, where it came from and
// for which agents: from skills.lock in a project, else from receipts.
// Nothing is looked up.
func (p *op) installedRows(only []string) ([]OutdatedSkill, error) {
	// An interrupted run is reported, and the lock the next run records
	// read in place of skills.lock; nothing is written.
	if err := p.recoverFirst(true); err != nil {
		return nil, err
	}
	found, err := p.scan()
	if err != nil {
		return nil, err
	}
	meta := map[string]*OutdatedSkill{}
	for _, in := range found {
		if in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
			continue
		}
		m := meta[in.Name]
		if m == nil {
			m = &OutdatedSkill{Name: in.Name, Scope: string(p.Scope.Kind), Installed: in.Version, Registry: in.Registry,
				Source: in.Source, Subpath: in.Subpath, Agents: []string{}}
			meta[in.Name] = m
		}
		m.Agents = sortedAgents(append(m.Agents, in.Agents...))
		m.Disabled = m.Disabled || in.Disabled
	}
	if p.lock != nil {
		// In a project, skills.lock says what is installed, also for a
		// skill not in place here (a fresh clone).
		for n, l := range p.lock.Skills {
			m := meta[n]
			if m == nil {
				m = &OutdatedSkill{Name: n, Scope: string(p.Scope.Kind), Agents: []string{}}
				meta[n] = m
			}
			m.Installed, m.Registry, m.Source, m.Subpath, m.Ref, m.Commit = l.Version, l.Registry, l.Source, l.Subpath, l.Ref, l.Commit
			m.Agents, m.Disabled = sortedAgents(l.Agents), l.Disabled
		}
	}
	var out []OutdatedSkill
	for _, n := range slices.Sorted(maps.Keys(meta)) {
		if len(only) > 0 && !slices.Contains(only, n) {
			continue
		}
		out = append(out, *meta[n])
	}
	return out, nil
}

// registryFreshness fills in what the row's registry has: its latest, and
// what update would pick within ^installed.
func (p *op) registryFreshness(row *OutdatedSkill) {
	g, why, err := registryGone(p.ctx, p.Registries, row.Registry, row.Name, row.Installed)
	switch {
	case err != nil:
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
		return
	case g == goneUnknown, g == goneUnreachable, g == goneSkill:
		row.Status, row.Reason = FreshUnknown, why
		return
	}
	reg, _ := p.Registries.Get(row.Registry)
	idx, err := reg.Index(p.ctx)
	if err != nil {
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
		return
	}
	sk, _ := idx.Skill(row.Name)
	row.Latest = sk.Latest
	row.Wanted = p.wanted(row)
	if g == goneVersion {
		row.Reason = why
	}
	row.Status = FreshCurrent
	if newer(row.Wanted, row.Installed) || newer(row.Latest, row.Installed) {
		row.Status = FreshOutdated
	}
}

// wanted is the version `agent-skills update <name>` would move the row's
// skill to: resolved as update resolves it, within ^installed, with every
// other installed skill pinned. When no such plan exists, it is the
// installed version, and the resolver's reason is the row's.
func (p *op) wanted(row *OutdatedSkill) string {
	ref := resolve.Reference{Name: row.Name, Registry: row.Registry, Range: "^" + row.Installed}
	plan, _, err := p.resolveKeeping([]resolve.Reference{ref}, map[string]bool{row.Name: true}, resolve.Options{}, false)
	if err != nil {
		row.Reason = "update cannot move it: " + firstLine(err.Error())
		return row.Installed
	}
	for _, s := range plan.Skills {
		if s.Name == row.Name {
			return s.Version
		}
	}
	return row.Installed
}

// sourceFreshness fills in what the source of a locked skill has now: the
// tip of its branch, its newest semver tags, or a folder's files.
func (p *op) sourceFreshness(row *OutdatedSkill, l resolve.LockedSkill) {
	pin := source.Pin{Name: row.Name, Version: l.Version, Source: l.Source, Resolved: l.Resolved,
		Commit: l.Commit, Subpath: l.Subpath, Integrity: l.Integrity}
	r, err := pin.Follow(l.Ref)
	if err != nil {
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
		return
	}
	opts := p.sourceOptions("", nil)
	unknown := func(err error) {
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
	}
	switch {
	case r.Kind == source.KindArchive:
		row.Status, row.Reason = FreshUnknown, "an archive names one version; agent-skills update downloads it again to compare"
	case r.Kind == source.KindMCP:
		row.Status, row.Reason = FreshUnknown, "an MCP server has no versions to compare; agent-skills update reads it again to compare"
	case r.Kind == source.KindLocal:
		p.folderFreshness(row, r, l)
	case gitrun.IsCommitID(l.Ref):
		row.Status, row.Reason, row.Wanted, row.Latest = FreshCurrent, "pinned to a commit, which update does not move", l.Version, l.Version
	case semverTag.MatchString(l.Ref):
		tags, err := source.Tags(p.ctx, r, opts)
		if err != nil {
			unknown(err)
			return
		}
		row.Wanted = tagVersionOf(newestTag(tags, l.Ref, false), l.Version)
		row.Latest = tagVersionOf(newestTag(tags, l.Ref, true), l.Version)
		row.Status = FreshCurrent
		if newer(row.Wanted, row.Installed) || newer(row.Latest, row.Installed) {
			row.Status = FreshOutdated
		}
	default:
		tip, err := source.Tip(p.ctx, r, l.Ref, opts)
		if err != nil {
			unknown(err)
			return
		}
		row.LatestCommit, row.Status = tip, FreshCurrent
		if tip != l.Commit {
			row.Status = FreshOutdated
		} else {
			row.Wanted, row.Latest = l.Version, l.Version
		}
	}
}

// folderFreshness reads a folder source again, into a temporary folder
// removed after, and compares its package with the locked bytes.
func (p *op) folderFreshness(row *OutdatedSkill, r source.Ref, l resolve.LockedSkill) {
	tmp, err := p.stagingDir("outdated-")
	if err != nil {
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
		return
	}
	defer os.RemoveAll(tmp)
	res, err := source.Fetch(p.ctx, r, p.sourceOptions(filepath.Join(tmp, "pkg"), []string{row.Name}))
	if err == nil && len(res.Packages) != 1 {
		err = fmt.Errorf("%s is no longer at %s in %s", row.Name, dotOr(l.Subpath), l.Source)
	}
	if err != nil {
		row.Status, row.Reason = FreshUnknown, firstLine(err.Error())
		return
	}
	pk := res.Packages[0]
	row.Wanted, row.Latest, row.Status = pk.Version, pk.Version, FreshCurrent
	if !format.SameIntegrity(pk.Integrity, l.Integrity) {
		row.Status = FreshOutdated
		if pk.Version == l.Version {
			row.Reason = "the folder's files changed since it was installed"
		}
	}
}

// tagVersionOf is the version a tag names, or fallback.
func tagVersionOf(tag, fallback string) string {
	v, err := semver.NewVersion(tag)
	if err != nil {
		return fallback
	}
	return v.String()
}

// newer reports whether version a is higher than version b; an unknown
// or unreadable one is never newer.
func newer(a, b string) bool {
	va, errA := semver.NewVersion(a)
	vb, errB := semver.NewVersion(b)
	return errA == nil && errB == nil && va.GreaterThan(vb)
}

// dotOr is p, or "." for the root.
func dotOr(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// Outdated reports whether the row has a newer version to move to.
func (s OutdatedSkill) Outdated() bool { return s.Status == FreshOutdated }

// From is where the skill comes from, as list shows it: the registry, or
// the source and "//" the folder in it.
func (s OutdatedSkill) From() string {
	if s.Source != "" {
		return Origin{Source: s.Source, Subpath: s.Subpath}.String()
	}
	return Origin{Registry: s.Registry}.String()
}
