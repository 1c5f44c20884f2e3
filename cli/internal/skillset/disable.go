package skillset

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// This file switches skills off and on without uninstalling them: the
// use cases Disable and Enable, and the rule by which install, update and
// restore keep a skill in the state skills.lock records.

// ToggleRequest is what `agent-skills disable|enable <names…>` asks for.
type ToggleRequest struct {
	// Names are the installed skills to disable or enable.
	Names []string
	// Force renames the files of a skill the user changed, as they are.
	Force bool
	// DryRun plans and writes nothing.
	DryRun bool
}

// Disable hides installed skills from every agent without uninstalling
// them: each stays in its folders with its receipt and, in a project, its
// skills.lock entry, which records disabled: true, so that a teammate's
// restore installs it disabled too. install, update and the restore keep
// it disabled (an update moves its version as usual); uninstall removes
// it; Enable shows it again. The agents acted for are the session's, which
// the command makes every supported agent unless --agent names some: no
// agent is to see the skill. A skill locked but not installed here (a
// fresh clone) changes in skills.lock only.
func (s *Session) Disable(ctx context.Context, r ToggleRequest) (*Outcome, error) {
	return s.toggle(ctx, r, true)
}

// Enable makes disabled skills visible to their agents again (see
// Disable).
func (s *Session) Enable(ctx context.Context, r ToggleRequest) (*Outcome, error) {
	return s.toggle(ctx, r, false)
}

func (s *Session) toggle(ctx context.Context, r ToggleRequest, disabled bool) (*Outcome, error) {
	command := "enable"
	if disabled {
		command = "disable"
	}
	var flags []string
	if r.Force {
		flags = []string{"--force"}
	}
	p := s.begin(ctx, command, r.Names, flags, r.DryRun, nil)
	opts := p.installOptions(r.Force, r.DryRun)
	rep := &install.Report{DryRun: r.DryRun, Results: []install.Result{}}
	run := func() error {
		if _, err := p.finishInterrupted(r.DryRun); err != nil {
			return err
		}
		if !r.DryRun {
			var err error
			if p.lock, err = ReadLock(p.Scope.LockPath()); err != nil {
				return err
			}
		}
		targets, lockOnly, err := p.splitLocked(r.Names)
		if err != nil {
			return err
		}
		change := func() error {
			if len(targets) == 0 {
				return nil
			}
			var err error
			opts.Memo = p.memo
			rep, err = install.SetDisabled(ctx, targets, disabled, opts)
			if err != nil {
				refusedOnly(rep) // the transaction changed nothing
			}
			return err
		}
		if r.DryRun {
			err = change()
		} else {
			err = p.journalled(p.toggleJournal(r.Names, disabled), change)
		}
		if err != nil {
			return err
		}
		p.noteToggled(rep, lockOnly, disabled, r.DryRun)
		if disabled {
			p.warnRequired(r.Names)
		}
		return nil
	}
	err := p.lockedUnlessDry(r.DryRun, run)
	p.out.addReport(rep)
	return p.out, err
}

