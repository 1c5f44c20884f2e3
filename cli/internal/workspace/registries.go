package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/skills"
)

// BundledIndexPath is where the bundled collection keeps its index.
const BundledIndexPath = "registry/skills.yaml"

// registryTimeout bounds loading one registry's index, so that an
// unreachable host cannot stall a command that other registries can serve.
const registryTimeout = 60 * time.Second

// RegistrySpec converts a configured registry to the registry module's Spec.
func RegistrySpec(r config.Registry) registry.Spec {
	return registry.Spec{Name: r.Name, URL: r.URL, Kind: r.Kind, Ref: r.Ref, Untrusted: !r.Trusted, TrustedSigners: r.TrustedSigners}
}

// RegistryOptions returns the environment every registry runs in.
func (m *Machine) RegistryOptions(cfg *config.Config) registry.Options {
	idx, _ := fs.ReadFile(skills.FS, BundledIndexPath)
	return registry.Options{
		CacheDir:     m.CacheDir(),
		TTL:          time.Duration(cfg.Cache.TTLSeconds) * time.Second,
		Offline:      m.Offline(),
		HTTPTimeouts: m.HTTP,
		Notify:       m.notify,
		Bundled:      skills.FS,
		BundledIndex: idx,
		Getenv:       m.Getenv,
	}
}

// OpenRegistries opens every registry of list, in its precedence order.
func (m *Machine) OpenRegistries(cfg *config.Config, list *RegistryList) (*registry.Set, error) {
	opts := m.RegistryOptions(cfg)
	regs := make([]registry.Registry, 0, len(list.Registries))
	for _, r := range list.Registries {
		reg, err := list.Open(r, opts)
		if err != nil {
			return nil, err
		}
		regs = append(regs, reg)
	}
	return registry.NewSet(m.notify, regs...), nil
}

// Open opens one registry of the list as OpenRegistries does: a project's
// folder registry with the checks of projectLocal.
func (l *RegistryList) Open(r ListedRegistry, opts registry.Options) (registry.Registry, error) {
	reg, err := OpenRegistry(r.Registry, opts)
	if err != nil {
		return nil, err
	}
	if r.From == FromProject && r.Kind == config.KindLocal {
		reg = projectLocal{reg, l.ProjectRoot, r.URL}
	}
	return reg, nil
}

// projectLocal is a folder registry a project file names. Its index must
// be a regular file — not a link, which a cloned project could point at a
// device or a pipe that never ends — and when the folder is inside the
// project, where its payloads come from is said relative to the project
// root ("./tools-reg:skills/x"), so that skills.lock records the same
// resolved value in every clone.
type projectLocal struct {
	registry.Registry
	root, url string
}

// Index refuses an index file that is not a regular file, then loads it.
func (p projectLocal) Index(ctx context.Context) (*registry.Index, error) {
	file := strings.TrimPrefix(p.url, "file://")
	switch strings.ToLower(filepath.Ext(file)) {
	case ".yaml", ".yml", ".json":
	default:
		file = filepath.Join(file, filepath.FromSlash(BundledIndexPath))
	}
	if fi, err := os.Lstat(file); err == nil && !fi.Mode().IsRegular() {
		return nil, &registry.Error{Code: registry.CodeRegistryUnavailable,
			Message: fmt.Sprintf("registry %q: %s is not a regular file (a link, a device or a pipe); a project's registry index must be a plain file", p.Name(), file),
			Try:     []string{"replace it with the index itself, or remove the registry: agent-skills registry remove --project " + p.Name()}}
	}
	return p.Registry.Index(ctx)
}

// Resolved says where name@version comes from, relative to the project
// when the registry is inside it.
func (p projectLocal) Resolved(ctx context.Context, name, version string) (string, error) {
	s, err := p.Registry.Resolved(ctx, name, version)
	if p.root == "" || err != nil {
		return s, err
	}
	if rel, ok := strings.CutPrefix(s, p.root+string(filepath.Separator)); ok && inside(p.root, p.url) {
		s = "./" + filepath.ToSlash(rel)
	}
	return s, err
}

// inside reports whether path is root or below it.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Where a registry of a RegistryList comes from.
const (
	// FromUser is the user's configuration, config.json (or its
	// defaults when there is no file).
	FromUser = "user"
	// FromProject is the project's registries file (config.ProjectFileName).
	FromProject = "project"
	// FromLock is a registry only skills.lock names (opened after the
	// others, untrusted; see skillset's lockregistries.go).
	FromLock = "lock"
)

// ListedRegistry is one registry of a RegistryList and where it comes
// from.
type ListedRegistry struct {
	config.Registry
	// From is FromUser or FromProject.
	From string `json:"from"`
	// File is the file the entry is written in: config.json (which may
	// not exist: the defaults) or the project file.
	File string `json:"file"`
}

// Shadowed is a project registry that is not used because the user's own
// configuration has a registry of the same name somewhere else.
type Shadowed struct {
	// Project is the project's entry, which is not used.
	Project ListedRegistry
	// By is the user's registry of the same name, which is.
	By ListedRegistry
}

