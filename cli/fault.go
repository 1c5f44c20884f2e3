package cli

import "context"

// Fault-injection points of the commands that change the agent roots and
// skills.lock together, besides install's own (install.Point*). Tests kill
// the process at them to prove that every kill leaves a state the next
// run finishes.
const (
	// pointJournalWritten follows writing the run journal, right before
	// the roots change.
	pointJournalWritten = "journal-written"
	// pointLockWritten follows writing skills.lock, right before the run
	// journal is removed.
	pointLockWritten = "lock-written"
)

// faultKey is the context key of the fault-injection hook.
type faultKey struct{}

// withFault returns ctx carrying hook, which every fault-injection point
// of a run started with it calls; an error aborts the run there. Only
// tests set it.
func withFault(ctx context.Context, hook func(point string) error) context.Context {
	return context.WithValue(ctx, faultKey{}, hook)
}

// faultHook returns the run's fault-injection hook, or nil.
func (e *env) faultHook() func(string) error {
	if e.ctx == nil {
		return nil
	}
	hook, _ := e.ctx.Value(faultKey{}).(func(string) error)
	return hook
}

// fault calls the fault-injection hook at point, if there is one.
func (e *env) fault(point string) error {
	if hook := e.faultHook(); hook != nil {
		return hook(point)
	}
	return nil
}
