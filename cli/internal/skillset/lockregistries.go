package skillset

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// CodeLockRegistryMismatch reports a registry that skills.lock records
// at another place than the configuration (or, for bundled and official,
// agent-skills itself) has it under the same name.
const CodeLockRegistryMismatch = "ASK_LOCK_REGISTRY_MISMATCH"

// This file keeps the registries skills.lock records (lockfileVersion 2):
// what is needed to reach each registry a locked skill came from, so that
// a teammate whose configuration does not name it restores the same bytes.
//
// The rules, in docs/lockfile.md and docs/security.md:
//
//   - A registry the configuration names is used as configured; the lock
//     must record it at the same place (kind, URL, git ref), else every
//     command that would install or update refuses with
//     ASK_LOCK_REGISTRY_MISMATCH, naming both. A lock can therefore never
//     point a configured name elsewhere.
//   - bundled and official always mean agent-skills' own collection and
//     the public registry: a lock recording them elsewhere is refused the
//     same way, whatever the configuration says.
//   - A registry only the lock names is opened after every configured
//     one, untrusted: it answers for the skills locked to it (and
//     name:skill references), and never owns a name by precedence, so a
//     cloned project cannot capture a name the user's registries lack.

// builtinRegistries are the names whose place agent-skills fixes.
var builtinRegistries = map[string]resolve.LockedRegistry{
	"bundled":  {Kind: config.KindBundled, URL: config.BundledURL},
	"official": {Kind: config.KindGit, URL: config.OfficialURL},
}

// lockOnlyRegistries checks the registries l records against cfg and
// returns those cfg does not name, to open after the configured ones,
// untrusted. Every disagreement is one ASK_LOCK_REGISTRY_MISMATCH naming
// each registry and both places.
func lockOnlyRegistries(l *resolve.Lock, list *workspace.RegistryList) ([]config.Registry, error) {
	if l == nil || len(l.Registries) == 0 {
		return nil, nil
	}
	var extra []config.Registry
	var mismatches []mismatch
	var invalid []string
	for _, name := range slices.Sorted(maps.Keys(l.Registries)) {
		rec := l.Registries[name]
		if b, ok := builtinRegistries[name]; ok && !sameRegistry(rec, b) {
			mismatches = append(mismatches, mismatch{name: name, locked: rec, other: b, builtin: true})
			continue
		}
		if c, ok := list.Get(name); ok {
			if !sameRegistry(rec, resolve.LockedRegistry{Kind: c.Kind, URL: c.URL, Ref: c.Ref}) {
				mismatches = append(mismatches, mismatch{name: name, locked: rec,
					other: resolve.LockedRegistry{Kind: c.Kind, URL: redact.URL(c.URL), Ref: c.Ref}})
			}
			continue
		}
		if why := config.CheckRegistryName(name, rec.Kind); why != "" {
			invalid = append(invalid, fmt.Sprintf("registries.%s: %s", name, why))
			continue
		}
		if why := placeProblem(rec); why != "" {
			invalid = append(invalid, fmt.Sprintf("registries.%s: %s", name, why))
			continue
		}
		extra = append(extra, config.Registry{Name: name, URL: rec.URL, Kind: rec.Kind, Ref: rec.Ref, Trusted: false})
	}
	if len(mismatches) > 0 {
		return nil, mismatchError(l, mismatches)
	}
	if len(invalid) > 0 {
		return nil, &askerr.Error{Code: resolve.CodeLockInvalid, Message: "skills.lock records a registry under a name no registry can have",
			Detail: append(invalid, "Nothing was changed."),
			Try:    []string{"restore skills.lock from version control"}}
	}
	return extra, nil
}

// placeProblem says why a registry only the lock names cannot be opened
// where it says, or "" when it can: a folder (a local registry, a git
// repository given by path) must be absolute or relative to the project
// ("./reg", made absolute when the lock was read), never relative to
// whatever folder a command runs in; an index is an http(s) URL; the
// bundled collection is bundled:.
func placeProblem(r resolve.LockedRegistry) string {
	u := r.URL
	switch r.Kind {
	case config.KindLocal:
		if p, ok := strings.CutPrefix(u, "file://"); ok {
			u = p
		}
		if !filepath.IsAbs(u) {
			return fmt.Sprintf("the folder %q is neither absolute nor relative to the project (./path)", r.URL)
		}
	case config.KindGit:
		if !strings.Contains(u, "://") && !filepath.IsAbs(u) && !isSCP(u) {
			return fmt.Sprintf("the repository %q is neither a URL, an absolute path nor relative to the project (./path)", r.URL)
		}
	case config.KindHTTP:
		if s, _, ok := strings.Cut(u, "://"); !ok || !strings.EqualFold(s, "http") && !strings.EqualFold(s, "https") {
			return fmt.Sprintf("the index %q is not an http(s) URL", r.URL)
		}
	case config.KindOCI:
		if !strings.HasPrefix(u, "oci://") {
			return fmt.Sprintf("the OCI registry %q is not an oci:// URL", r.URL)
		}
	case config.KindBundled:
		if u != config.BundledURL {
			return fmt.Sprintf("a bundled registry's url is %s, not %q", config.BundledURL, r.URL)
		}
	}
	return ""
}

