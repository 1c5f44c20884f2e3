package resolve

// dead reports whether version i of e can never be part of any plan,
// whatever else is chosen: a dependency it requires is published nowhere,
// or has no version in range that is not dead itself. Deprecation is
// ignored (an exact range elsewhere may admit a deprecated version), so
// the verdict is sound; a version met again while it is being checked is
// assumed usable, which can only leave a dead version unpruned. Verdicts
// are kept per catalog entry across runs. The backtracking search skips
// dead versions, which keeps a missing skill deep in a graph from making
// it try every combination of the versions above it.
func (s *solver) dead(e *catalogEntry, i int) (bool, error) {
	if e.life == nil {
		e.life = make([]int8, len(e.vers))
	}
	switch e.life[i] {
	case 1, 3:
		return false, nil
	case 2:
		return true, nil
	}
	e.life[i] = 3
	verdict := int8(1)
	r, err := s.cat.requirements(e, i)
	if err != nil {
		e.life[i] = 0
		return false, err
	}
	for _, d := range r.deps {
		s.cat.prefetchVersions(d.Name)
	}
	for _, d := range r.deps {
		if d.Name == e.name {
			verdict = 2
			break
		}
		de, err := s.cat.entry(d.Name)
		if err != nil {
			e.life[i] = 0
			return false, err
		}
		if de.notFound {
			verdict = 2
			break
		}
		m, err := de.mask(d.Range, s.cat)
		if err != nil {
			continue // the search reports the bad range if it matters
		}
		usable := false
		for j := range de.vers {
			if !m.has(de, j) {
				continue
			}
			dj, err := s.dead(de, j)
			if err != nil {
				e.life[i] = 0
				return false, err
			}
			if !dj {
				usable = true
				break
			}
		}
		if !usable {
			verdict = 2
			break
		}
	}
	e.life[i] = verdict
	return verdict == 2, nil
}
