package skillset

import (
	"maps"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// settled is the outcome of settle: the lock to write and, for messages,
// which journalled changes are in place.
type settled struct {
	// lock is the lock that matches the roots; nil when there was no lock
	// and nothing is to be recorded.
	lock *resolve.Lock
	// changed tells whether lock differs from the lock given.
	changed bool
	// done are the journalled names whose change is in place for every
	// agent that holds them; partial are those whose change is not (a
	// removal some agents still see, an install still at the old version
	// somewhere). Names whose entry someone else changed since are in
	// neither.
	done, partial []string
}

// settle returns the lock that records what the agent roots hold for the
// names j journals, given what install.Scan finds in the roots of j's
// agents (after install.Recover, or as Scan resolves pending receipts in
// memory). It is the single rule by which skills.lock follows a command's
// roots transaction, used when the command completes and when the next
// run finds its journal left behind by a kill. It reads nothing and
// writes nothing.
//
// For a removal the entry keeps only the agents whose root still holds
// the skill as agent-skills installed it, with its receipt (and those the
// command did not act for); it goes when none is left. A removal is thus
// rolled forward as far as the roots went, never undone: the next restore
// cannot bring back what the user was removing.
//
// For an install the entry moves to the new version once an agent's root
// holds it. While another agent still holds the old version, the old entry
// stays, for those agents only, so that running the command again, or
// update, moves the rest. An agent whose copy is missing altogether keeps
// its place in the entry: on a fresh clone nothing is installed yet, and
// that is what a restore is for.
//
// An entry someone changed since the journal was written (a checkout of
// another skills.lock) is left alone. Finally, every dependency version an
// entry records is made to name the version the lock holds, so that the
// lock always reads back: when the roots hold a dependency at another
// version than the one an entry was resolved with, the lock says so.
func settle(l *resolve.Lock, j *journal, found []install.Installed) settled {
	s := newSettler(j)
	for _, in := range found {
		s.add(in)
	}
	return s.settle(l)
}

// settler is settle fed one package at a time (install.ScanEach), keeping
// of each only what the rule reads (see sighting): settling after an
// install of 10,000 skills held every package of the scan, 17 MB, to read
// a few bits of each.
type settler struct {
	j *journal
	// agents numbers the agents the packages are read by, for agentSet.
	agents agentIndex
	// seen is, by journalled name, what the roots hold of it.
	seen map[string]sighting
}

// sighting is what the roots hold of one journalled name, as the rule
// reads it. seen are the agents whose root, one they do not read only for
// compatibility, holds an install of the name that agent-skills made: one
// with a receipt, changed or not, readable or not (a folder without one —
// left holding only the user's files, or put there by hand — is not a
// skill agent-skills installed, and the lock records no other kind).
// after and before are those of them whose root holds it at the version
// and digest of the journal's After and Before, by a readable receipt
// that names the agent (heldBy). afterWant and afterOther say that a root
// holds After's version, by a readable receipt, in the state After
// records or in the other; beforeWant and beforeOther the same of
// Before's version (settleState).
type sighting struct {
	seen, after, before     agentSet
	afterWant, afterOther   bool
	beforeWant, beforeOther bool
}

func newSettler(j *journal) *settler {
	return &settler{j: j, seen: map[string]sighting{}}
}

// add takes in, a package of the roots of j's agents as install.Scan
// reports it.
func (s *settler) add(in install.Installed) {
	js, ok := s.j.Skills[in.Name]
	if !ok || in.State == install.StateUnmanaged {
		return
	}
	sg := s.seen[in.Name]
	// The readers that do not read the root only for compatibility.
	readers := s.agents.add(in.Readers) &^ s.agents.of(in.Deprecated)
	sg.seen |= readers
	if in.State != install.StateReceiptBroken {
		// The agents the receipt names among those.
		held := s.agents.of(in.Agents) & readers
		if holds(in, js.After) {
			sg.after |= held
		}
		if holds(in, js.Before) {
			sg.before |= held
		}
		if js.After != nil {
			want := in.Disabled == js.After.Disabled
			if in.Version == js.After.Version {
				sg.afterWant, sg.afterOther = sg.afterWant || want, sg.afterOther || !want
			}
			if js.Before != nil && in.Version == js.Before.Version {
				sg.beforeWant, sg.beforeOther = sg.beforeWant || want, sg.beforeOther || !want
			}
		}
	}
	s.seen[in.Name] = sg
}

// holds reports whether in, a package with a readable receipt, is e's
// version and digest.
func holds(in install.Installed, e *lockEntry) bool {
	return e != nil && in.Version == e.Version && sameIntegrity(in.Integrity, e.Integrity)
}

// settle returns the settled lock of l (see settle) from what add took.
func (s *settler) settle(l *resolve.Lock) settled {
	j := s.j
	out := &resolve.Lock{LockfileVersion: resolve.LockfileVersion, Skills: map[string]resolve.LockedSkill{}}
	if l != nil {
		out.LockfileVersion, out.GeneratedWith, out.Registries = l.LockfileVersion, l.GeneratedWith, maps.Clone(l.Registries)
		for n, s := range l.Skills {
			out.Skills[n] = s
		}
	}
	selected := map[string]bool{}
	for _, a := range j.Agents {
		selected[a] = true
	}
	var res settled
	for _, name := range slices.Sorted(maps.Keys(j.Skills)) {
		js := j.Skills[name]
		sg := s.seen[name]
		cur, has := out.Skills[name]
		if !ours(cur, has, js) {
			continue
		}
		var entry *resolve.LockedSkill
		done := true
		switch js.Change {
		case changeRemove:
			entry, done = settleRemove(js.Before, s.agents.members(sg.seen), selected)
		case changeInstall:
			entry, done = settleInstall(js, s.agents.members(sg.after), s.agents.members(sg.before))
			if entry != nil {
				var stateDone bool
				entry.Disabled, stateDone = settleState(js, entry.Version, sg)
				done = done && stateDone
			}
		}
		if entry == nil {
			delete(out.Skills, name)
		} else {
			out.Skills[name] = *entry
		}
		if done {
			res.done = append(res.done, name)
		} else {
			res.partial = append(res.partial, name)
		}
	}
	repairDependencies(out, j)
	res.changed = l == nil && len(out.Skills) > 0 || l != nil && string(l.Encode()) != string(out.Encode())
	if l != nil || len(out.Skills) > 0 {
		res.lock = out
	}
	return res
}

// agentSet is a set of agents, by their number in an agentIndex.
type agentSet uint64

// agentIndex numbers agent ids, up to 64: the readers of a scan are the
// agents selected from the agent table, which has nine.
type agentIndex struct{ ids []string }

// add returns the set of ids, numbering those it has not seen.
func (x *agentIndex) add(ids []string) agentSet {
	var s agentSet
	for _, id := range ids {
		i := slices.Index(x.ids, id)
		if i < 0 {
			if len(x.ids) == 64 {
				panic("skillset: more than 64 agents read the roots")
			}
			i = len(x.ids)
			x.ids = append(x.ids, id)
		}
		s |= 1 << i
	}
	return s
}

// of returns the set of the ids it numbers among ids.
func (x *agentIndex) of(ids []string) agentSet {
	var s agentSet
	for _, id := range ids {
		if i := slices.Index(x.ids, id); i >= 0 {
			s |= 1 << i
		}
	}
	return s
}

// members returns the ids of s as a set; nil for none, which reads as
// an empty one.
func (x *agentIndex) members(s agentSet) map[string]bool {
	if s == 0 {
		return nil
	}
	out := map[string]bool{}
	for i, id := range x.ids {
		if s&(1<<i) != 0 {
			out[id] = true
		}
	}
	return out
}

// ours reports whether the lock's entry for a journalled skill is still
// the one the journal knows: as it was before the command, as the
// command meant it, or absent where it was absent before.
func ours(cur resolve.LockedSkill, has bool, js journalSkill) bool {
	if !has {
		return js.Before == nil
	}
	return sameEntry(cur, js.Before) || sameEntry(cur, js.After)
}

// sameEntry reports whether a lock entry pins the same bytes from the
// same place as a journalled one; agents and dependencies may differ.
func sameEntry(s resolve.LockedSkill, e *lockEntry) bool {
	return e != nil && s.Version == e.Version && s.Registry == e.Registry && s.Source == e.Source &&
		s.Ref == e.Ref && s.Commit == e.Commit && s.Subpath == e.Subpath && s.Resolved == e.Resolved &&
		sameIntegrity(s.Integrity, e.Integrity)
}

// sameIntegrity compares two digests whatever their encoding; two empty
// ones are the same (nothing was recorded).
func sameIntegrity(a, b string) bool {
	return a == b || format.SameIntegrity(a, b)
}

// settleRemove is the entry of a skill being removed: before, with only
// the agents that still see it or that the command did not act for.
func settleRemove(before *lockEntry, sees map[string]bool, selected map[string]bool) (*resolve.LockedSkill, bool) {
	done := true
	for a := range sees {
		if selected[a] {
			done = false
		}
	}
	if before == nil {
		return nil, done
	}
	e := before.locked()
	var left []string
	for _, a := range e.Agents {
		if !selected[a] || sees[a] {
			left = append(left, a)
		}
	}
	if len(left) == 0 {
		return nil, done
	}
	e.Agents = left
	return &e, done
}

// settleInstall is the entry of a skill being installed (see settle),
// given the agents whose roots hold it at the journal's After and Before
// (heldBy).
func settleInstall(js journalSkill, after, before map[string]bool) (*resolve.LockedSkill, bool) {
	withAfter := func() *resolve.LockedSkill {
		e := js.After.locked()
		e.Agents = sortedAgents(append(e.Agents, keys(after)...))
		return &e
	}
	if js.Before == nil {
		if len(after) == 0 {
			return nil, false
		}
		return withAfter(), true
	}
	if sameBytes(js.Before, js.After) {
		// A restore, a reinstall or new dependency versions: the bytes
		// stay, the entry takes the agents that hold them and the new
		// dependencies once any root holds them.
		if len(after) == 0 {
			e := js.Before.locked()
			return &e, false
		}
		return withAfter(), true
	}
	switch {
	case len(after) == 0:
		e := js.Before.locked()
		return &e, false
	case len(before) == 0:
		return withAfter(), true
	}
	// Some agents moved, some did not: the lock keeps the old version for
	// those that still hold it, so that the command run again moves them.
	e := js.Before.locked()
	var left []string
	for _, a := range e.Agents {
		if !after[a] {
			left = append(left, a)
		}
	}
	e.Agents = left
	return &e, false
}

// settleState is the disabled state of the entry a skill being installed
// keeps at version (agent-skills disable and enable, and a restore that
// puts the locked state in place): the journalled state, unless roots
// hold the skill at that version only in the state it had before — a
// change of state goes as far as the roots went, like a removal, and one
// that no root holds (a fresh clone) is the lock's alone. done is false
// while a root still holds that version in the other state.
func settleState(js journalSkill, version string, sg sighting) (disabled, done bool) {
	want := js.After.Disabled
	// The entry is at After's version or at Before's (settleInstall).
	reached, behind := sg.afterWant, sg.afterOther
	if version != js.After.Version {
		reached, behind = sg.beforeWant, sg.beforeOther
	}
	if js.Before != nil && js.Before.Disabled != want && behind && !reached {
		return js.Before.Disabled, false
	}
	return want, !behind
}

// sameBytes reports whether two journalled entries pin the same version
// and digest.
func sameBytes(a, b *lockEntry) bool {
	return a.Version == b.Version && sameIntegrity(a.Integrity, b.Integrity)
}

// heldBy returns the agents whose root holds name at e's version and
// digest, by its receipt.
func heldBy(found []install.Installed, name string, e *lockEntry) map[string]bool {
	out := map[string]bool{}
	for _, in := range found {
		if in.Name != name || in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken ||
			in.Version != e.Version || !sameIntegrity(in.Integrity, e.Integrity) {
			continue
		}
		for _, a := range in.Agents {
			if slices.Contains(in.Readers, a) && !slices.Contains(in.Deprecated, a) {
				out[a] = true
			}
		}
	}
	return out
}

// keys returns a set's members, sorted.
func keys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

// repairDependencies makes every recorded dependency name the version the
// lock holds. A dependency missing from the lock is taken back from the
// journal when it has an entry at that version (the lock then names a
// skill the roots lack, which a restore installs); failing that, the
// dependency is dropped from the entry. Neither happens when the roots
// changed in the order the commands use (dependencies installed first,
// removed last); both keep the lock readable whatever happened.
func repairDependencies(l *resolve.Lock, j *journal) {
	for range len(j.Skills) + 1 {
		again := false
		for _, name := range slices.Sorted(maps.Keys(l.Skills)) {
			s := l.Skills[name]
			deps := maps.Clone(s.Dependencies)
			for _, d := range slices.Sorted(maps.Keys(s.Dependencies)) {
				v := s.Dependencies[d]
				if dep, ok := l.Skills[d]; ok {
					deps[d] = dep.Version
					continue
				}
				if js, ok := j.Skills[d]; ok {
					if e := js.entryAt(v); e != nil {
						l.Skills[d] = e.locked()
						again = true
						continue
					}
				}
				delete(deps, d)
			}
			s.Dependencies = deps
			l.Skills[name] = s
		}
		if !again {
			return
		}
	}
}

// entryAt returns the journalled entry of the skill at version v, if any.
func (js journalSkill) entryAt(v string) *lockEntry {
	for _, e := range []*lockEntry{js.After, js.Before} {
		if e != nil && e.Version == v {
			return e
		}
	}
	return nil
}
