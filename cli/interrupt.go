package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// duplicateWindow is how long after the first interrupting signal another
// one is taken for a copy of the same interrupt rather than a second,
// deliberate one. A terminal's Ctrl-C goes to the whole foreground process
// group, and every wrapper in it that forwards signals to its child — the
// npm launcher, npm or npx itself, a task runner — delivers one more copy:
// npx agent-skills can see three SIGINTs for one key press, and systemd's
// stop, a SIGTERM to the whole control group, two. A forwarded copy trails
// the original by the time a wrapper takes to be scheduled and call
// kill(2): well under a millisecond per hop on an idle machine, tens of
// milliseconds on a loaded one. 300 ms is ten times that, and still below
// the time a person takes to see that Ctrl-C did not stop the command and
// press it again, so a deliberate second Ctrl-C is honoured; one pressed
// sooner than that is swallowed, and the next press ends the process.
const duplicateWindow = 300 * time.Millisecond

// interruptible returns a context that the first SIGINT (Ctrl-C) or
// SIGTERM (kill, timeout(1), a CI runner cancelling a job) cancels, so
// that the command unwinds through its deferred clean-ups — work folders,
// temporary files, transactions — instead of dying where it stands.
// Signals within duplicateWindow of the first are copies of it, forwarded
// by a wrapper, and ignored: they must not cut the clean-up short. A
// signal after the window ends the process at once, should a clean-up
// hang, as that signal's default action does (a shell sees 130 for
// SIGINT). stop releases the handler.
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	released := make(chan struct{})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(released)
			cancel(nil)
		})
	}
	go func() {
		var first time.Time
		for {
			select {
			case <-released:
				return
			case sig := <-sigs:
				switch {
				case first.IsZero():
					first = time.Now()
					cancel(signalReceived{sig})
				case time.Since(first) >= duplicateWindow:
					stop()
					dieOf(sig)
					return
				}
			}
		}
	}()
	return ctx, stop
}

// signalReceived is the cause of a context that a signal cancelled; its
// text is os/signal.NotifyContext's.
type signalReceived struct{ sig os.Signal }

func (s signalReceived) Error() string { return s.sig.String() + " signal received" }

// dieOf ends the process as sig's default action does, once the handler
// is released: the signal is sent again, to this process. Where that does
// not end it — the platform cannot send it (Windows), or the signal was
// ignored when the process started and is ignored again — the process
// exits with the status a shell reports for it, 128 + the signal number.
func dieOf(sig os.Signal) {
	if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
		time.Sleep(time.Second)
	}
	code := exitInterrupted
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
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
