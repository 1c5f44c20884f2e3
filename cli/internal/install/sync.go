package install

import (
	"path/filepath"
	"slices"
)

// syncer collects what a phase wrote so that it can be made durable in one
// go before the next phase depends on it.
type syncer struct {
	// roots are the agent roots written to.
	roots []string
	// paths are the files and folders written, for systems that sync
	// one file at a time.
	paths []string
}

// root records an agent root the phase writes below.
func (s *syncer) root(r string) {
	if !slices.Contains(s.roots, r) {
		s.roots = append(s.roots, r)
	}
}

// add records a written file, and its folder, where flush syncs them
// one by one (syncsPaths).
func (s *syncer) add(p string) {
	if syncsPaths {
		s.paths = append(s.paths, p, filepath.Dir(p))
	}
}

// merge adds what o recorded.
func (s *syncer) merge(o *syncer) {
	for _, r := range o.roots {
		s.root(r)
	}
	s.paths = append(s.paths, o.paths...)
}
