package install

import (
	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
	contentscan "github.com/agent-skills/agent-skills/scan"
)

// Outcome is what an install or uninstall did to one package in one root.
type Outcome string

// Outcomes, per package and root.
const (
	// OutcomeInstalled means that the package was not there and now is.
	OutcomeInstalled Outcome = "installed"
	// OutcomeUpgraded means that a lower version was replaced.
	OutcomeUpgraded Outcome = "upgraded"
	// OutcomeDowngraded means that a higher version was replaced.
	OutcomeDowngraded Outcome = "downgraded"
	// OutcomeReinstalled means that the same version was written again (--force over
	// a modified install, or a changed projection).
	OutcomeReinstalled Outcome = "reinstalled"
	// OutcomeUnchanged means that the exact files are already in place; nothing was
	// written.
	OutcomeUnchanged Outcome = "unchanged"
	// OutcomeSkipped means that an agent gets nothing, see Result.Reason.
	OutcomeSkipped Outcome = "skipped"
	// OutcomeRemoved means that an uninstall removed the package completely.
	OutcomeRemoved Outcome = "removed"
	// OutcomePreserved means that an uninstall removed the package's files but kept
	// the files the user added, listed in Result.Preserved.
	OutcomePreserved Outcome = "preserved"
	// OutcomeRefused means that the package was modified or unmanaged and Force was
	// not given; see Result.Modified.
	OutcomeRefused Outcome = "refused"
	// OutcomeDisabled means that SetDisabled hid the package from every agent;
	// OutcomeEnabled that it made an agent see it again.
	OutcomeDisabled Outcome = "disabled"
	OutcomeEnabled  Outcome = "enabled"
)

// Result is the outcome for one package in one root, or for one agent that
// was skipped.
type Result struct {
	// Name, Version and Kind identify the package.
	Name    string      `json:"name"`
	Version string      `json:"version,omitempty"`
	Kind    format.Kind `json:"kind"`
	// Role is the package's role in the install.
	Role resolve.Role `json:"role,omitempty"`
	// Outcome is what happened.
	Outcome Outcome `json:"outcome"`
	// Reason explains a skip or a refusal in one sentence.
	Reason string `json:"reason,omitempty"`
	// Agent is the skipped agent's id; empty otherwise.
	Agent string `json:"agent,omitempty"`
	// Root is the agent root; empty for a skip.
	Root string `json:"root,omitempty"`
	// Dest is the package's folder or file inside Root.
	Dest string `json:"dest,omitempty"`
	// Readers are the selected agents that see the package through Root.
	Readers []string `json:"readers,omitempty"`
	// AlsoReadBy are the agents that were not selected but read Root
	// too, so they see the package as well (skillset fills it).
	AlsoReadBy []string `json:"alsoReadBy,omitempty"`
	// Previous is the version that was there before, if any.
	Previous string `json:"previous,omitempty"`
	// Files are the package-relative paths written (or, for an uninstall,
	// removed), sorted.
	Files []string `json:"files,omitempty"`
	// Preserved are files the user added that were kept, sorted.
	Preserved []string `json:"preserved,omitempty"`
	// Modified are the tracked files that were changed or are missing,
	// each followed by " (changed)" or " (missing)"; for an unmanaged
	// package it is empty.
	Modified []string `json:"modified,omitempty"`
	// Scanned holds what the content scan found in the package, when it
	// found anything (skillset fills it): its fields are the result's own
	// in JSON, and a result of a package without findings pays one
	// pointer for them.
	*Scanned
}

// Scanned is what the content scan found in a package installed: every
// finding, and those of them that would have kept it out and were
// accepted, with who accepted each.
type Scanned struct {
	Findings []contentscan.Finding  `json:"findings,omitempty"`
	Accepted []contentscan.Accepted `json:"accepted,omitempty"`
}

// Duplicate is a package that one selected agent will see through more
// than one written root, because no choice of roots avoids it.
type Duplicate struct {
	Name string `json:"name"`
	agents.Duplicate
}