// isSCP reports whether u is git's scp-like syntax, [user@]host:path.
func isSCP(u string) bool {
	i := strings.Index(u, ":")
	return i > 1 && !strings.ContainsAny(u[:i], "/\\")
}

// openWithLock opens the registries of list — the user's, then the
// project's — followed by those only the lock names (see
// lockOnlyRegistries).
func openWithLock(ws *workspace.Machine, cfg *config.Config, list *workspace.RegistryList, l *resolve.Lock) (*registry.Set, error) {
	extra, err := lockOnlyRegistries(l, list)
	if err != nil {
		return nil, err
	}
	opts := ws.RegistryOptions(cfg)
	merged := *list
	merged.Registries = slices.Clone(list.Registries)
	for _, r := range extra {
		if _, err := workspace.OpenRegistry(r, opts); err != nil {
			return nil, &askerr.Error{Code: askerr.CodeOf(err),
				Message: fmt.Sprintf("skills.lock records registry %q at %s, which cannot be opened", r.Name, r.URL), Err: err,
				Detail: []string{"Nothing was changed."},
				Try: []string{"restore skills.lock from version control",
					fmt.Sprintf("agent-skills registry add %s <url>   (to say where %s is on this machine)", r.Name, r.Name)}}
		}
		merged.Registries = append(merged.Registries, workspace.ListedRegistry{Registry: r, From: workspace.FromLock, File: "skills.lock"})
	}
	return ws.OpenRegistries(cfg, &merged)
}

// mismatch is one registry the lock records elsewhere than the
// configuration, or agent-skills (builtin), has it.
type mismatch struct {
	name          string
	locked, other resolve.LockedRegistry
	builtin       bool
}

// mismatchError is the ASK_LOCK_REGISTRY_MISMATCH of ms.
func mismatchError(l *resolve.Lock, ms []mismatch) error {
	var detail, try []string
	builtin := false
	for _, m := range ms {
		if m.builtin {
			builtin = true
			detail = append(detail, fmt.Sprintf("registry %q: skills.lock has %s, but %q always names %s (%s)",
				m.name, describeLocked(m.locked), m.name, builtinMeaning(m.name), describeLocked(m.other)))
		} else {
			detail = append(detail, fmt.Sprintf("registry %q: skills.lock has %s, this machine's configuration %s",
				m.name, describeLocked(m.locked), describeLocked(m.other)))
			try = append(try, fmt.Sprintf("if skills.lock is right: agent-skills registry remove %s, then agent-skills registry add %s %s",
				m.name, m.name, addURL(m.locked)))
		}
		if skills := lockedTo(l, m.name); len(skills) > 0 {
			detail = append(detail, fmt.Sprintf("  locked to %q: %s", m.name, strings.Join(skills, ", ")))
		}
	}
	detail = append(detail, "A locked skill is fetched only from the registry the lock records, and a lock cannot point a registry's name anywhere else. Nothing was changed.")
	if builtin {
		try = append(try, "restore skills.lock from a version you trust: a lock that moves bundled or official is not one agent-skills wrote")
	} else {
		try = append(try, "if the configuration is right: restore skills.lock from a version you trust, or uninstall the skills locked to that registry and install them again")
	}
	m := ms[0]
	msg := fmt.Sprintf("skills.lock records registry %q at %s, but this machine has it at %s", m.name, m.locked.URL, m.other.URL)
	if m.builtin {
		msg = fmt.Sprintf("skills.lock records registry %q at %s, but %q is %s (%s)", m.name, m.locked.URL, m.name, builtinMeaning(m.name), m.other.URL)
	}
	if len(ms) > 1 {
		names := make([]string, len(ms))
		for i, m := range ms {
			names[i] = fmt.Sprintf("%q", m.name)
		}
		msg = fmt.Sprintf("skills.lock records %d registries elsewhere than agent-skills has them: %s", len(ms), strings.Join(names, ", "))
	}
	return &askerr.Error{Code: CodeLockRegistryMismatch, Message: msg, Detail: detail, Try: try}
}

