package notify

import "time"

// CLITTL is how long a lookup of the CLI's releases is reused.
const CLITTL = 24 * time.Hour

// ReminderDelay is how long "remind me tomorrow" hides a release.
const ReminderDelay = 24 * time.Hour

// MinSkillTTL is the shortest reuse of a registry lookup.
const MinSkillTTL = 60 * time.Second

// LookupTimeout bounds each lookup: the CLI's releases document, and
// each registry's index (they run side by side, so a command waits at
// most this long for all of them).
const LookupTimeout = 2 * time.Second

// FailureTTL is the longest a failed lookup is kept before it is tried
// again (a lookup's own TTL, when shorter, wins).
const FailureTTL = time.Hour

// SkillTTL is the reuse of a registry lookup: the registry cache's TTL
// (config cache.ttlSeconds), at least MinSkillTTL.
func SkillTTL(ttlSeconds int) time.Duration {
	d := time.Duration(ttlSeconds) * time.Second
	if d < MinSkillTTL {
		return MinSkillTTL
	}
	return d
}

// FreshCLI returns the CLI lookup to reuse: made at url for current,
// within CLITTL of now (and not in the future, a clock set back). nil
// means look again.
func (s *Store) FreshCLI(url, current string, now time.Time) *CLICheck {
	c := s.CLI
	if c == nil || c.URL != url || c.Current != current || !fresh(c.CheckedAt, keep(CLITTL, c.Failed), now) {
		return nil
	}
	return c
}

// keep is how long a lookup is reused: ttl, or for a failed one at most
// FailureTTL.
func keep(ttl time.Duration, failed string) time.Duration {
	if failed != "" && ttl > FailureTTL {
		return FailureTTL
	}
	return ttl
}

// FreshRegistry returns the registry lookup to reuse: for the registry
// name at the same URL and ref, within ttl of now, and covering every
// skill of names (a skill installed since is looked up). A registry whose
// URL or ref changed is looked up again.
func (s *Store) FreshRegistry(name, url, ref string, names []string, ttl time.Duration, now time.Time) *RegistryCheck {
	for i := range s.Registries {
		r := &s.Registries[i]
		if r.Name != name {
			continue
		}
		if r.URL != url || r.Ref != ref || !fresh(r.CheckedAt, keep(ttl, r.Failed), now) {
			return nil
		}
		if r.Failed == "" {
			for _, n := range names {
				if _, ok := r.Skills[n]; !ok {
					return nil
				}
			}
		}
		return r
	}
	return nil
}

// PutRegistry records a registry lookup, replacing the one of that name.
func (s *Store) PutRegistry(c RegistryCheck) {
	for i := range s.Registries {
		if s.Registries[i].Name == c.Name {
			s.Registries[i] = c
			return
		}
	}
	s.Registries = append(s.Registries, c)
}

func fresh(at time.Time, ttl time.Duration, now time.Time) bool {
	return !at.After(now) && now.Sub(at) < ttl
}
