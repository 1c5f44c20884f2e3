package skillset

import (
	"context"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
	"github.com/agent-skills/agent-skills/scan"
	"github.com/agent-skills/agent-skills/validate"
)

// Progress shows the steps of a long fetch; the CLI draws a line on a
// terminal, other callers pass nil.
type Progress interface {
	Step(i, n int, label, item string)
	Done()
}

// noProgress shows nothing.
type noProgress struct{}

func (noProgress) Step(int, int, string, string) {}
func (noProgress) Done()                         {}

// op is one use case running on a session: its context, the outcome it
// builds, the lock as it reads it under the run lock, and what its run
// journal records of the command (to say how to finish it).
type op struct {
	*Session
	ctx      context.Context
	out      *Outcome
	lock     *resolve.Lock // nil outside project scope or without a lock file
	progress Progress
	// pick asks the user which of several skills a source offers to
	// install; nil when no one can be asked.
	pick func([]source.Found) ([]source.Found, error)
	// prune removes, after an apply, the dependencies nothing requires any
	// more (update sets it: a new version may drop a dependency).
	prune bool
	// strict validates packages at validate's default gate and refuses
	// the whole run when one of the skills "*" chose fails it (install
	// --strict); otherwise packages pass the install gate (see
	// validate.GateInstall) and those "*" chose that fail are skipped.
	strict bool
	// command, requested and flags are the command, the names the user
	// gave it and the flags that running it again needs, for the run
	// journal.
	command          string
	requested, flags []string
	// strandedCache holds the installed skills whose registry cannot
	// answer for them, once computed; strandedWarned the names a warning
	// already named (see stranded.go).
	strandedCache  map[string]*stranded
	strandedWarned map[string]bool
	// risk is the content scan's gate (Session.scanGate); scannedResults
	// are, by "name@version", what the scan found in the packages that
	// passed it, for their results (labelResults).
	risk           scan.Gate
	scannedResults map[string]*install.Scanned
	// memo is shared by the calls of package install made while the run
	// lock is held (see memoized); nil otherwise.
	memo *install.Memo
}

// begin starts a use case.
func (s *Session) begin(ctx context.Context, command string, requested, flags []string, dryRun bool, progress Progress) *op {
	if progress == nil {
		progress = noProgress{}
	}
	if len(s.opts.AllowRisk) > 0 {
		// Running the command again (to finish it, or with a next
		// action) accepts what this run accepted.
		flags = append(slices.Clip(flags), "--allow-risk", strings.Join(s.opts.AllowRisk, ","))
	}
	return &op{Session: s, ctx: ctx, out: s.newOutcome(dryRun), lock: s.Lock, progress: progress,
		command: command, requested: requested, flags: flags}
}

// installOptions are the install package's options for the session's
// scope and agents.
func (p *op) installOptions(force, dryRun bool) install.Options {
	return install.Options{Scope: p.Scope.Kind, Env: p.Env, Agents: p.Agents, Force: force, DryRun: dryRun, Hook: p.opts.Fault, Memo: p.memo}
}

// gate is the validation gate of this use case's packages.
func (p *op) gate() validate.Gate {
	if p.strict {
		return validate.GateDefault
	}
	return validate.GateInstall
}

// agentChecks returns what the selected agents cannot load of pkg: their
// adapters' ASK_AGENT_CONSTRAINT diagnostics.
func (p *op) agentChecks(pkg *format.Package) format.Diagnostics {
	var ds format.Diagnostics
	for _, a := range p.Agents {
		ds = append(ds, a.Validate(pkg)...)
	}
	return ds
}

// info, note and warn add notices to the outcome.
func (p *op) info(format string, args ...any) { p.out.notify(LevelInfo, format, args...) }
func (p *op) note(format string, args ...any) { p.out.notify(LevelNote, format, args...) }
func (p *op) warn(format string, args ...any) { p.out.notify(LevelWarn, format, args...) }
