// Package install puts already fetched and verified skill packages into
// the folders coding agents read, takes them away again, and reports what
// is there — safely, atomically and without touching the user's files.
//
// # API
//
//	Install(ctx, []Item, Options) (*Report, error)
//	Uninstall(ctx, names, Options) (*Report, error)
//	Scan(ctx, Options) ([]Installed, error)
//	Recover(ctx, Options) error
//	Canonicalizer(projectRoot, home) func(path string) string
//	WithLock(ctx, path, fn) error / Lock(ctx, path) (unlock, error)
//
// Resolution, fetching, integrity checks against the index and the lock
// file, and skills.lock itself belong to the CLI; this package starts from
// an Item: a loaded format.Package, the folder it was loaded from, and
// where it came from.
//
// # Roots
//
// For each package, the agents its manifest's compatibility.agents does not
// list, or whose version (Options.AgentVersions, when known) fails the
// entry's minVersion, are skipped with a reason; agents.PlanRoots chooses the roots that
// give every remaining agent the package exactly once, and each root is
// written once with agents.LayoutForRoot's projection, checked with
// Layout.Check. Agents without a location for the kind (Codex has no
// commands; no agent has workflows) are skipped, not errors.
//
// # Transactions
//
// Inside every root, <root>/.agent-skills/ holds receipts/<name>.json and a
// staging/ folder on the same file system as the packages. A run:
//
//  1. recovers what an interrupted run left (Recover);
//  2. plans every package and root, and refuses the whole run with
//     ASK_MODIFIED_INSTALL before writing anything when a destination is
//     modified, unmanaged or has an unreadable receipt, unless Force (an
//     install of more than 1,024 items plans, checks and stages 1,024 at
//     a time, and undoes what it staged when a later chunk is refused);
//  3. stages every new version (files the user added to the old version
//     are hard-linked into it);
//  4. writes a pending receipt per package (the receipt to be, the
//     destination and, for the fallback, where the old version is put
//     aside) — all of a root's in one run journal, written as the chunks
//     are staged under a temporary name recovery removes and renamed to
//     receipts/.run-<16 hex digits>.pending once complete; recovery also
//     reads the <name>.json.pending files earlier versions wrote — and
//     syncs the staged versions and the pending receipts together;
//  5. swaps each staged version in: renameat2(RENAME_EXCHANGE) for a
//     folder, so that the destination always holds one complete version;
//     where the file system cannot exchange (EINVAL, ENOSYS, non-Linux)
//     the old folder is renamed aside first and the pending receipt says
//     where; a file-shaped package (a Claude Code command) is renamed over
//     the old file; syncs;
//  6. writes the receipts, syncs, and removes the old versions and the
//     pending receipts.
//
// What each step needs for crash safety, and no more: a staged file is
// created (O_EXCL, O_NOFOLLOW, with its mode) relative to the staging
// folder opened once per root and run, and written with write(2); the
// run journal is one file per root, created O_EXCL and renamed into
// place once complete, before any swap of its run (one that does not
// parse, which only an older version left, is discarded); it
// is removed after the last commit's sync, or once every transaction of
// its root is undone; a receipt where there was none is
// created in place (O_EXCL), since until its pending receipt is removed,
// after the sync that follows the receipts, recovery and Scan take the
// receipt from the pending one whenever the new files are in place; a
// receipt that replaces another, or a receipt-only transaction's, goes
// through a temporary file renamed over it, so that a receipt file is
// never written through. Each call lists a root's receipts folder once
// and opens only the receipts listed, once each (Options.Memo carries that
// from one call to the next under the run lock). Planning (layouts,
// receipts read, destinations inspected) runs per item on up to four
// goroutines, and staging per transaction on up to four, taken in order,
// so that output and errors are a serial run's; the swaps and the commits
// run one after the other.
//
// Syncing uses one syncfs(2) per file system and phase on Linux, an fsync
// per file and folder elsewhere. An error in any step, or a hook that
// fails, panics or calls runtime.Goexit, undoes every transaction: the old
// versions and receipts are back. A kill at any instant leaves each
// destination holding its old or its new version complete; Recover then
// keeps, for each pending receipt, the receipt whose files are all in
// place (comparing digests), puts back an old version whose destination
// is missing, and clears the staging folder.
//
// The agent-oracle run (Codex 0.169.0, Claude Code 2.1.197, 2026-11-30)
// showed that neither agent lists anything inside .agent-skills/ below
// .claude/skills, .agents/skills or ~/.codex/skills, but that Claude Code
// lists every *.md file below .claude/commands as a command, hidden folders
// included; so nothing under .agent-skills/ ends in ".md" (staged files end
// in ".staged", old ones in ".old").
//
// # Untrusted metadata and linked folders
//
// A cloned project can ship anything in its agent folders, .agent-skills/
// included, and recovery renames and removes what it finds there. So every
// operation — Install, Uninstall, Recover and Scan, dry runs included —
// first checks every root it will look at, and refuses with
// ASK_ROOT_UNSAFE (exit 5), before anything is read or written:
//
//   - a project root that a symbolic link inside the project makes
//     resolve outside it (the link and its target are named; a folder
//     outside the project that the configuration names is the user's
//     choice, and links in the home folder may lead anywhere);
//   - .agent-skills/, receipts/ or staging/ that is a link or on another
//     file system than the root, and any link among the receipts;
//   - a pending receipt whose name is not a package name, whose dest is
//     not exactly its package's place in the root, whose aside is not
//     exactly staging/<name>.<16 hex digits>.old (or is there but not a
//     real folder), or whose receipt has another shape than the root's.
//
// Metadata folders are created with mkdir, which never follows a link, and
// checked again. Receipts are read with O_NOFOLLOW. Recovery removes only
// the staging entries whose names transactions give, <name>.<16 hex
// digits>.staged or .old, through the staging folder opened as an os.Root
// that is the very folder checked (same device and inode); anything else
// found there is left alone. Tracked files are compared through the
// package folder opened as an os.Root, so a link inside a package never
// leads a comparison outside it; uninstalls and upgrades remove a package
// by renaming its folder away and removing that, which removes links and
// never follows them, and a receipt naming an absolute path or ".." is
// unreadable (receipt-broken), never acted on.
//
// Two roots that are one folder — .claude/skills linked to .agents/skills
// — are one root when Options.Env.Canonical is Canonicalizer, as the CLI
// sets it: planned, written and receipted once with every reader, and
// listed once. A run whose transactions would still reach one folder by
// two paths (a bind mount, or no Canonical) is refused before anything is
// written, so that no rollback can fail on it.
//
// # Receipts and drift
//
// A receipt records the name, version, kind, shape, registry, resolved
// source, integrity, role, the dependencies installed with it (name and
// version; absent from receipts of older versions), the agents that read
// the root, the install time, and every file written with its sha256-
// digest and mode. A tracked
// file changed or missing makes the package modified; a package folder or
// file without a receipt is unmanaged. Files in a package folder that the
// receipt does not list are the user's: they survive upgrades (unless the
// new version has a file of the same path: that refuses the install) and
// uninstalls (which then report the package as preserved and leave the
// folder with those files). A receipt whose package folder is gone
// entirely is replaced by an install and removed by an uninstall without
// Force: there is nothing of the user's to protect.
//
// Outcomes: unchanged when every file to write is already in place with
// the same digest and mode (nothing is written; only a receipt whose
// metadata changed is rewritten); otherwise upgraded or downgraded by
// semver, reinstalled for the same version, installed when nothing
// managed was there.
//
// # Locking and dry runs
//
// Install, Uninstall and Recover do not lock: the caller holds a file
// locked with flock(2) (WithLock) for the whole run — the CLI's
// $AGENT_SKILLS_HOME/locks/<sha256 of the project root or "global">.lock,
// held while it writes skills.lock too. With DryRun nothing is written at
// all — no staging, no receipts, no recovery — and the report is the full
// plan.
//
// # Errors
//
// Errors are *askerr.Error values: ASK_MODIFIED_INSTALL (exit 1),
// ASK_NOT_INSTALLED (exit 1), ASK_IO (exit 1), ASK_ROOT_UNSAFE (exit 5),
// and ASK_LAYOUT_INVALID from package agents.
package install
