// Package skillset is the application layer of agent-skills: the use
// cases that change which skills a scope holds — Install, Restore,
// Update and Uninstall — on a Session, which is one scope (a project or
// the user's global skills) with its agents, registries and skills.lock.
//
// Each use case takes a request struct and returns an Outcome: the plan,
// what happened to every package in every agent folder (installed,
// refused, skipped, …), the notices a user should read, and the
// validation problems that refused a package. Nothing here prints: the
// command files and the MCP server render the same Outcome, as text or
// JSON.
//
// # An install, from the command line to disk
//
//	cli/install_cmd.go       installCmd.Run: flags → InstallRequest
//	skillset/session.go      Open: scope, configuration, registries, agents, skills.lock
//	skillset/install.go      Session.Install: direct sources, resolution, fetch, apply
//	skillset/sources.go      fetchSources: source.Fetch, verified by digest
//	skillset/resolve.go      resolveKeeping: resolve.Resolve with installed skills pinned
//	skillset/stranded.go     installed skills whose registry is gone stay where they are
//	skillset/origin.go       checkOrigins: one registry or source per skill name
//	skillset/fetch.go        fetch: registry.Snapshot, the lock's integrity, validation
//	skillset/apply.go        apply: run lock, journal, install.Install, skills.lock
//	skillset/journal.go      the run journal that makes a kill recoverable
//	skillset/settle.go       settle: the one rule by which skills.lock follows the roots
//	install/install.go       the transactions that put the files in each agent folder
//
// # Concurrency and crashes
//
// Every use case that writes takes the scope's run lock
// ($AGENT_SKILLS_HOME/locks/<key>.lock), first finishes what an
// interrupted run left (its journal, see recover.go), and changes the
// agent folders and skills.lock together under a journal, so that a run
// killed at any point leaves what the next run records.
//
// # Errors
//
// Errors are *askerr.Error values (or the library modules' errors of the
// same shape) with stable ASK_* codes; an Outcome may come back with an
// error, describing what was refused and why.
package skillset
