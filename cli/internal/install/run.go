package install

import (
	"context"
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
//
// ctx stops the run until the first swap, the commit point: a run
// cancelled while it stages undoes what it staged and returns ctx's
// error, having changed nothing. From the first swap on it runs to the
// end, whatever ctx says: stopping there would only add an undo to
// finish.
func run(ctx context.Context, txns []*txn, opts *Options) (err error) {
	r := newRunner(ctx, opts)
	defer r.settle(&err)
	if err := r.stage(txns); err != nil {
		return err
	}
	return r.finish()
}

// runner is run in steps, for a caller that stages its transactions a
// batch at a time as it plans them (install): stage each batch in order,
// then finish; settle, deferred, undoes every transaction staged unless
// finish completed.
type runner struct {
	// ctx stops the run until the first swap (see run).
	ctx  context.Context
	opts *Options
	s    syncer
	m    madeDirs
	// txns are the transactions given to stage, in order.
	txns    []*txn
	aliases aliasCheck
	started bool
	done    bool
}

func newRunner(ctx context.Context, opts *Options) *runner {
	return &runner{ctx: ctx, opts: opts, m: madeDirs{v: opts.meta()}}
}

// stage checks (checkAliases) and stages ts, the next transactions in
// order. After an error nothing more is staged: the caller returns.
func (r *runner) stage(ts []*txn) error {
	if len(ts) == 0 {
		return nil
	}
	if err := r.aliases.check(ts); err != nil {
		return err
	}
	if !r.started {
		r.m.v.writing()
		r.started = true
	}
	r.txns = append(r.txns, ts...)
	if err := stageAll(r.ctx, ts, &r.s); err != nil {
		return err
	}
	return r.m.journal(ts, &r.s)
}

// finish runs every phase after staging (see run).
func (r *runner) finish() error {
	txns, opts, s, m := r.txns, r.opts, &r.s, &r.m
	if len(txns) == 0 {
		return nil
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
	if err := m.closeJournals(txns, s); err != nil {
		return err
	}
	if err := s.flush(); err != nil {
		return err
	}
	// The last moment an interrupt stops the run with nothing changed:
	// the first swap is the commit point (see run).
	if err := r.ctx.Err(); err != nil {
		return err
	}
	for _, t := range txns {
		if err := hookAt(opts, PointBeforeSwap); err != nil {
			return err
		}
		if err := t.swap(opts, m); err != nil {
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
		if err := t.commit(s, m); err != nil {
			return err
		}
		if err := hookAt(opts, PointAfterReceipt); err != nil {
			return err
		}
	}
	m.closeReaders()
	if err := s.flush(); err != nil {
		return err
	}
	r.done = true
	// Everything is committed: a leftover that cannot be removed now is
	// removed by the next run's recovery.
	_ = cleanupAll(txns, m)
	return nil
}

// settle, deferred by the caller of stage, undoes every transaction
// staged, latest first, unless finish completed or nothing was staged:
// *errp is the caller's error, joined with any the undo meets (a panic or
// runtime.Goexit unwinding has none: it becomes "install interrupted").
func (r *runner) settle(errp *error) {
	if r.done || !r.started {
		return
	}
	txns, s, m := r.txns, &r.s, &r.m
	m.closeReaders()
	for _, t := range txns {
		// Undoing rewrites receipts: the view lists them again.
		m.v.forget(t.root)
	}
	if *errp == nil {
		// A panic or runtime.Goexit is unwinding.
		*errp = errors.New("install interrupted")
	}
	var undoErrs []error
	failed := map[string]bool{}
	for i := len(txns) - 1; i >= 0; i-- {
		if uerr := txns[i].undo(s); uerr != nil {
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
		*errp = errors.Join(*errp, fmt.Errorf("putting the old versions back failed; run the command again to recover: %w", errors.Join(undoErrs...)))
	}
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
// here, after every worker stopped. Once ctx is done no transaction
// starts, and one staging stops before its next file, with ctx's error.
func stageAll(ctx context.Context, txns []*txn, s *syncer) error {
	var sd stageDirs
	defer sd.close()
	errs := make([]error, len(txns))
	subs := make([]syncer, len(txns))
	inOrder(len(txns), stageWorkers, func(_, i int) bool {
		if errs[i] = ctx.Err(); errs[i] != nil {
			return true
		}
		txns[i].prepare()
		if errs[i] = txns[i].doStage(ctx, &subs[i], &sd); errs[i] != nil {
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

// aliasCheck refuses transactions in two roots that are one folder by a
// way the planner could not see (a bind mount, or no Env.Canonical): the
// second would find the first one's package where it expects the old one,
// and undoing the pair could not succeed. It is given the transactions in
// order, a batch at a time, before any of the batch is staged: nothing of
// theirs has been written yet.
type aliasCheck struct {
	roots, missing []string
	infos          []os.FileInfo
}

func (c *aliasCheck) check(txns []*txn) error {
	for _, t := range txns {
		if slices.Contains(c.roots, t.root) || slices.Contains(c.missing, t.root) {
			continue
		}
		info, err := os.Stat(t.root)
		if err != nil {
			// Created by the run: a new folder is nobody's alias. Stat
			// once per root, not once per transaction.
			c.missing = append(c.missing, t.root)
			continue
		}
		for i, other := range c.infos {
			if os.SameFile(info, other) {
				e := unsafeError(t.root, "it is the same folder as "+c.roots[i]+", reached by another path", nil)
				e.Detail = []string{"agent-skills sees through symbolic links between agent folders, not through bind mounts.", "Nothing was changed in any agent folder."}
				e.Try = []string{"make one a symbolic link to the other, or point both agents at one path in the configuration (agents.<id>.projectRoot or globalRoot)"}
				return e
			}
		}
		c.roots = append(c.roots, t.root)
		c.infos = append(c.infos, info)
	}
	return nil
}
