package cli

// faultKey is the context key of the fault-injection hook.
type faultKey struct{}

// faultHook returns the run's fault-injection hook, or nil.
func (e *env) faultHook() func(string) error {
	if e.ctx == nil {
		return nil
	}
	hook, _ := e.ctx.Value(faultKey{}).(func(string) error)
	return hook
}
