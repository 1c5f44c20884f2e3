package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// interruptible returns a context that the first SIGINT (Ctrl-C) or
// SIGTERM (kill, timeout(1), a CI runner cancelling a job) cancels, so
// that the command unwinds through its deferred clean-ups — work folders,
// temporary files, transactions — instead of dying where it stands. After
// that first signal the default action is restored: a second Ctrl-C ends
// the process at once, should a clean-up hang. stop releases the handler.
func interruptible(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// interrupted is the error of a command whose context ended before it
// finished: whatever the command returned then is a consequence of the
// interruption (a cancelled download, a killed git), not its cause.
func interrupted(ctx context.Context) *askerr.Error {
	why := "interrupted"
	if c := context.Cause(ctx); c != nil && c != context.Canceled {
		why += " (" + c.Error() + ")"
	}
	return &askerr.Error{Code: CodeInterrupted,
		Message: why + ": the command stopped before it finished",
		Try:     []string{"run the same command again to complete it"}}
}
