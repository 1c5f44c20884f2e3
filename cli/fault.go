package cli

import "context"

// faultKey is the context key of the fault-injection hook.
type faultKey struct{}

// withFault returns ctx carrying hook, which every fault-injection point
// (install.Point*, skillset.Point*) of a run started with it calls; an
// error aborts the run there. Only tests set it.
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
