package cli

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/notify"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

// maxSkillNotices is how many skill releases one command offers; the
// rest are counted, for "agent-skills outdated" to show.
const maxSkillNotices = 3

// skillLookups is what the notifier knows of the installed skills'
// releases: every skill installed from a registry, each registry's
// lookup (from updates.json or made now), and the new lookups to keep.
type skillLookups struct {
	installs []skillset.RegistryInstall
	byReg    map[string]*notify.RegistryCheck
	urls     map[string]string
	checks   []notify.RegistryCheck
}

// skillReleases looks up, for the skills installed from registries
// (global and in the project above the working folder, read live from
// receipts and skills.lock), what their registries offer: each registry
// once, from updates.json while its lookup is fresh (the registry TTL, at
// least a minute, and the same URL and ref), else its index within
// notify.LookupTimeout, every registry side by side. Only the user's own
// registries are asked: a cloned project's registry file does not make
// a plain "list" reach a server it names. Indexes are metadata; no
// package is fetched. Nothing is printed (but with --verbose).
func (e *env) skillReleases(store *notify.Store, cfg *config.Config, now time.Time) *skillLookups {
	// A quiet copy of the machine: a registry's notices (a stale cache
	// used) are not for this advisory lookup.
	quiet := *e.ws
	quiet.Notify = nil
	installs, err := skillset.RegistryInstalls(e.ctx, &quiet)
	if err != nil {
		e.Verbose("update check: cannot read the installed skills: %v", err)
		return nil
	}
	if len(installs) == 0 {
		return nil
	}
	list, err := quiet.RegistryList(cfg, "")
	if err != nil {
		e.Verbose("update check: %v", err)
		return nil
	}
	set, err := quiet.OpenRegistries(cfg, list)
	if err != nil {
		e.Verbose("update check: %v", err)
		return nil
	}
	names := map[string][]string{}
	for _, in := range installs {
		if !slices.Contains(names[in.Registry], in.Name) {
			names[in.Registry] = append(names[in.Registry], in.Name)
		}
	}
	ttl := notify.SkillTTL(cfg.Cache.TTLSeconds)
	l := &skillLookups{installs: installs, byReg: map[string]*notify.RegistryCheck{}, urls: map[string]string{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, regName := range slices.Sorted(maps.Keys(names)) {
		reg, ok := set.Get(regName)
		if !ok {
			continue // no longer configured, or a project's registry
		}
		spec := reg.Spec()
		l.urls[regName] = spec.URL
		if c := store.FreshRegistry(regName, spec.URL, spec.Ref, names[regName], ttl, now); c != nil {
			l.byReg[regName] = c
			continue
		}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(e.ctx, notify.LookupTimeout)
			defer cancel()
			c := notify.RegistryCheck{Name: regName, URL: spec.URL, Ref: spec.Ref, CheckedAt: now}
			idx, err := reg.Index(ctx)
			if err != nil {
				c.Failed = firstLine(err.Error())
			} else {
				c.Skills = map[string]notify.Offer{}
				for _, n := range names[regName] {
					sk, _ := idx.Skill(n)
					c.Skills[n] = notify.OfferOf(sk)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			l.checks = append(l.checks, c)
		})
	}
	wg.Wait()
	for i := range l.checks {
		c := &l.checks[i]
		l.byReg[c.Name] = c
		if c.Failed != "" {
			e.Verbose("update check: cannot read registry %s: %s", ui.Field(c.Name), ui.Field(c.Failed))
		}
	}
	return l
}

// skillNotice is one skill release to offer: the skill, its registry, what
// the registry offers, and every install of it that is older.
type skillNotice struct {
	name, registry, url string
	offer               notify.Offer
	installs            []skillset.RegistryInstall
}

// release is the notice's key in updates.json: the registry-qualified
// name, which no CLI release name can equal.
func (n skillNotice) release() notify.Release {
	return notify.Release{Name: n.registry + ":" + n.name, Version: n.offer.Version}
}

// oldest is the lowest installed version, which the notice is about.
func (n skillNotice) oldest() string {
	v := n.installs[0].Version
	for _, in := range n.installs[1:] {
		if notify.Newer(v, in.Version) {
			v = in.Version
		}
	}
	return v
}

// notices are the releases to offer now: per skill and registry, the
// offered release when it is newer than an install and neither dismissed
// nor put off.
func (l *skillLookups) notices(store *notify.Store, now time.Time) []skillNotice {
	byKey := map[string]*skillNotice{}
	var keys []string
	for _, in := range l.installs {
		c := l.byReg[in.Registry]
		if c == nil || c.Failed != "" {
			continue
		}
		o := c.Skills[in.Name]
		if !o.Newer(in.Version) {
			continue
		}
		key := in.Registry + ":" + in.Name
		n := byKey[key]
		if n == nil {
			n = &skillNotice{name: in.Name, registry: in.Registry, url: l.urls[in.Registry], offer: o}
			byKey[key] = n
			keys = append(keys, key)
		}
		n.installs = append(n.installs, in)
	}
	slices.Sort(keys)
	var out []skillNotice
	for _, k := range keys {
		if n := byKey[k]; !store.Hidden(n.release(), now) {
			out = append(out, *n)
		}
	}
	return out
}

// offerSkills shows each skill release (at most maxSkillNotices) with its
// menu, and does what the user answers.
func (e *env) offerSkills(in *bufio.Reader, store *notify.Store, path string, ns []skillNotice, now time.Time) {
	for i, n := range ns {
		if i == maxSkillNotices {
			e.Info("%d more installed skills have newer releases: agent-skills outdated", len(ns)-i)
			return
		}
		e.offerSkill(in, store, path, n, now)
	}
}

// offerSkill shows one skill release and its menu until the user picks
// something other than details.
func (e *env) offerSkill(in *bufio.Reader, store *notify.Store, path string, n skillNotice, now time.Time) {
	v := n.offer.Version
	e.Info("%s %s is available (installed %s; %s; registry %s)", ui.Field(n.name), ui.Field(v), ui.Field(n.oldest()),
		ui.Field(installsText(n.installs)), ui.Field(n.registry))
	if notify.OutsideCaret(n.oldest(), v) {
		e.Info("  %s is outside ^%s: a new major version, which may change what the skill does", ui.Field(v), ui.Field(n.oldest()))
	}
	for {
		e.Info("  %s", notify.SkillMenu(ui.Field(v)))
		switch notify.ParseChoice(e.ask(in, choicePrompt), true) {
		case notify.Details:
			e.skillDetails(n)
			continue
		case notify.Update:
			e.acceptSkill(in, n)
		case notify.Remind:
			store.Remind(n.release(), now)
			e.saveStore(store, path, now)
			e.Info("%s %s: reminding you in 24 hours", ui.Field(n.name), ui.Field(v))
		case notify.Dismiss:
			store.Dismiss(n.release())
			e.saveStore(store, path, now)
			e.Info("%s %s dismissed; you will be told of its next release", ui.Field(n.name), ui.Field(v))
		}
		return
	}
}

// skillDetails prints what the registry's index says of the release.
func (e *env) skillDetails(n skillNotice) {
	e.Info("  %s from registry %s (%s)", ui.Field(n.name), ui.Field(n.registry), ui.Field(n.url))
	if n.offer.Description != "" {
		e.Info("  %s", ui.Field(n.offer.Description))
	}
	for _, in := range n.installs {
		e.Info("  installed %s: %s", ui.Field(in.Version), ui.Field(installsText([]skillset.RegistryInstall{in})))
	}
	var rels []string
	for _, r := range n.offer.Since(n.oldest()) {
		s := r.Version
		if d, _, _ := strings.Cut(r.PublishedAt, "T"); d != "" {
			s += " (" + d + ")"
		}
		rels = append(rels, s)
	}
	e.Info("  newer releases: %s", ui.Field(strings.Join(rels, ", ")))
	e.Info("  the update previews every change and asks before it writes; or run: agent-skills update %s", ui.Field(n.name))
}

// acceptSkill updates every older install of the notice's skill to the
// offered release, pinned: a version outside ^installed needs its own
// confirmation; then every install is previewed through the install
// pipeline (skillset's Update, a dry run), and the update runs only when
// no preview refuses — a modified install is not replaced, and a
// dependency the update would downgrade or move to a new major version
// is not approved here — and the user confirms.
func (e *env) acceptSkill(in *bufio.Reader, n skillNotice) {
	v := n.offer.Version
	if notify.OutsideCaret(n.oldest(), v) {
		q := fmt.Sprintf("%s %s is outside ^%s. Update to it anyway? [y/N]", ui.Field(n.name), ui.Field(v), ui.Field(n.oldest()))
		if !notify.Yes(e.ask(in, q)) {
			e.Info("%s not updated", ui.Field(n.name))
			return
		}
	}
	ref := n.registry + ":" + n.name + "@" + v
	var moves []notify.Move
	for _, inst := range n.installs {
		out, err := e.updateInstall(inst, ref, true)
		e.Report(out, false)
		// A preview that refuses an install edited by hand also fails
		// (the transaction is refused): the refusal is said first, with
		// the update that keeps the edits, not the error's Try, which
		// forces over them.
		if refusedInstall(out) {
			e.Info("%s not updated: an install was changed by hand. Try: agent-skills update %s --keep-local", ui.Field(n.name), ui.Field(ref))
			return
		}
		if err != nil {
			e.Error(err)
			e.Info("%s not updated; the command runs as asked", ui.Field(n.name))
			return
		}
		for _, r := range out.Results {
			moves = append(moves, notify.Move{Name: r.Name, From: r.Previous, To: r.Version})
		}
	}
	if bad := notify.Unapproved(moves, n.name); len(bad) > 0 {
		var what []string
		for _, m := range bad {
			what = append(what, fmt.Sprintf("%s %s → %s", m.Name, m.From, m.To))
		}
		e.Info("%s not updated: it would also move %s, which needs its own approval. Try: agent-skills update %s --dry-run",
			ui.Field(n.name), ui.Field(strings.Join(what, ", ")), ui.Field(ref))
		return
	}
	if !notify.Yes(e.ask(in, "Apply this update? [y/N]")) {
		e.Info("%s not updated", ui.Field(n.name))
		return
	}
	for _, inst := range n.installs {
		out, err := e.updateInstall(inst, ref, false)
		e.Report(out, false)
		if err != nil {
			e.Error(err)
			return
		}
	}
}

// refusedInstall reports whether an update preview refused an install
// (one changed by hand); out may be nil.
func refusedInstall(out *skillset.Outcome) bool {
	if out == nil {
		return false
	}
	for _, r := range out.Results {
		if r.Outcome == install.OutcomeRefused {
			return true
		}
	}
	return false
}

// updateInstall runs skillset's Update of ref for one install: its scope
// and its agents, never forcing over local edits.
func (e *env) updateInstall(inst skillset.RegistryInstall, ref string, dryRun bool) (*skillset.Outcome, error) {
	req := workspace.ScopeRequest{Global: true}
	if inst.Scope.Kind == agents.ScopeProject {
		req = workspace.ScopeRequest{Project: true, ProjectRoot: inst.Scope.Root}
	}
	s, err := skillset.Open(e.ctx, e.ws, skillset.Options{Scope: req, Agents: inst.Agents, Generator: generator(), Fault: e.faultHook()})
	if err != nil {
		return nil, err
	}
	return s.Update(e.ctx, skillset.UpdateRequest{Names: []string{ref}, DryRun: dryRun})
}

// installsText says where a skill is installed: "global for claude,
// codex; project /src/app for claude".
func installsText(ins []skillset.RegistryInstall) string {
	var parts []string
	for _, in := range ins {
		where := "global"
		if in.Scope.Kind == agents.ScopeProject {
			where = "project " + in.Scope.Root
		}
		if len(in.Agents) > 0 {
			where += " for " + strings.Join(in.Agents, ", ")
		}
		parts = append(parts, where)
	}
	return strings.Join(parts, "; ")
}