// splitLocked separates the names to switch in the agents' folders from
// those that only skills.lock records (locked, installed in none of the
// session's folders: a fresh clone), which change in the lock alone. A
// name neither installed nor locked stays in targets, for SetDisabled to
// report as not installed.
func (p *op) splitLocked(names []string) (targets, lockOnly []string, err error) {
	opts := p.installOptions(false, false)
	opts.Names = names
	found, err := install.Scan(p.ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	present := map[string]bool{}
	for _, in := range found {
		if len(in.Deprecated) < len(in.Readers) {
			present[in.Name] = true
		}
	}
	for _, n := range names {
		if slices.Contains(targets, n) || slices.Contains(lockOnly, n) {
			continue
		}
		_, locked := p.lockedEntry(n)
		if !present[n] && locked {
			lockOnly = append(lockOnly, n)
		} else {
			targets = append(targets, n)
		}
	}
	return targets, lockOnly, nil
}

// lockedEntry returns the skills.lock entry of name in project scope.
func (p *op) lockedEntry(name string) (e lockEntry, ok bool) {
	if !p.Scope.Project() || p.lock == nil {
		return lockEntry{}, false
	}
	l, ok := p.lock.Skills[name]
	if !ok {
		return lockEntry{}, false
	}
	return *entryOf(l), true
}

// toggleJournal is the journal of switching names: each locked one's
// entry before, and the same entry in the new state. Skills the lock does
// not record stay out of it (the lock records what install put there). It
// is nil outside project scope.
func (p *op) toggleJournal(names []string, disabled bool) *journal {
	if !p.Scope.Project() {
		return nil
	}
	j := newJournal(p.command, p.requested, p.flags, p.Scope, p.Agents)
	for _, n := range names {
		before, ok := p.lockedEntry(n)
		if !ok {
			continue
		}
		after := before
		after.Agents = slices.Clone(before.Agents)
		after.Dependencies = maps.Clone(before.Dependencies)
		after.Disabled = disabled
		j.Skills[n] = journalSkill{Change: changeInstall, Before: &before, After: &after}
	}
	return j
}

// noteToggled says what changed beyond the results: names recorded in
// skills.lock only, and how to undo.
func (p *op) noteToggled(rep *install.Report, lockOnly []string, disabled, dryRun bool) {
	state, undo := "enabled", "disable"
	if disabled {
		state, undo = "disabled", "enable"
	}
	if len(lockOnly) > 0 {
		verb := "recorded"
		if dryRun {
			verb = "would record"
		}
		p.info("not installed here for %s; skills.lock %s %s as %s, and a restore (agent-skills install) installs %s so: %s",
			agentList(p.Agents), verb, pronoun(lockOnly), state, pronoun(lockOnly), nameList(lockOnly))
	}
	var changed []string
	for _, r := range rep.Results {
		if (r.Outcome == install.OutcomeDisabled || r.Outcome == install.OutcomeEnabled) && !slices.Contains(changed, r.Name) {
			changed = append(changed, r.Name)
		}
	}
	if len(changed) > 0 && disabled && !dryRun {
		p.info("no agent lists %s until agent-skills %s %s", nameList(changed), undo, nameList(changed))
	}
}

// warnRequired warns when a skill being disabled is required by one that
// stays visible: agents still list that one, and what it points to is
// gone from their view. It is not refused: the bytes stay installed, and
// the user may mean it.
func (p *op) warnRequired(names []string) {
	g, err := p.installedGraph()
	if err != nil {
		return
	}
	off := map[string]bool{}
	for _, n := range names {
		off[n] = true
	}
	var pairs []string
	for _, s := range slices.Sorted(maps.Keys(g.deps)) {
		if off[s] {
			continue
		}
		for _, d := range slices.Sorted(maps.Keys(g.deps[s])) {
			if off[d] {
				pairs = append(pairs, s+" requires "+d)
			}
		}
	}
	if len(pairs) > 0 {
		p.warn("%s: agents still list what requires a disabled skill; disable it too, or enable the dependency again",
			strings.Join(pairs, ", "))
	}
}

// pronoun is "it" or "them" for names.
func pronoun(names []string) string {
	if len(names) == 1 {
		return "it"
	}
	return "them"
}

// wantedStates returns, for each fetched package, whether it is to be
// installed disabled: as its skills.lock entry records in a project, and
// otherwise (global scope, or a skill the lock does not record) when any
// folder of the scope, of any agent, holds it disabled — a disabled skill
// installed for one more agent stays disabled.
func (p *op) wantedStates(fs []fetched) (map[string]bool, error) {
	out := map[string]bool{}
	var unlocked []string
	seen := map[string]bool{} // not slices.Contains: a run may hold 10,000 packages
	for _, f := range fs {
		if e, ok := p.lockedEntry(f.name); ok {
			out[f.name] = e.Disabled
		} else if !seen[f.name] {
			seen[f.name] = true
			unlocked = append(unlocked, f.name)
		}
	}
	if len(unlocked) == 0 {
		return out, nil
	}
	found, err := p.scanEverywhere(unlocked)
	if err != nil {
		return nil, err
	}
	for _, in := range found {
		if in.Disabled && in.State != install.StateUnmanaged && in.State != install.StateReceiptBroken {
			out[in.Name] = true
		}
	}
	return out, nil
}

// switchStates puts every package of rep into the state states wants, in
// the roots that hold it in the other one (Install keeps the state a
// receipt records: a restore after a teammate disabled or enabled a skill
// switches it here), and says which skills stay disabled. Its results
// join rep's.
func (p *op) switchStates(rep *install.Report, states map[string]bool, force, dryRun bool) error {
	var names []string
	seen := map[string]bool{} // not slices.Contains: a run may hold 10,000 packages
	for _, r := range rep.Results {
		if r.Root != "" && !seen[r.Name] {
			seen[r.Name] = true
			names = append(names, r.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	opts := p.installOptions(force, dryRun)
	// Only the receipts' states are needed, not the files: the run wrote
	// them a moment ago.
	opts.Names, opts.ReceiptsOnly = names, true
	// Taken as the scan finds them, not listed: after an install of
	// 10,000 skills the list held 20,000 packages (9 MB) for a bit each.
	flip := map[bool][]string{}
	var stays []string
	staying, flipping := map[string]bool{}, map[string]bool{}
	err := install.ScanEach(p.ctx, opts, func(in install.Installed) error {
		if in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
			return nil
		}
		want := states[in.Name]
		if want && !staying[in.Name] {
			staying[in.Name] = true
			stays = append(stays, in.Name)
		}
		// A name flips one way only: it is in flip[want] for the one want
		// states has for it.
		if in.Disabled != want && !flipping[in.Name] {
			flipping[in.Name] = true
			flip[want] = append(flip[want], in.Name)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, want := range []bool{true, false} {
		if len(flip[want]) == 0 {
			continue
		}
		more, err := install.SetDisabled(p.ctx, flip[want], want, opts)
		if more != nil {
			if err != nil {
				refusedOnly(more)
			}
			for _, r := range more.Results {
				if r.Outcome != install.OutcomeUnchanged {
					rep.Results = append(rep.Results, r)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if len(stays) > 0 {
		slices.Sort(stays)
		p.note("%s %s disabled: no agent lists %s until agent-skills enable %s",
			nameList(stays), isAre(stays), pronoun(stays), nameList(stays))
	}
	return nil
}

// isAre is "is" or "are" for names.
func isAre(names []string) string {
	if len(names) == 1 {
		return "is"
	}
	return "are"
}
