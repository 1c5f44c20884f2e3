package cli

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/upstream"
)

// upstreamWhere names an upstream source in one line:
// repository[/path][#ref].
func upstreamWhere(s upstream.Source) string {
	w := s.Repository
	if s.Path != "." {
		w += " " + s.Path
	}
	if s.Ref != "" {
		w += "#" + s.Ref
	}
	return ui.Field(w)
}

// short is a commit's first 12 characters.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// renderUpstreamAdd prints what upstream add recorded.
func (e *env) renderUpstreamAdd(r upstreamAddReport) {
	verb := "recorded"
	if r.Replaced {
		verb = "re-recorded"
	}
	en := r.Entry
	e.Done("%s %s: %s at %s, %d %s, %s", verb, ui.Field(en.Package), upstreamWhere(en.Source), short(en.Source.Commit),
		len(en.Files), ui.Plural(len(en.Files), "file", "files"), en.Digest)
	switch l := en.License; {
	case l == nil:
		e.Warn("no licence file found upstream (LICENSE, COPYING… in the skill's folder or at the root); name it with --license PATH if there is one")
	case l.InPackage:
		e.Done("  licence: %s (inside the package)", ui.Field(l.Path))
	default:
		e.Done("  licence: %s (outside the package: its %d bytes are recorded)", ui.Field(l.Path), l.Size)
	}
	if n := len(r.LocalDiffers); n > 0 {
		e.Done("  the local package differs from it in %d %s: %s", n, ui.Plural(n, "file", "files"), ui.Fields(r.LocalDiffers, ", "))
	} else {
		e.Done("  the local package has the same files")
	}
	e.Info("wrote %s", ui.Field(r.Lock))
}

// renderUpstreamCheck prints a check's report on standard output: one
// block per entry, then a summary line.
func (e *env) renderUpstreamCheck(rep *upstream.Report) {
	for _, r := range rep.Entries {
		switch r.Status {
		case upstream.StatusUnchecked:
			fmt.Fprintf(e.Out, "%s: unchecked (%s): %s\n", ui.Field(r.Package), r.Error.Code, ui.Field(r.Error.Message))
			continue
		case upstream.StatusUnchanged:
			moved := ""
			if r.CurrentCommit != r.Source.Commit {
				moved = fmt.Sprintf(", now at %s", short(r.CurrentCommit))
			}
			fmt.Fprintf(e.Out, "%s: unchanged (%s at %s%s)\n", ui.Field(r.Package), upstreamWhere(r.Source), short(r.Source.Commit), moved)
			continue
		}
		fmt.Fprintf(e.Out, "%s: changed (%s %s -> %s)\n", ui.Field(r.Package), upstreamWhere(r.Source), short(r.Source.Commit), short(r.CurrentCommit))
		if r.Digest != nil {
			fmt.Fprintf(e.Out, "  digest %s -> %s\n", r.Digest.Recorded, r.Digest.Current)
		}
		for _, f := range r.Files {
			fmt.Fprintf(e.Out, "  %-8s %s  (local: %s)\n", f.Change, ui.Field(f.Path), localWords(f.Local))
		}
		if len(r.LocalChanges) > 0 {
			parts := make([]string, len(r.LocalChanges))
			for i, c := range r.LocalChanges {
				parts[i] = ui.Field(c.Path) + " " + c.Change
			}
			fmt.Fprintf(e.Out, "  local changes the upstream did not touch: %s\n", strings.Join(parts, ", "))
		}
		if l := r.License; l != nil {
			switch l.Change {
			case upstream.Added:
				fmt.Fprintf(e.Out, "  licence added: %s\n", ui.Field(l.CurrentPath))
			case upstream.Removed:
				fmt.Fprintf(e.Out, "  licence removed: %s\n", ui.Field(l.Path))
			case upstream.Moved:
				fmt.Fprintf(e.Out, "  licence moved: %s -> %s\n", ui.Field(l.Path), ui.Field(l.CurrentPath))
			default:
				fmt.Fprintf(e.Out, "  licence changed: %s (%s -> %s)\n", ui.Field(l.Path), l.Recorded, l.Current)
			}
		}
	}
	parts := []string{fmt.Sprintf("%d changed", rep.Changed), fmt.Sprintf("%d unchanged", rep.Unchanged)}
	if rep.Unchecked > 0 {
		parts = append(parts, fmt.Sprintf("%d unchecked", rep.Unchecked))
	}
	e.Info("%d %s: %s; nothing was modified", len(rep.Entries), ui.Plural(len(rep.Entries), "upstream", "upstreams"), strings.Join(parts, ", "))
}

// localWords explains a local state.
func localWords(s string) string {
	switch s {
	case upstream.LocalUnmodified:
		return "unmodified, still the recorded upstream version"
	case upstream.LocalCurrent:
		return "already the current upstream version"
	case upstream.LocalDiverged:
		return "diverged, a local change"
	}
	return "absent"
}
