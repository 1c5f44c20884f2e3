package install

import (
	"errors"
	"fmt"
	"os"
	"slices"
)

// run executes the transactions in phases — stage all, write the pending
// receipts, swap all, commit all receipts — making each phase durable
// before the next depends on it (staging and the pending receipts
// together, before the swaps), then removes what is left over. When a
// step fails, a hook returns an error, panics or calls runtime.Goexit,
// every transaction is undone, latest first, and the error is returned
// (a panic continues after the undo).
func run(txns []*txn, opts *Options) (err error) {
	if len(txns) == 0 {
		return nil
	}
	if err := checkAliases(txns); err != nil {
		return err
	}
	var s syncer
	m := madeDirs{v: opts.meta()}
	m.v.writing()
	done := false
	defer func() {
		if done {
			return
		}
		for _, t := range txns {
			// Undoing rewrites receipts: the view lists them again.
			m.v.forget(t.root)
		}
		if err == nil {
			// A panic or runtime.Goexit is unwinding.
			err = errors.New("install interrupted")
		}
		var undoErrs []error
		failed := map[string]bool{}
		for i := len(txns) - 1; i >= 0; i-- {
			if uerr := txns[i].undo(&s); uerr != nil {
				undoErrs = append(undoErrs, uerr)
				failed[txns[i].root] = true
			}
		}
		for root, p := range m.journals {
			// A root whose undo failed keeps its journal: the next run's
			// recovery settles whichever version is in place.
			if !failed[root] {
				if rerr := removeFile(p); rerr != nil {
					undoErrs = append(undoErrs, rerr)
				}
				s.root(root)
			}
		}
		if ferr := s.flush(); ferr != nil {
			undoErrs = append(undoErrs, ferr)
		}
		if len(undoErrs) > 0 {
			err = errors.Join(err, fmt.Errorf("putting the old versions back failed; run the command again to recover: %w", errors.Join(undoErrs...)))
		}
	}()

	if err := stageAll(txns, &s); err != nil {
		return err
	}
	// The staged copies and the run journals (the pending receipts) are
	// made durable by one flush, before the first swap: the swap is the
	// first step that needs either, and neither needs the other (a pending
	// receipt whose staged copy was lost in a crash is one whose swap never
	// happened, which recovery discards).
	for range txns {
		if err := hookAt(opts, PointStaged); err != nil {
			return err
		}
	}
	if err := writeJournals(txns, &s, &m); err != nil {
		return err
	}
	if err := s.flush(); err != nil {
		return err
	}
	for _, t := range txns {
		if err := hookAt(opts, PointBeforeSwap); err != nil {
			return err
		}
		if err := t.swap(opts, &m); err != nil {
			return err
		}
		s.root(t.root)
		if err := hookAt(opts, PointAfterSwap); err != nil {
			return err
		}
	}
	if err := s.flush(); err != nil {
		return err
	}
	for _, t := range txns {
		if err := hookAt(opts, PointBeforeReceipt); err != nil {
			return err
		}
		if err := t.commit(&s, &m); err != nil {
			return err
		}
		if err := hookAt(opts, PointAfterReceipt); err != nil {
			return err
		}
	}
	if err := s.flush(); err != nil {
		return err
	}
	done = true
	// Everything is committed: a leftover that cannot be removed now is
	// removed by the next run's recovery.
	_ = cleanupAll(txns, &m)
	return nil
}

// stageWorkers bounds the goroutines that stage packages at once.
const stageWorkers = 4

// stageAll prepares and stages every transaction. Each stages its own
// package folder (or file) from its own files, so they run on up to
// stageWorkers goroutines, as many as the machine has processors: creating
// files is most of an install's time, and the kernel creates them in
// parallel. A staged transaction drops its files (the package's bytes,
// which nothing after staging reads). Once one fails no other is started, and the error returned is
// that of the first failed transaction in order, so that it does not
// depend on the timing; what the others staged, the caller's undo removes
// as it does after a sequential failure. A panic in a worker is re-raised
// here, after every worker stopped.
func stageAll(txns []*txn, s *syncer) error {
	var sd stageDirs
	defer sd.close()
	errs := make([]error, len(txns))
	subs := make([]syncer, len(txns))
	inOrder(len(txns), stageWorkers, func(_, i int) bool {
		txns[i].prepare()
		if errs[i] = txns[i].doStage(&subs[i], &sd); errs[i] != nil {
			return true
		}
		txns[i].files = nil // staged: let the package's bytes go
		return false
	})
	for i := range subs {
		s.merge(&subs[i])
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hookAt calls the fault-injection hook for point.
func hookAt(opts *Options, point string) error {
	if err := opts.hook(point); err != nil {
		return fmt.Errorf("install aborted at %s: %w", point, err)
	}
	return nil
}

// checkAliases refuses transactions in two roots that are one folder by a
// way the planner could not see (a bind mount, or no Env.Canonical): the
// second would find the first one's package where it expects the old one,
// and undoing the pair could not succeed. Nothing has been written yet.
func checkAliases(txns []*txn) error {
	var roots, missing []string
	var infos []os.FileInfo
	for _, t := range txns {
		if slices.Contains(roots, t.root) || slices.Contains(missing, t.root) {
			continue
		}
		info, err := os.Stat(t.root)
		if err != nil {
			// Created by the run: a new folder is nobody's alias. Stat
			// once per root, not once per transaction.
			missing = append(missing, t.root)
			continue
		}
		for i, other := range infos {
			if os.SameFile(info, other) {
				e := unsafeError(t.root, "it is the same folder as "+roots[i]+", reached by another path", nil)
				e.Detail = []string{"agent-skills sees through symbolic links between agent folders, not through bind mounts.", "Nothing was changed in any agent folder."}
				e.Try = []string{"make one a symbolic link to the other, or point both agents at one path in the configuration (agents.<id>.projectRoot or globalRoot)"}
				return e
			}
		}
		roots = append(roots, t.root)
		infos = append(infos, info)
	}
	return nil
}
