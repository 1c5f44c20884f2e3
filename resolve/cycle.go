package resolve

// path finds a chain of selected dependency edges from a to b, or nil.
// Each returned edge names its target; the first target follows a.
func (s *solver) path(a, b *node) []edge {
	seen := map[*node]bool{a: true}
	var walk func(x *node) []edge
	walk = func(x *node) []edge {
		if x == b {
			return []edge{}
		}
		for _, e := range x.deps {
			if seen[e.to] {
				continue
			}
			seen[e.to] = true
			if rest := walk(e.to); rest != nil {
				return append([]edge{e}, rest...)
			}
		}
		return nil
	}
	return walk(a)
}

// findCycle returns the first dependency cycle among the selected
// versions, as the edges around it, or nil.
func (s *solver) findCycle() []edge {
	const (
		white = iota
		grey
		black
	)
	color := make(map[*node]int, len(s.queue))
	var stack []edge
	var walk func(x *node) []edge
	walk = func(x *node) []edge {
		color[x] = grey
		for _, e := range x.deps {
			switch color[e.to] {
			case grey:
				// The cycle is the stack from e.to's entry edge onwards.
				start := len(stack)
				for start > 0 && stack[start-1].to != e.to {
					start--
				}
				cyc := append([]edge{}, stack[start:]...)
				return append(cyc, e)
			case white:
				stack = append(stack, e)
				if c := walk(e.to); c != nil {
					return c
				}
				stack = stack[:len(stack)-1]
			}
		}
		color[x] = black
		return nil
	}
	for _, n := range s.queue {
		if color[n] == white {
			stack = stack[:0]
			if c := walk(n); c != nil {
				return c
			}
		}
	}
	return nil
}