// RegistryList is every registry a command may use, in precedence order
// (DESIGN §4.3: the first registry that has a name owns it): the user's
// own, in their configured order, then the project's, in the order of
// its file. A project registry therefore owns only the names that no
// registry of the user's has — a cloned project cannot take over a name
// the user already gets from bundled, official or their own registries —
// and one with the name of a user's registry is that registry: when the
// two name different places, the user's is used and the project's is
// listed in Shadowed (docs/security.md).
type RegistryList struct {
	// Registries are the registries in precedence order.
	Registries []ListedRegistry
	// Shadowed are the project entries replaced by a user's registry of
	// the same name.
	Shadowed []Shadowed
	// ProjectFile is the project's registries file when the project has
	// one; "" otherwise.
	ProjectFile string
	// ProjectRoot is the project the list was made for; "" for a global
	// command.
	ProjectRoot string
}

// Get returns the registry called name.
func (l *RegistryList) Get(name string) (ListedRegistry, bool) {
	for _, r := range l.Registries {
		if r.Name == name {
			return r, true
		}
	}
	return ListedRegistry{}, false
}

// FromProject reports whether any registry of the list comes from the
// project (or is shadowed there).
func (l *RegistryList) FromProject() bool {
	for _, r := range l.Registries {
		if r.From == FromProject {
			return true
		}
	}
	return len(l.Shadowed) > 0
}

// RegistryList merges the registries of the project at projectRoot (none
// when projectRoot is "" or the project has no registries file) after
// those cfg names. The project file is untrusted input: every entry must
// pass config.CheckProject and open as a registry (no plain http to a
// remote host, no ref or URL git must not be given), and a file with any
// problem is refused whole, with every problem, as
// ASK_PROJECT_REGISTRIES_INVALID. No project entry is ever trusted to
// use plain http beyond loopback.
func (m *Machine) RegistryList(cfg *config.Config, projectRoot string) (*RegistryList, error) {
	l := &RegistryList{ProjectRoot: projectRoot}
	for _, r := range cfg.Registries {
		l.Registries = append(l.Registries, ListedRegistry{Registry: r, From: FromUser, File: m.ConfigPath()})
	}
	if projectRoot == "" {
		return l, nil
	}
	data, err := config.ReadProject(projectRoot)
	if err != nil || data == nil {
		return l, err
	}
	file := config.ProjectPath(projectRoot)
	p, err := config.DecodeProject(data, file)
	if err != nil {
		return nil, err
	}
	l.ProjectFile = file
	opts := m.RegistryOptions(cfg)
	var probs []config.Problem
	var added []ListedRegistry
	seen := map[string]bool{}
	for _, pr := range p.Registries {
		if seen[pr.Name] {
			probs = append(probs, config.Problem{Line: pr.Line, Message: fmt.Sprintf("registry %q is listed twice", pr.Name)})
			continue
		}
		seen[pr.Name] = true
		if whys := config.CheckProject(pr); len(whys) > 0 {
			for _, why := range whys {
				probs = append(probs, config.Problem{Line: pr.Line, Message: fmt.Sprintf("registry %q: %s", pr.Name, why)})
			}
			continue
		}
		r := ListedRegistry{Registry: pr.Resolve(projectRoot), From: FromProject, File: file}
		if mine, ok := cfg.Registry(r.Name); ok {
			if mine.Kind != r.Kind || mine.URL != r.URL || mine.Ref != r.Ref {
				l.Shadowed = append(l.Shadowed, Shadowed{Project: r, By: ListedRegistry{Registry: mine, From: FromUser, File: m.ConfigPath()}})
			}
			continue
		}
		if _, err := registry.Open(RegistrySpec(r.Registry), opts); err != nil {
			probs = append(probs, config.Problem{Line: pr.Line, Message: redact.Text(err.Error())})
			continue
		}
		added = append(added, r)
	}
	if len(probs) > 0 {
		return nil, &config.ProjectError{File: file, Problems: probs}
	}
	l.Registries = append(l.Registries, added...)
	return l, nil
}

// ShadowNotice is the notice a command gives for a shadowed project
// registry.
func ShadowNotice(s Shadowed) string {
	return fmt.Sprintf("project registry %s (%s, in %s) is not used: your own registry %s (%s) is",
		s.Project.Name, redact.URL(Location(s.Project.Registry)), config.ProjectFileName, s.By.Name, redact.URL(Location(s.By.Registry)))
}

// Location renders a registry's URL with its ref, as URL#ref.
func Location(r config.Registry) string {
	if r.Ref != "" {
		return r.URL + "#" + r.Ref
	}
	return r.URL
}

// OpenRegistry opens one configured registry, each index load bounded so
// that an unreachable host cannot stall a command other registries serve.
func OpenRegistry(r config.Registry, opts registry.Options) (registry.Registry, error) {
	reg, err := registry.Open(RegistrySpec(r), opts)
	if err != nil {
		return nil, err
	}
	return timed{reg}, nil
}

// timed bounds each index load of a registry by registryTimeout.
type timed struct{ registry.Registry }

func (t timed) Index(ctx context.Context) (*registry.Index, error) {
	ctx, cancel := context.WithTimeout(ctx, registryTimeout)
	defer cancel()
	return t.Registry.Index(ctx)
}
