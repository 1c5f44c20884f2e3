package notify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/releases"
)

// StoreFile is the state file's name under the configuration home.
const StoreFile = "updates.json"

// StoreSchemaVersion is the updates.json format this build writes.
const StoreSchemaVersion = 1

// maxStoreBytes bounds the read of updates.json.
const maxStoreBytes = 1 << 20

// Store is updates.json: disposable metadata checks, dismissals and
// reminder deadlines. It is a cache, never a source of truth: a file
// that cannot be read or decoded is an empty store, replaced at the next
// save.
type Store struct {
	SchemaVersion int `json:"schemaVersion"`
	// CLI is the last lookup of the CLI's releases.
	CLI *CLICheck `json:"cli,omitempty"`
	// Registries are the last lookups of skill releases, one per
	// registry name, with the URL and ref they were made at.
	Registries []RegistryCheck `json:"registries,omitempty"`
	Dismissed  []Release       `json:"dismissed,omitempty"`
	Reminders  []Reminder      `json:"reminders,omitempty"`
}

// CLICheck is one lookup of the releases document: where, when, for
// which running version, and the newest release it offered (none when
// Newest is nil). Failed says why the lookup failed; a failure is kept
// too, for FailureTTL, so that a broken network does not cost every
// command the lookup's time limit.
type CLICheck struct {
	URL       string            `json:"url"`
	Current   string            `json:"current"`
	CheckedAt time.Time         `json:"checkedAt"`
	Newest    *releases.Release `json:"newest,omitempty"`
	Failed    string            `json:"failed,omitempty"`
}

// RegistryCheck is one lookup of a registry's index for the skills
// installed from it: what it offers of each, by name (an Offer without a
// version when it has no release to offer, or no longer lists the
// skill). Failed says why the lookup failed, kept as CLICheck's is.
type RegistryCheck struct {
	Name      string           `json:"name"`
	URL       string           `json:"url"`
	Ref       string           `json:"ref,omitempty"`
	CheckedAt time.Time        `json:"checkedAt"`
	Skills    map[string]Offer `json:"skills,omitempty"`
	Failed    string           `json:"failed,omitempty"`
}

// Release names exactly one release: "agent-skills" for the CLI, else a
// skill's name.
type Release struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Reminder hides one release until Until.
type Reminder struct {
	Release
	Until time.Time `json:"until"`
}

// StorePath is updates.json under home (config.Home).
func StorePath(home string) string { return filepath.Join(home, StoreFile) }

// Load reads the store at path; any failure — missing, too large, not
// JSON, another schemaVersion — is an empty store.
func Load(path string) *Store {
	empty := &Store{SchemaVersion: StoreSchemaVersion}
	data, err := atomicfile.ReadPlain(path, false, maxStoreBytes)
	if err != nil || data == nil {
		return empty
	}
	var s Store
	if json.Unmarshal(data, &s) != nil || s.SchemaVersion != StoreSchemaVersion {
		return empty
	}
	return &s
}

// Save writes the store atomically, its lists sorted so that the file
// is stable, dropping reminders that have run out.
func (s *Store) Save(path string, now time.Time) error {
	s.SchemaVersion = StoreSchemaVersion
	live := s.Reminders[:0]
	for _, r := range s.Reminders {
		if r.Until.After(now) {
			live = append(live, r)
		}
	}
	s.Reminders = live
	sort.Slice(s.Registries, func(i, j int) bool { return s.Registries[i].Name < s.Registries[j].Name })
	sort.Slice(s.Dismissed, func(i, j int) bool { return lessRelease(s.Dismissed[i], s.Dismissed[j]) })
	sort.Slice(s.Reminders, func(i, j int) bool { return lessRelease(s.Reminders[i].Release, s.Reminders[j].Release) })
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o644)
}

func lessRelease(a, b Release) bool {
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.Version < b.Version
}

// Dismiss hides exactly this release for good.
func (s *Store) Dismiss(r Release) {
	if !s.IsDismissed(r) {
		s.Dismissed = append(s.Dismissed, r)
	}
}

// IsDismissed reports whether this exact release was dismissed.
func (s *Store) IsDismissed(r Release) bool {
	for _, d := range s.Dismissed {
		if d == r {
			return true
		}
	}
	return false
}

// Remind hides this release for ReminderDelay from now.
func (s *Store) Remind(r Release, now time.Time) {
	for i := range s.Reminders {
		if s.Reminders[i].Release == r {
			s.Reminders[i].Until = now.Add(ReminderDelay)
			return
		}
	}
	s.Reminders = append(s.Reminders, Reminder{Release: r, Until: now.Add(ReminderDelay)})
}

// Hidden reports whether this release must not be offered now: dismissed,
// or a reminder not yet due.
func (s *Store) Hidden(r Release, now time.Time) bool {
	if s.IsDismissed(r) {
		return true
	}
	for _, m := range s.Reminders {
		if m.Release == r && now.Before(m.Until) {
			return true
		}
	}
	return false
}
