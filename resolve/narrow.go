package resolve

// maxNarrowRounds bounds the rounds of narrow.
const maxNarrowRounds = 64

// narrow guesses a consistent version for every name reachable from
// roots, to guide the backtracking search after the greedy pass failed.
// It starts from the version each name would get on its own (its lock pin
// or its highest eligible version), collects every range that the
// guessed versions place on each name, and moves each name down to the
// highest version that satisfies all of them; it repeats until nothing
// moves. Versions only ever move down, so it terminates.
//
// The guess is only an ordering hint: the search still checks every
// choice, so a wrong guess costs time, never correctness. Without it the
// search would keep discovering, one backjump at a time, ranges that only
// arrive after the name they constrain has been chosen.
func narrow(cat *catalog, roots []root) (map[string]int, error) {
	sel := make(map[string]int)
	for range maxNarrowRounds {
		entries := make(map[string]*catalogEntry)
		cons := make(map[string][]*rangeMask)
		var order []string
		add := func(name, rng string) error {
			e, err := cat.entry(name)
			if err != nil || e.notFound {
				return err
			}
			m, err := e.mask(rng, cat)
			if err != nil {
				return nil // reported by the search if it matters
			}
			if _, ok := entries[name]; !ok {
				entries[name] = e
				order = append(order, name)
			}
			cons[name] = append(cons[name], m)
			return nil
		}
		for _, r := range roots {
			if err := add(r.name, r.rng); err != nil {
				return nil, err
			}
		}
		// Walk the graph the current guess implies, collecting ranges.
		for i := 0; i < len(order); i++ {
			name := order[i]
			e := entries[name]
			idx, ok := sel[name]
			if !ok {
				idx = pick(e, cons[name], 0)
				if idx < 0 {
					continue
				}
				sel[name] = idx
			}
			r, err := cat.requirements(e, idx)
			if err != nil {
				return nil, err
			}
			for _, d := range r.deps {
				cat.prefetchVersions(d.Name)
			}
			for _, d := range r.deps {
				if err := add(d.Name, d.Range); err != nil {
					return nil, err
				}
			}
		}
		moved := false
		for _, name := range order {
			e := entries[name]
			cur, ok := sel[name]
			if !ok {
				continue
			}
			if next := pick(e, cons[name], cur); next >= 0 && next != cur {
				sel[name] = next
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return sel, nil
}

// pick returns the lock pin of e when it satisfies cs, or else the highest
// eligible version that satisfies cs, not above version index from (the
// versions are sorted highest first); -1 when there is none.
func pick(e *catalogEntry, cs []*rangeMask, from int) int {
	ok := func(i int) bool {
		exact := i == int(e.pin)
		for _, m := range cs {
			if !m.has(e, i) {
				return false
			}
			exact = exact || m.exact == i
		}
		return !e.vers[i].deprecated || exact
	}
	if e.pin >= 0 && ok(int(e.pin)) {
		return int(e.pin)
	}
	for i := from; i < len(e.vers); i++ {
		if ok(i) {
			return i
		}
	}
	return -1
}