// Report is everything an Install or Uninstall did, or with DryRun would
// do: one Result per package and root, and per skipped agent, in the order
// of the items and then of the roots.
type Report struct {
	// DryRun is true when nothing was written.
	DryRun bool `json:"dryRun,omitempty"`
	// Results lists the outcomes.
	Results []Result `json:"results"`
	// Duplicates lists the agents that see a package twice.
	Duplicates []Duplicate `json:"duplicates,omitempty"`
	// Inexact names the packages whose folders were chosen by a search
	// that stopped before it proved its choice the best (agents.Plan's
	// Inexact: far more agents sharing folders than any real table).
	Inexact []string `json:"inexact,omitempty"`
}

// State is the health of one installed package.
type State string

// States of an installed package.
const (
	// StateOK means that every file the receipt lists is in place, unchanged.
	StateOK State = "ok"
	// StateModified means that a tracked file was changed or removed.
	StateModified State = "modified"
	// StateUnmanaged means that the package is in a root without a receipt: it was
	// put there by hand or by another tool.
	StateUnmanaged State = "unmanaged"
	// StateReceiptBroken means that the receipt cannot be read or does not describe
	// this package.
	StateReceiptBroken State = "receipt-broken"
)

// Installed is one package found in an agent root by Scan.
type Installed struct {
	// Name is the package's folder or file name (without the extension).
	Name string `json:"name"`
	// Version is the installed version, from the receipt; empty when
	// unmanaged.
	Version string `json:"version,omitempty"`
	// Kind is the package kind.
	Kind format.Kind `json:"kind"`
	// Root is the agent root the package is in; Dest is its folder or file.
	Root string `json:"root"`
	Dest string `json:"dest"`
	// Scope is the scope scanned.
	Scope agents.Scope `json:"scope"`
	// Readers are the selected agents that read Root.
	Readers []string `json:"readers"`
	// State is the package's health.
	State State `json:"state"`
	// Drift lists every file that differs from the receipt: changed,
	// missing or added by the user.
	Drift []Drift `json:"drift,omitempty"`
	// ModifiedFiles are the tracked files changed or missing, each followed
	// by " (changed)" or " (missing)": Drift's changed and missing files
	// as list and doctor print them.
	ModifiedFiles []string `json:"modifiedFiles,omitempty"`
	// AddedFiles are files in the package folder that the receipt does not
	// list: the user's own.
	AddedFiles []string `json:"addedFiles,omitempty"`
	// Registry, Source, Subpath, Resolved, Integrity and Role come from
	// the receipt.
	Registry  string       `json:"registry,omitempty"`
	Source    string       `json:"source,omitempty"`
	Subpath   string       `json:"subpath,omitempty"`
	Resolved  string       `json:"resolved,omitempty"`
	Integrity string       `json:"integrity,omitempty"`
	Role      resolve.Role `json:"role,omitempty"`
	// Agents are the agents the receipt says it was written for.
	Agents []string `json:"agents,omitempty"`
	// Dependencies are the dependencies the receipt records, nil when it
	// records none (written by an older version).
	Dependencies map[string]string `json:"dependencies,omitempty"`
	// Deprecated lists the readers for which Root is a deprecated root.
	Deprecated []string `json:"deprecated,omitempty"`
	// SeenTwiceBy lists the readers that also see a package of the same
	// name and kind through another root.
	SeenTwiceBy []string `json:"seenTwiceBy,omitempty"`
	// Pending is true when an interrupted install left a pending receipt
	// that the next Install, Uninstall or Recover will resolve.
	Pending bool `json:"pending,omitempty"`
	// Disabled is true when the receipt records the package as disabled:
	// installed, but listed by no agent (SetDisabled).
	Disabled bool `json:"disabled,omitempty"`
	// Findings are the content-scan findings the receipt records (see
	// Finding): untrusted, for labels only. Absent for receipts without.
	Findings []Finding `json:"findings,omitempty"`
}
