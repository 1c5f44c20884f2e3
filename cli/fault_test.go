package cli

import (
	"context"
	"errors"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

// TestFaultHookEnv: AGENT_SKILLS_TEST_FAULT fails its one point and no
// other; unset, there is no hook; a context hook (the Go tests') wins.
func TestFaultHookEnv(t *testing.T) {
	envWith := func(ctx context.Context, v string) *env {
		return &env{ctx: ctx, ws: &workspace.Machine{Getenv: func(k string) string {
			if k == faultEnv {
				return v
			}
			return ""
		}}}
	}
	if h := envWith(context.Background(), "").faultHook(); h != nil {
		t.Fatal("faultHook() without the variable is not nil")
	}
	h := envWith(context.Background(), "evolve-after-catalog-write").faultHook()
	if h == nil || h("evolve-after-catalog-write") == nil || h("install-commit") != nil {
		t.Fatal("faultHook() with the variable does not fail exactly its point")
	}
	mine := errors.New("mine")
	ctx := context.WithValue(context.Background(), faultKey{}, func(string) error { return mine })
	if err := envWith(ctx, "x").faultHook()("x"); err != mine {
		t.Errorf("faultHook() with a context hook = %v, want the context's", err)
	}
}
