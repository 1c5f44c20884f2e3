package install

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
	// The swaps run one after the other: with the rename-aside fallback
	// a swap is two renames, and a destination is missing between them,
	// which only a crash inside that swap may show.
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
	// The receipts of each root are written on a goroutine of their own
	// (perRoot): each root's receipts folder is one folder, whose entries
	// the kernel creates under that folder's own lock. A commit is a
	// rename of a complete file, so no instant shows a torn receipt.
	if err := m.premake(txns); err != nil {
		return err
	}
	err = perRoot(txns, opts, &s, PointBeforeReceipt, PointAfterReceipt, func(t *txn, s *syncer) error {
		return t.commit(s, &m)
	})
	if err != nil {
		return err
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
	workers := min(runtime.GOMAXPROCS(0), stageWorkers, len(txns))
	if workers <= 1 {
		for _, t := range txns {
			t.prepare()
			if err := t.doStage(s, &sd); err != nil {
				return err
			}
			t.files = nil // staged: let the package's bytes go
		}
		return nil
	}
	errs := make([]error, len(txns))
	subs := make([]syncer, len(txns))
	var next atomic.Int64
	var failed atomic.Bool
	var panicked atomic.Value
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, r)
					failed.Store(true)
				}
			}()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(txns) {
					return
				}
				txns[i].prepare()
				if errs[i] = txns[i].doStage(&subs[i], &sd); errs[i] != nil {
					failed.Store(true)
				} else {
					txns[i].files = nil // staged: let the package's bytes go
				}
			}
		})
	}
	wg.Wait()
	for i := range subs {
		s.merge(&subs[i])
	}
	if r := panicked.Load(); r != nil {
		panic(r)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// perRoot runs step on every transaction, with the hook called at
// before and after each, and stops at the first error: the transactions
// of each root in their order, the roots on a goroutine each when there
// are several and the machine has more than one processor. The hook is
// always called on the caller's goroutine, which serves the workers'
// calls in turn, so that a hook that panics or calls runtime.Goexit ends
// the caller, as it does without workers; the workers are stopped first.
// Every transaction before the first one in order that fails is run, as
// one loop would, and that one's error is returned; what later ones did,
// the caller's undo reverses, as it does what earlier ones did. A panic in a worker is re-raised here once
// every worker stopped.
func perRoot(txns []*txn, opts *Options, s *syncer, before, after string, step func(t *txn, s *syncer) error) error {
	var roots []string
	byRoot := map[string][]int{}
	for i, t := range txns {
		if _, ok := byRoot[t.root]; !ok {
			roots = append(roots, t.root)
		}
		byRoot[t.root] = append(byRoot[t.root], i)
	}
	if len(roots) < 2 || runtime.GOMAXPROCS(0) < 2 {
		for _, t := range txns {
			if err := hookAt(opts, before); err != nil {
				return err
			}
			if err := step(t, s); err != nil {
				return err
			}
			if err := hookAt(opts, after); err != nil {
				return err
			}
		}
		return nil
	}
	type hookCall struct {
		point string
		reply chan error
	}
	calls := make(chan hookCall)
	abort := make(chan struct{})
	errs := make([]error, len(txns))
	subs := make([]syncer, len(roots))
	// failedAt is the first transaction in order that failed: a worker
	// stops before any later one, and runs every earlier one, as one loop
	// would have, so the error returned does not depend on the timing.
	var failedAt atomic.Int64
	failedAt.Store(int64(len(txns)))
	fail := func(i int) {
		for {
			cur := failedAt.Load()
			if int64(i) >= cur || failedAt.CompareAndSwap(cur, int64(i)) {
				return
			}
		}
	}
	var panicked atomic.Value
	var wg sync.WaitGroup
	for g, root := range roots {
		reply := make(chan error, 1)
		hook := func(point string) error {
			if opts.Hook == nil {
				return nil
			}
			select {
			case calls <- hookCall{point, reply}:
			case <-abort:
				return errInterrupted
			}
			select {
			case err := <-reply:
				return err
			case <-abort:
				// The hook did not return: it panicked or called
				// runtime.Goexit on the caller's goroutine.
				return errInterrupted
			}
		}
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, r)
					fail(-1)
				}
			}()
			for _, i := range byRoot[root] {
				if failedAt.Load() < int64(i) {
					return
				}
				err := hook(before)
				if err == nil {
					err = step(txns[i], &subs[g])
				}
				if err == nil {
					err = hook(after)
				}
				if err != nil {
					errs[i] = err
					fail(i)
					return
				}
			}
		})
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	served := false
	defer func() {
		if !served {
			// The hook panicked or called runtime.Goexit: stop the
			// workers before the caller undoes what they did.
			close(abort)
			<-finished
			for i := range subs {
				s.merge(&subs[i])
			}
		}
	}()
	for waiting := true; waiting; {
		select {
		case c := <-calls:
			c.reply <- hookAt(opts, c.point)
		case <-finished:
			waiting = false
		}
	}
	served = true
	for i := range subs {
		s.merge(&subs[i])
	}
	if r := panicked.Load(); r != nil {
		panic(r)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// errInterrupted stops a worker whose caller is unwinding.
var errInterrupted = errors.New("install interrupted")

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
