package install

import (
	"hash/maphash"
	"slices"
	"sync"
)

// lists hands out one copy of each list of strings it is given, shared:
// the results of an install name the same files and the same readers
// again and again (10,000 packages of one layout into two roots made
// 20,000 copies of a handful of lists, 1.7 MB held until the command
// ended). The copies are clipped, so that an append to one copies it;
// nothing changes a result's lists in place. One install shares one
// lists between its planning goroutines.
type lists struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[uint64][][]string
	n    int
}

// maxLists bounds the lists kept: past it, a list no one shared yet is
// copied as it would be without sharing.
const maxLists = 4096

func newLists() *lists {
	return &lists{seed: maphash.MakeSeed(), m: map[uint64][][]string{}}
}

// of returns the shared copy of the list of n strings at(0)…at(n-1); nil
// for none. A nil lists copies.
func (ls *lists) of(n int, at func(int) string) []string {
	if n == 0 {
		return nil
	}
	fresh := func() []string {
		out := make([]string, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}
	if ls == nil {
		return fresh()
	}
	var h maphash.Hash
	h.SetSeed(ls.seed)
	for i := range n {
		h.WriteString(at(i))
		h.WriteByte(0)
	}
	key := h.Sum64()
	ls.mu.Lock()
	defer ls.mu.Unlock()
next:
	for _, l := range ls.m[key] {
		if len(l) != n {
			continue
		}
		for i, s := range l {
			if s != at(i) {
				continue next
			}
		}
		return l
	}
	out := fresh()
	if ls.n < maxLists {
		ls.n++
		ls.m[key] = append(ls.m[key], slices.Clip(out))
	}
	return out
}

// strings is of for a slice.
func (ls *lists) strings(list []string) []string {
	return ls.of(len(list), func(i int) string { return list[i] })
}
