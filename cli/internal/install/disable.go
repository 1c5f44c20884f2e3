package install

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
)

// A disabled package stays installed, with its receipt, where it was; only
// the names agents look for change. The agent-oracle run of 2026-12-01
// (Codex 0.169.0, Claude Code 2.1.328, Gemini CLI 0.61.0, Copilot CLI
// 1.0.102, OpenCode 1.18.33; project roots .claude/skills and
// .agents/skills, which between them every one of the five reads) showed:
//
//   - a skill folder whose SKILL.md is renamed SKILL.md.disabled is
//     listed by none of the five;
//   - a SKILL.md in a subfolder of it (sub/SKILL.md) is still listed by
//     Codex, Copilot and OpenCode — so every SKILL.md of the package is
//     renamed, not only the top one;
//   - a folder moved below <root>/.agent-skills/ or renamed with a leading
//     dot is still listed by OpenCode (and a dot folder by Claude Code),
//     and a folder renamed x.disabled by all five: moving the folder is no
//     way to hide it;
//   - a Claude Code command renamed <name>.md.disabled is not listed, as
//     Claude Code lists only *.md files below .claude/commands.
//
// So disabling renames every SKILL.md of a folder-shaped package (at any
// depth) and the file of a file-shaped one, adding disabledSuffix, in one
// transaction of the same kind as an install: a staged copy of the folder
// with the new names (hard links to the same files) exchanged with the
// installed one, or a rename of the single file; the receipt records the
// names on disk and Disabled. Enabling takes the suffix away again.

// disabledSuffix is added to the name of every file agents list while its
// package is disabled.
const disabledSuffix = ".disabled"

// listedName reports whether a file of a folder-shaped package is one an
// agent lists as a skill: a SKILL.md at any depth (in any case, for the
// case-insensitive file systems agents also run on).
func listedName(rel string) bool {
	return strings.EqualFold(path.Base(rel), format.EntrypointFor(format.KindSkill))
}

// hiddenPath is the name the package file rel has while disabled.
func hiddenPath(rel string, shape agents.Shape) string {
	if shape == agents.ShapeFile || listedName(rel) {
		return rel + disabledSuffix
	}
	return rel
}

// shownPath is the name the package file rel, recorded by a disabled
// receipt, has once enabled.
func shownPath(rel string, shape agents.Shape) string {
	if base, ok := strings.CutSuffix(rel, disabledSuffix); ok && (shape == agents.ShapeFile || listedName(base)) {
		return base
	}
	return rel
}

// placeOf is where a package whose enabled place is dest sits in the
// given state: a disabled file-shaped package is the file dest plus
// disabledSuffix; a folder stays where it is.
func placeOf(dest string, shape agents.Shape, disabled bool) string {
	if disabled && shape == agents.ShapeFile {
		return dest + disabledSuffix
	}
	return dest
}

// ambiguousName returns a file of the package whose name already ends in
// disabledSuffix after an entrypoint's name ("SKILL.md.disabled"), or "":
// such a package cannot be disabled, since enabling it again could not
// tell that file from a renamed entrypoint.
func ambiguousName(recs []fileRecord, shape agents.Shape) string {
	if shape == agents.ShapeFile {
		return ""
	}
	for _, f := range recs {
		if base, ok := strings.CutSuffix(f.Path, disabledSuffix); ok && listedName(base) {
			return f.Path
		}
	}
	return ""
}

