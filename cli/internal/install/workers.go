package install

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// inOrder calls work(w, i) for every i in [0, n), on up to limit
// goroutines and no more than the machine has processors; w numbers the
// goroutine (0 is the first), so that work can keep per-goroutine state.
// The indexes are taken in order, and once a call reports failure no
// later index is started: a caller that looks at the results in order
// finds the first failure in order, whatever the timing. With one
// goroutine the calls run on the caller's and stop at the first failure.
// A panic in a worker is re-raised here, once every worker stopped.
func inOrder(n, limit int, work func(w, i int) (failed bool)) {
	workers := min(runtime.GOMAXPROCS(0), limit, n)
	if workers <= 1 {
		for i := range n {
			if work(0, i) {
				return
			}
		}
		return
	}
	var next atomic.Int64
	var failed atomic.Bool
	var panicked atomic.Value
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, r)
					failed.Store(true)
				}
			}()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if work(w, i) {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(r)
	}
}
