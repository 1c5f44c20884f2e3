package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/resolve"
)

// sourceOptions are the options every source fetch uses; dir receives the
// materialised packages. On a terminal, the user picks among several
// skills.
func (e *env) sourceOptions(dir string, skills []string) source.Options {
	o := e.ws.SourceOptions(dir, skills)
	o.Interactive, o.Pick = e.OutIsTerminal() && e.stdinIsTerminal(), e.pickSkills
	return o
}

// stdinIsTerminal reports whether standard input is a terminal.
func (e *env) stdinIsTerminal() bool {
	f, ok := e.stdin.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// pickSkills asks on the terminal which of several skills to install.
func (e *env) pickSkills(found []source.Found) ([]source.Found, error) {
	fmt.Fprintln(e.Err, "This source offers several skills:")
	for i, f := range found {
		fmt.Fprintf(e.Err, "  %d) %s  %s\n", i+1, ui.Field(f.Name), ui.Truncate(ui.OneLine(f.Description), 60))
	}
	fmt.Fprint(e.Err, "Install which? (numbers separated by spaces, or * for all): ")
	e.Flush() // the prompt has no new line; show it before waiting
	var line string
	buf := make([]byte, 1)
	for {
		n, err := e.stdin.Read(buf)
		if n == 0 || err != nil || buf[0] == '\n' {
			break
		}
		line += string(buf[:n])
	}
	line = strings.TrimSpace(line)
	if line == "*" {
		return found, nil
	}
	var out []source.Found
	for _, f := range strings.Fields(line) {
		var i int
		if _, err := fmt.Sscanf(f, "%d", &i); err != nil || i < 1 || i > len(found) {
			return nil, askerr.Usage("%q is not one of the numbers shown", f)
		}
		out = append(out, found[i-1])
	}
	if len(out) == 0 {
		return nil, askerr.Usage("no skill chosen")
	}
	return out, nil
}

// listSource prints what a source offers (install --list), reading at
// most maxSkills skills (0: the default cap).
func (e *env) listSource(r source.Ref, maxSkills int) error {
	opts := e.sourceOptions("", nil)
	opts.List, opts.MaxSkills = true, maxSkills
	res, err := source.Fetch(e.ctx, r, opts)
	if err != nil {
		return err
	}
	if res.Registry {
		fmt.Fprintf(e.Out, "%s is a registry; add it with: agent-skills registry add <name> %s\n", ui.Field(r.Input), ui.Field(res.RegistryURL))
		return nil
	}
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPATH\tDESCRIPTION")
	for _, f := range res.Found {
		p := f.Path
		if p == "" {
			p = "."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", ui.Field(f.Name), ui.Field(p), ui.Truncate(ui.OneLine(f.Description), 70))
	}
	return tw.Flush()
}

// fetchSources materialises the chosen skills of every source into a
// temporary folder (removed by the returned cleanup) as verified packages,
// reading at most maxSkills skills from each (0: the default cap). The
// same skill reached through two references is fetched once.
func (p *pipeline) fetchSources(refs []source.Ref, skills []string, maxSkills int) ([]fetched, func(), error) {
	if len(refs) == 0 {
		return nil, func() {}, nil
	}
	tmp, err := os.MkdirTemp(ensureDir(filepath.Join(p.e.ws.CacheDir(), "staging")), "sources-")
	if err != nil {
		return nil, func() {}, &askerr.Error{Code: "ASK_IO", Message: "cannot create a staging folder", Err: err}
	}
	cleanup := func() { os.RemoveAll(tmp) }
	seen := map[string]bool{}
	byName := map[string]string{}
	var out []fetched
	for i, r := range refs {
		dir := filepath.Join(tmp, fmt.Sprint(i))
		opts := p.e.sourceOptions(dir, skills)
		opts.MaxSkills = maxSkills
		res, err := source.Fetch(p.e.ctx, r, opts)
		if err != nil {
			cleanup()
			return nil, func() {}, err
		}
		if res.Registry {
			cleanup()
			return nil, func() {}, &askerr.Error{Code: "ASK_USAGE", Message: r.Input + " is a registry, not a skill source",
				Try: []string{"agent-skills registry add <name> " + res.RegistryURL, "then: agent-skills install <name>:<skill>"}}
		}
		for _, pk := range res.Packages {
			key := pk.Source + "|" + pk.Subpath
			if seen[key] {
				continue
			}
			if prev, ok := byName[pk.Name]; ok {
				cleanup()
				return nil, func() {}, askerr.Usage("two different sources provide a skill named %q (%s and %s); install them one at a time", pk.Name, prev, pk.Source)
			}
			seen[key], byName[pk.Name] = true, pk.Source
			out = append(out, sourceFetched(pk, string(resolve.RoleRequested)))
		}
	}
	return out, cleanup, nil
}

// sourceFetched turns a materialised source package into an install item.
func sourceFetched(pk source.Package, role string) fetched {
	return fetched{
		want: want{name: pk.Name, version: pk.Version, role: role, integrity: pk.Integrity,
			source: pk.Source, ref: pk.Ref, commit: pk.Commit, subpath: pk.Subpath, deps: map[string]string{}},
		item: install.Item{Pkg: pk.Pkg, Dir: pk.Dir, Resolved: pk.Resolved, Integrity: pk.Integrity, Role: role,
			Dependencies: map[string]string{}},
	}
}

// restoreSources fetches exactly the commits and folders the lock records
// for skills installed from sources, verifying their integrity.
func (p *pipeline) restoreSources(entries map[string]resolve.LockedSkill) ([]fetched, func(), error) {
	if len(entries) == 0 {
		return nil, func() {}, nil
	}
	tmp, err := os.MkdirTemp(ensureDir(filepath.Join(p.e.ws.CacheDir(), "staging")), "restore-")
	if err != nil {
		return nil, func() {}, &askerr.Error{Code: "ASK_IO", Message: "cannot create a staging folder", Err: err}
	}
	cleanup := func() { os.RemoveAll(tmp) }
	var out []fetched
	for _, name := range sortedKeys(entries) {
		l := entries[name]
		pk, err := source.Restore(p.e.ctx, source.Pin{Name: name, Version: l.Version, Source: l.Source, Resolved: l.Resolved,
			Commit: l.Commit, Subpath: l.Subpath, Integrity: l.Integrity}, p.e.sourceOptions(filepath.Join(tmp, name), nil))
		if err != nil {
			cleanup()
			if askerr.Is(err, "ASK_INTEGRITY_MISMATCH") {
				return nil, func() {}, &askerr.Error{Code: "ASK_INTEGRITY_MISMATCH", Message: fmt.Sprintf("%s from %s does not match skills.lock", name, l.Source), Err: err,
					Try: []string{"nothing was installed; check who changed the source at commit " + l.Commit}}
			}
			return nil, func() {}, err
		}
		f := sourceFetched(*pk, string(resolve.RoleRequested))
		f.ref = l.Ref
		out = append(out, f)
	}
	return out, cleanup, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
