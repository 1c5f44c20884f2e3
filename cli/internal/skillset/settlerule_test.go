package skillset

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// The settler, fed one package at a time, settles every lock exactly as
// the rule did over the whole list of what the roots hold (refSettle, the
// code it replaced): the same skills.lock bytes, the same changed, done
// and partial, on random journals, locks and roots — removals, installs,
// restores, disables, unmanaged and broken receipts, deprecated roots,
// receipts naming agents the roots' readers lack.
func TestSettlerIsTheRule(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 29))
	ids := []string{"claude-code", "codex", "gemini-cli"}
	subset := func(from []string) []string {
		var out []string
		for _, a := range from {
			if r.IntN(2) == 0 {
				out = append(out, a)
			}
		}
		return out
	}
	versions := []struct{ v, sum string }{{"1.0.0", sum1}, {"1.1.0", sum2}, {"1.0.0", sum2}}
	entryAt := func(deps map[string]string) resolve.LockedSkill {
		v := versions[r.IntN(len(versions))]
		e := entry(v.v, v.sum, subset(ids), deps)
		e.Disabled = r.IntN(3) == 0
		return e
	}
	names := []string{"app", "lib", "util"}
	for i := range 3000 {
		lock := lockOf(map[string]resolve.LockedSkill{})
		j := &journal{Agents: subset(ids), Skills: map[string]journalSkill{}}
		for _, n := range names {
			var deps map[string]string
			if n == "app" && r.IntN(2) == 0 {
				deps = map[string]string{"lib": versions[r.IntN(2)].v}
			}
			before := entryAt(deps)
			switch r.IntN(4) {
			case 0: // not journalled
				if r.IntN(2) == 0 {
					lock.Skills[n] = before
				}
				continue
			case 1:
				js := journalSkill{Change: changeRemove}
				if r.IntN(4) > 0 {
					js.Before = entryOf(before)
				}
				j.Skills[n] = js
			default:
				js := journalSkill{Change: changeInstall, After: entryOf(entryAt(deps))}
				switch r.IntN(4) {
				case 0:
				case 1: // the same bytes: a restore, a disable or an enable
					js.Before = entryOf(before)
					js.After.Version, js.After.Integrity = before.Version, before.Integrity
				default:
					js.Before = entryOf(before)
				}
				j.Skills[n] = js
			}
			switch r.IntN(4) {
			case 0: // absent
			case 1: // changed since
				lock.Skills[n] = entryAt(nil)
			default:
				if js := j.Skills[n]; js.Before != nil && r.IntN(3) > 0 {
					lock.Skills[n] = js.Before.locked()
				} else if js.After != nil {
					lock.Skills[n] = js.After.locked()
				}
			}
		}
		var found []install.Installed
		states := []install.State{install.StateOK, install.StateOK, install.StateModified, install.StateUnmanaged, install.StateReceiptBroken}
		for range r.IntN(7) {
			v := versions[r.IntN(len(versions))]
			readers := subset(ids)
			in := install.Installed{Name: names[r.IntN(len(names))], Version: v.v, Integrity: v.sum,
				State: states[r.IntN(len(states))], Readers: readers, Deprecated: subset(readers),
				Agents: subset(append(slices.Clone(ids), "other")), Disabled: r.IntN(2) == 0}
			found = append(found, in)
		}
		var l *resolve.Lock
		if r.IntN(5) > 0 {
			l = lock
		}
		got, want := settle(l, j, found), refSettle(l, j, found)
		if enc(got.lock) != enc(want.lock) || got.changed != want.changed ||
			!slices.Equal(got.done, want.done) || !slices.Equal(got.partial, want.partial) {
			t.Fatalf("case %d: settle =\n%s changed %v done %v partial %v\nthe rule gives\n%s changed %v done %v partial %v\njournal %+v\nfound %+v",
				i, enc(got.lock), got.changed, got.done, got.partial, enc(want.lock), want.changed, want.done, want.partial, j.Skills, found)
		}
	}
}

func enc(l *resolve.Lock) string {
	if l == nil {
		return "<nil>"
	}
	return string(l.Encode())
}

// What follows is settle as it was before the settler (skillset at
// 051a389), over the whole list, kept as the oracle of the test above.

func refSettle(l *resolve.Lock, j *journal, found []install.Installed) settled {
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
	// Each journalled name looks only at what the roots hold under that
	// name: grouped once, not scanned in full for every name (10,000
	// skills made that quadratic).
	byName := map[string][]install.Installed{}
	for _, in := range found {
		byName[in.Name] = append(byName[in.Name], in)
	}
	var res settled
	for _, name := range slices.Sorted(maps.Keys(j.Skills)) {
		js := j.Skills[name]
		found := byName[name]
		cur, has := out.Skills[name]
		if !ours(cur, has, js) {
			continue
		}
		var entry *resolve.LockedSkill
		done := true
		switch js.Change {
		case changeRemove:
			entry, done = settleRemove(js.Before, refSeenBy(found, name), selected)
		case changeInstall:
			entry, done = refSettleInstall(js, name, found)
			if entry != nil {
				var stateDone bool
				entry.Disabled, stateDone = refSettleState(js, name, entry.Version, found)
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

func refSettleInstall(js journalSkill, name string, found []install.Installed) (*resolve.LockedSkill, bool) {
	after := heldBy(found, name, js.After)
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
	before := heldBy(found, name, js.Before)
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

func refSettleState(js journalSkill, name, version string, found []install.Installed) (disabled, done bool) {
	want := js.After.Disabled
	reached, behind := false, false
	for _, in := range found {
		if in.Name != name || in.Version != version || in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
			continue
		}
		if in.Disabled == want {
			reached = true
		} else {
			behind = true
		}
	}
	if js.Before != nil && js.Before.Disabled != want && behind && !reached {
		return js.Before.Disabled, false
	}
	return want, !behind
}

func refSeenBy(found []install.Installed, name string) map[string]bool {
	out := map[string]bool{}
	for _, in := range found {
		if in.Name != name || in.State == install.StateUnmanaged {
			continue
		}
		for _, a := range in.Readers {
			if !slices.Contains(in.Deprecated, a) {
				out[a] = true
			}
		}
	}
	return out
}
