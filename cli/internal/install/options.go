package install

import (
	"time"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// Fault-injection points at which Options.Hook is called, in the order a
// transaction reaches them.
const (
	// PointStaged follows writing and syncing the staged copy.
	PointStaged = "staged"
	// PointBeforeSwap follows writing the pending receipt, right before the
	// staged copy replaces the installed one.
	PointBeforeSwap = "before-swap"
	// PointMidSwap is inside a swap that is not one atomic step: between
	// renaming the old folder aside and renaming the new one in (the
	// fallback where RENAME_EXCHANGE is unsupported), or between keeping
	// the old file of a command and renaming the new one over it.
	PointMidSwap = "mid-swap"
	// PointAfterSwap follows the swap: the new version is in place.
	PointAfterSwap = "after-swap"
	// PointBeforeReceipt comes right before the pending receipt becomes the
	// receipt, the commit point.
	PointBeforeReceipt = "before-receipt"
	// PointAfterReceipt follows the commit.
	PointAfterReceipt = "after-receipt"
)

// Item is one package to install, already fetched, verified and loaded.
type Item struct {
	// Pkg is the loaded package; the layout's CopyFrom entries are read
	// through Pkg.FS (a verified in-memory snapshot for registry packages,
	// the staged folder for sources).
	Pkg *format.Package
	// Load, when Pkg is nil, decodes the package when Install plans it,
	// so that a caller installing thousands of packages need not hold
	// them all decoded until then (with Release, each is dropped once
	// planned). Its error stops the install before anything is written.
	// Install plans items on several goroutines: the Loads of different
	// items may run at the same time, each is called once.
	Load func() (*format.Package, error)
	// Dir is the folder the package was loaded from, read when Pkg.FS is
	// nil; "" for a package held in memory.
	Dir string
	// Registry is the name of the registry the package came from.
	Registry string
	// Source and Subpath are, for a package installed from a direct
	// source instead, the source's canonical identity and the folder in
	// it (skills.lock's source and subpath).
	Source, Subpath string
	// Resolved is where the payload was fetched from.
	Resolved string
	// Integrity is the verified package digest ("sha256-…").
	Integrity string
	// Role is why the package is installed: requested, a dependency or
	// a suggestion.
	Role resolve.Role
	// Dependencies maps each dependency the plan selected for the package
	// to its version; the receipt keeps it, so that uninstall can tell
	// which installed skills still need which. nil when unknown.
	Dependencies map[string]string
	// KeepRole keeps the role an existing receipt records, when the package
	// is already installed there: restoring from skills.lock, which records
	// no roles, must not turn dependencies into requested skills.
	KeepRole bool
	// Disabled installs the package disabled (see SetDisabled) into a root
	// that does not hold it yet. Where a receipt is already there, the
	// package keeps the state that receipt records, whatever Disabled
	// says: an upgrade of a disabled skill stays disabled, and only
	// SetDisabled changes the state.
	Disabled bool
	// Findings are what the content scan found in the package, for its
	// receipts; nil when it found nothing.
	Findings []Finding
}

// Options says where and how to install: the scope, the machine and the
// selected agents, and the switches of the install command.
type Options struct {
	// Scope is global or project.
	Scope agents.Scope
	// Env resolves every agent root.
	Env agents.Env
	// Agents are the selected agents.
	Agents []agents.Adapter
	// Force overwrites modified or unmanaged installs and deletes modified
	// files on uninstall.
	Force bool
	// DryRun computes the full report and writes nothing: no staging,
	// no receipts, no lock file.
	DryRun bool
	// AgentVersions holds the detected version of each agent, by id, for
	// the minVersion constraints of a manifest's compatibility.agents. An
	// agent whose version is unknown is not skipped for a constraint.
	AgentVersions map[string]string
	// Now returns the time recorded in receipts; nil means time.Now.
	Now func() time.Time
	// Hook, when set, is called at each Point* of every transaction;
	// an error aborts the install and puts every old version back. Tests
	// use it to inject faults.
	Hook func(point string) error
	// Names, when not empty, limits Scan to the packages of these names,
	// so that a question about a few skills does not read every file of
	// every installed one.
	Names []string
	// ReceiptsOnly makes Scan read the receipts and whether each package
	// is in place, without reading its files: no package is reported
	// modified for a changed file, and Drift, ModifiedFiles and AddedFiles
	// stay empty. For callers that need only what the receipts say, such
	// as settling a run's skills.lock right after the run wrote the files.
	ReceiptsOnly bool
	// Release makes Install take the items over: it sets each item's Pkg
	// to nil once it has planned that package's transactions, so that an
	// install of thousands of packages does not hold every decoded
	// package while it stages (the transactions keep what staging and
	// the receipts need).
	Release bool
	// Memo, when set, carries what this call learns of the receipts
	// folders to the next call given the same Memo (see Memo); nil reads
	// each receipts folder once per call.
	Memo *Memo

	// mv is the call's view of the receipts folders (meta).
	mv *metaView
	// lists shares the lists of the call's results (openRoots).
	lists *lists
	// noExchange forces the rename-aside fallback, for tests.
	noExchange bool
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Options) hook(point string) error {
	if o.Hook == nil {
		return nil
	}
	return o.Hook(point)
}