// renamed returns the records with the names of the other state, sorted
// by path as receipts keep them.
func renamed(recs []fileRecord, shape agents.Shape, disabled bool) []fileRecord {
	out := make([]fileRecord, len(recs))
	for i, f := range recs {
		if disabled {
			f.Path = hiddenPath(f.Path, shape)
		} else {
			f.Path = shownPath(f.Path, shape)
		}
		out[i] = f
	}
	slices.SortFunc(out, func(a, b fileRecord) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// SetDisabled disables the named packages (disabled true) or enables them
// again (false) in every root of the selected agents that holds them, as
// one transaction, like Install: either every package is in the new state
// with its receipt when it returns nil, or nothing changed. A disabled
// package keeps its files, its receipt and its place; no agent lists it
// (see the comment at disabledSuffix for the agents' evidence), Scan
// reports it with Installed.Disabled, Install keeps it disabled when it
// writes a new version, and Uninstall removes it.
//
// A package already in the asked state is unchanged. One that a root
// holds without a receipt (unmanaged) or with an unreadable one is
// refused, as is one whose tracked files were changed or removed unless
// opts.Force (its files are then renamed as they are, and it stays
// modified); one where a file the user added has the name a renamed file
// would take, or that ships a file named like a renamed entrypoint, is
// refused even with Force. Everything is checked before anything is
// renamed. A name no root holds is ASK_NOT_INSTALLED; deprecated roots are
// left alone, as Uninstall leaves them. The results are OutcomeDisabled,
// OutcomeEnabled, OutcomeUnchanged or OutcomeRefused, per package and
// root.
func SetDisabled(ctx context.Context, names []string, disabled bool, opts Options) (*Report, error) {
	for _, n := range names {
		if !safeName(n) {
			return nil, nameError(n)
		}
	}
	return setDisabled(ctx, names, disabled, &opts)
}

func setDisabled(ctx context.Context, names []string, disabled bool, opts *Options) (*Report, error) {
	rep, dg, roots, err := openRoots(ctx, opts)
	if err != nil {
		return rep, err
	}
	verb, done := "enable", OutcomeEnabled
	if disabled {
		verb, done = "disable", OutcomeDisabled
	}
	var txns []*txn
	var refused, blocked []Result
	var missing []string
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		found := false
		for _, ri := range roots {
			if ri.deprecatedForAll() {
				continue
			}
			h, err := heldIn(opts, ri, name, dg)
			if err != nil {
				return rep, err
			}
			shown, from, rec, raw, rerr, disk := h.shown, h.place, h.rec, h.raw, h.rerr, h.disk
			if rerr == nil && rec == nil && !disk.exists {
				continue
			}
			found = true
			r := Result{Name: name, Kind: ri.kind, Root: ri.path, Dest: from, Readers: slices.Clone(ri.readers)}
			var problem string
			switch {
			case rerr != nil:
				problem = "its receipt cannot be read: " + rerr.Error()
			case rec == nil:
				problem = "it was not installed by agent-skills (no receipt)"
			case !disk.exists:
				problem = "its files are gone; agent-skills install " + name + " puts them back"
			case !disk.kindOK:
				problem = "something else is in its place"
			case disk.modified() && !opts.Force:
				problem = "files were changed or removed since it was installed"
				r.Modified = disk.modifiedList()
			}
			if rec != nil {
				r.Version, r.Kind, r.Role = rec.Version, rec.Kind, rec.Role
			}
			if problem != "" {
				r.Outcome, r.Reason = OutcomeRefused, problem
				refused = append(refused, r)
				rep.Results = append(rep.Results, r)
				continue
			}
			if rec.Disabled == disabled {
				r.Outcome = OutcomeUnchanged
				rep.Results = append(rep.Results, r)
				continue
			}
			t, why := toggleTxn(ri, name, shown, from, rec, raw, disk, disabled)
			if why != "" {
				r.Outcome, r.Reason = OutcomeRefused, why
				blocked = append(blocked, r)
				rep.Results = append(rep.Results, r)
				continue
			}
			r.Outcome, r.Dest = done, t.dest
			if t.shape == agents.ShapeDirectory {
				r.Dest = shown
			}
			for _, f := range t.rec.Files {
				r.Files = append(r.Files, f.Path)
			}
			r.Preserved = t.keeps()
			txns = append(txns, t)
			rep.Results = append(rep.Results, r)
		}
		if !found {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		installed, err := installedNames(roots, dg, opts.meta())
		if err != nil {
			return rep, err
		}
		return rep, notInstalledError(missing, installed)
	}
	if len(refused) > 0 {
		return rep, modifiedError(verb, refused)
	}
	if len(blocked) > 0 {
		return rep, blockedError(verb, blocked)
	}
	if opts.DryRun {
		return rep, nil
	}
	return rep, run(ctx, txns, opts)
}

// toggleTxn builds the transaction that puts the package name, installed
// at from with receipt rec, into the other state, or says why it cannot:
// a file in the way, or a name that could not be told apart again.
func toggleTxn(ri rootInfo, name, shown, from string, rec *receipt, raw []byte, disk *onDisk, disabled bool) (*txn, string) {
	if f := ambiguousName(rec.Files, ri.loc.Shape); f != "" && disabled {
		return nil, fmt.Sprintf("it has a file named %s, which a disabled SKILL.md would be named too", f)
	}
	next := *rec
	next.Disabled = disabled
	next.Files = renamed(rec.Files, ri.loc.Shape, disabled)
	t := &txn{root: ri.path, name: name, shape: ri.loc.Shape, rec: &next, oldReceipt: raw, existed: true}
	if ri.loc.Shape == agents.ShapeFile {
		to := placeOf(shown, ri.loc.Shape, disabled)
		if _, err := os.Lstat(to); err == nil {
			return nil, fmt.Sprintf("%s is already there, and agent-skills did not put it there", filepath.Base(to))
		}
		t.kind, t.dest = txnMove, to
		t.extra().from = from
		return t, ""
	}
	// A folder: stage its files under their new names, as hard links,
	// with the user's files beside them, and exchange it with the old.
	added := map[string]bool{}
	for _, a := range disk.added {
		added[a] = true
	}
	missing := map[string]bool{}
	for _, m := range disk.missing {
		missing[m] = true
	}
	t.kind, t.dest = txnWrite, from
	for _, f := range rec.Files {
		to := shownPath(f.Path, ri.loc.Shape)
		if disabled {
			to = hiddenPath(f.Path, ri.loc.Shape)
		}
		if to != f.Path && added[to] {
			return nil, fmt.Sprintf("your file %s has the name %s would take", to, f.Path)
		}
		if missing[f.Path] {
			continue // --force: it stays missing, as the receipt says
		}
		t.files = append(t.files, stagedFile{rel: to, from: filepath.Join(from, filepath.FromSlash(f.Path))})
	}
	t.setKeep(disk.added)
	return t, ""
}

// blockedError reports packages that cannot change state because of a
// file in the way; --force does not help, moving the file does.
func blockedError(verb string, blocked []Result) *askerr.Error {
	var detail, order []string
	for _, r := range blocked {
		detail = append(detail, fmt.Sprintf("%s: %s", r.Dest, r.Reason))
		if !slices.Contains(order, r.Name) {
			order = append(order, r.Name)
		}
	}
	return &askerr.Error{
		Code:    CodeModifiedInstall,
		Message: fmt.Sprintf("refusing to %s %s: a file is in the way", verb, quoteList(order)),
		Detail:  append(detail, "Nothing was changed in any agent root."),
		Try:     []string{"move the named files out of the skill's folder, then run agent-skills " + verb + " " + strings.Join(order, " ") + " again"},
	}
}