// builtinMeaning says what a built-in registry name always names.
func builtinMeaning(name string) string {
	if name == "bundled" {
		return "agent-skills' own collection"
	}
	return "the public registry"
}

// describeLocked is a registry's place for a sentence: "git https://h/r.git (ref main)".
func describeLocked(r resolve.LockedRegistry) string {
	if r.Kind == config.KindBundled && r.URL == config.BundledURL {
		return r.URL
	}
	d := r.Kind + " " + r.URL
	if r.Ref != "" {
		d += " (ref " + r.Ref + ")"
	}
	return d
}

// addURL is what registry add takes for r.
func addURL(r resolve.LockedRegistry) string {
	if r.Ref != "" {
		return r.URL + " --ref " + r.Ref
	}
	return r.URL
}

// lockedTo lists the skills l locks to registry name, "name version".
func lockedTo(l *resolve.Lock, name string) []string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(l.Skills)) {
		if s := l.Skills[n]; s.Source == "" && s.Registry == name {
			out = append(out, n+" "+s.Version)
		}
	}
	return out
}

// sameRegistry reports whether two recorded registries are one place: the
// same kind and, by kind, the same folder, repository (whatever transport
// or user reaches it) and ref, or index URL (without user information).
func sameRegistry(a, b resolve.LockedRegistry) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case config.KindBundled:
		return true
	case config.KindLocal:
		return samePath(strings.TrimPrefix(a.URL, "file://"), strings.TrimPrefix(b.URL, "file://"))
	case config.KindGit:
		au, aref := splitRef(a)
		bu, bref := splitRef(b)
		if aref != bref {
			return false
		}
		ap, bp := gitPath(au), gitPath(bu)
		if ap != "" || bp != "" {
			return ap != "" && bp != "" && samePath(ap, bp)
		}
		return source.SameSource(au, bu)
	}
	return httpKey(a.URL) == httpKey(b.URL)
}

// splitRef returns a git registry's URL and ref: a "#ref" in the URL wins,
// as the registry module reads it.
func splitRef(r resolve.LockedRegistry) (string, string) {
	if base, frag, ok := strings.Cut(r.URL, "#"); ok {
		return base, frag
	}
	return r.URL, r.Ref
}

// gitPath is the folder of a git repository named by a path or a file://
// URL; "" for a remote one.
func gitPath(u string) string {
	switch {
	case strings.HasPrefix(u, "file://"):
		return strings.TrimPrefix(u, "file://")
	case filepath.IsAbs(u):
		return u
	}
	return ""
}

// samePath reports whether two absolute paths name one folder, links
// resolved where they exist.
func samePath(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	return a == b || realPath(a) == realPath(b)
}

// httpKey is an index URL without user information, the scheme and host
// lower-cased and trailing slashes removed.
func httpKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.User = nil
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

// recordRegistries makes l record, for every registry a skill of l is
// locked to, what is needed to reach it: what l already records, else the
// registry's configuration, without credentials. Registries no skill is
// locked to any more are dropped. A registry neither records nor the
// session knows (a lock of version 1 whose registry is gone) stays
// unrecorded.
func (s *Session) recordRegistries(l *resolve.Lock) {
	out := map[string]resolve.LockedRegistry{}
	for _, sk := range l.Skills {
		if sk.Source != "" || sk.Registry == "" {
			continue
		}
		if r, ok := l.Registries[sk.Registry]; ok {
			out[sk.Registry] = r
			continue
		}
		if s.Registries == nil {
			continue
		}
		if reg, ok := s.Registries.Get(sk.Registry); ok {
			out[sk.Registry] = lockedRegistry(reg.Spec())
		}
	}
	l.Registries = out
	if len(out) == 0 {
		l.Registries = nil
	}
}

// lockedRegistry is a registry's configuration as skills.lock records
// it: the kind, the URL without a password (and, over http(s), without
// user information, which is often a token), and the git ref.
func lockedRegistry(sp registry.Spec) resolve.LockedRegistry {
	kind := sp.Kind
	if kind == "" {
		kind = registry.InferKind(sp.URL)
	}
	u, ref := sp.URL, sp.Ref
	if kind == config.KindGit {
		if base, frag, ok := strings.Cut(u, "#"); ok {
			u, ref = base, frag
		}
	} else {
		ref = ""
	}
	return resolve.LockedRegistry{Kind: kind, URL: withoutCredentials(u), Ref: ref}
}

// withoutCredentials is raw without a password and, for http(s), without
// any user information.
func withoutCredentials(raw string) string {
	raw = redact.Strip(raw)
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if s := strings.ToLower(u.Scheme); s == "http" || s == "https" {
		u.User = nil
		return u.String()
	}
	return raw
}
