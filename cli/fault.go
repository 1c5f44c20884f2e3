package cli

import "fmt"

// faultKey is the context key of the fault-injection hook.
type faultKey struct{}

// faultEnv names the one fault-injection point a test run (a testscript,
// which runs the binary) asks to fail: AGENT_SKILLS_TEST_FAULT=<point>.
// Only the points that pass through faultHook exist; unset, nothing fails.
const faultEnv = "AGENT_SKILLS_TEST_FAULT"

// faultHook returns the run's fault-injection hook: the context's (the Go
// tests'), else one failing at the point faultEnv names, else nil.
func (e *env) faultHook() func(string) error {
	if e.ctx != nil {
		if hook, _ := e.ctx.Value(faultKey{}).(func(string) error); hook != nil {
			return hook
		}
	}
	if e.ws == nil || e.ws.Getenv == nil {
		return nil
	}
	if point := e.ws.Getenv(faultEnv); point != "" {
		return func(p string) error {
			if p == point {
				return fmt.Errorf("fault injected at %s (%s)", p, faultEnv)
			}
			return nil
		}
	}
	return nil
}
