package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/releases"
)

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func TestLoadCorruptIsEmpty(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat(" ", maxStoreBytes+1)
	for _, tt := range []struct{ name, data string }{
		{"not json", "{not json"},
		{"other schema", `{"schemaVersion": 99, "cli": {"url": "x"}}`},
		{"array", `[]`},
		{"too large", big},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			s := Load(p)
			if s.CLI != nil || len(s.Dismissed) != 0 || s.SchemaVersion != StoreSchemaVersion {
				t.Fatalf("Load(%s) = %+v, want empty", tt.name, s)
			}
			// A corrupt file is replaced, not an error.
			s.Dismiss(Release{"agent-skills", "1.0.0"})
			if err := s.Save(p, t0); err != nil {
				t.Fatal(err)
			}
			if !Load(p).IsDismissed(Release{"agent-skills", "1.0.0"}) {
				t.Fatal("the replaced store lost the dismissal")
			}
		})
	}
	if s := Load(filepath.Join(dir, "missing")); s == nil || s.CLI != nil {
		t.Fatalf("missing file: %+v", s)
	}
	if s := Load(dir); s == nil || s.CLI != nil {
		t.Fatalf("a folder: %+v", s)
	}
}

func TestSaveSortedAndRoundTrips(t *testing.T) {
	p := filepath.Join(t.TempDir(), "home", StoreFile)
	s := Load(p)
	s.CLI = &CLICheck{URL: "https://x/releases.json", Current: "0.1.0", CheckedAt: t0, Newest: &releases.Release{Version: "0.2.0"}}
	s.PutRegistry(RegistryCheck{Name: "zeta", URL: "u2", CheckedAt: t0})
	s.PutRegistry(RegistryCheck{Name: "alpha", URL: "u1", Ref: "main", CheckedAt: t0, Skills: map[string]Offer{"a": {Version: "1.1.0"}}})
	s.Dismiss(Release{"b", "2.0.0"})
	s.Dismiss(Release{"a", "1.0.0"})
	s.Dismiss(Release{"a", "1.0.0"})
	s.Remind(Release{"z", "1.0.0"}, t0)
	s.Remind(Release{"old", "1.0.0"}, t0.Add(-48*time.Hour))
	if err := s.Save(p, t0); err != nil {
		t.Fatal(err)
	}
	got := Load(p)
	if got.CLI == nil || got.CLI.Newest == nil || got.CLI.Newest.Version != "0.2.0" {
		t.Fatalf("cli check lost: %+v", got.CLI)
	}
	if len(got.Registries) != 2 || got.Registries[0].Name != "alpha" || got.Registries[0].Skills["a"].Version != "1.1.0" {
		t.Fatalf("registries: %+v", got.Registries)
	}
	if len(got.Dismissed) != 2 || got.Dismissed[0].Name != "a" {
		t.Fatalf("dismissed: %+v", got.Dismissed)
	}
	if len(got.Reminders) != 1 || got.Reminders[0].Name != "z" {
		t.Fatalf("an expired reminder was kept, or a live one lost: %+v", got.Reminders)
	}
}

func TestDismissalIsExactlyOneRelease(t *testing.T) {
	s := &Store{}
	s.Dismiss(Release{"agent-skills", "0.2.0"})
	for _, tt := range []struct {
		r    Release
		want bool
	}{
		{Release{"agent-skills", "0.2.0"}, true},
		{Release{"agent-skills", "0.2.1"}, false},
		{Release{"other", "0.2.0"}, false},
	} {
		if got := s.Hidden(tt.r, t0); got != tt.want {
			t.Errorf("Hidden(%v) = %v, want %v", tt.r, got, tt.want)
		}
	}
}

func TestReminder(t *testing.T) {
	s := &Store{}
	r := Release{"agent-skills", "0.2.0"}
	s.Remind(r, t0)
	for _, tt := range []struct {
		at   time.Duration
		want bool
	}{
		{0, true}, {23 * time.Hour, true}, {24 * time.Hour, false}, {30 * time.Hour, false},
	} {
		if got := s.Hidden(r, t0.Add(tt.at)); got != tt.want {
			t.Errorf("Hidden after %v = %v, want %v", tt.at, got, tt.want)
		}
	}
	if s.Hidden(Release{"agent-skills", "0.3.0"}, t0) {
		t.Error("a reminder hid another release")
	}
}

func TestFreshCLI(t *testing.T) {
	s := &Store{CLI: &CLICheck{URL: "u", Current: "0.1.0", CheckedAt: t0}}
	for _, tt := range []struct {
		name, url, current string
		at                 time.Duration
		want               bool
	}{
		{"fresh", "u", "0.1.0", time.Hour, true},
		{"expired", "u", "0.1.0", 24 * time.Hour, false},
		{"other url", "v", "0.1.0", time.Hour, false},
		{"other current version", "u", "0.2.0", time.Hour, false},
		{"clock set back", "u", "0.1.0", -time.Hour, false},
	} {
		if got := s.FreshCLI(tt.url, tt.current, t0.Add(tt.at)) != nil; got != tt.want {
			t.Errorf("%s: fresh = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (&Store{}).FreshCLI("u", "0.1.0", t0) != nil {
		t.Error("an empty store is fresh")
	}
}

func TestFreshRegistryAndTTL(t *testing.T) {
	if SkillTTL(0) != MinSkillTTL || SkillTTL(10) != MinSkillTTL || SkillTTL(3600) != time.Hour {
		t.Fatalf("SkillTTL: %v %v %v", SkillTTL(0), SkillTTL(10), SkillTTL(3600))
	}
	s := &Store{}
	s.PutRegistry(RegistryCheck{Name: "r", URL: "https://a", Ref: "main", CheckedAt: t0, Skills: map[string]Offer{"a": {Version: "1.0.0"}}})
	ttl := SkillTTL(60)
	for _, tt := range []struct {
		name, reg, url, ref string
		names               []string
		at                  time.Duration
		want                bool
	}{
		{"fresh", "r", "https://a", "main", []string{"a"}, 30 * time.Second, true},
		{"expired", "r", "https://a", "main", []string{"a"}, 61 * time.Second, false},
		{"clock set back", "r", "https://a", "main", []string{"a"}, -time.Second, false},
		{"url changed", "r", "https://b", "main", []string{"a"}, 30 * time.Second, false},
		{"ref changed", "r", "https://a", "v2", []string{"a"}, 30 * time.Second, false},
		{"other registry", "q", "https://a", "main", []string{"a"}, 30 * time.Second, false},
		{"a skill installed since", "r", "https://a", "main", []string{"a", "b"}, 30 * time.Second, false},
	} {
		if got := s.FreshRegistry(tt.reg, tt.url, tt.ref, tt.names, ttl, t0.Add(tt.at)) != nil; got != tt.want {
			t.Errorf("%s: fresh = %v, want %v", tt.name, got, tt.want)
		}
	}
	s.PutRegistry(RegistryCheck{Name: "r", URL: "https://b", CheckedAt: t0})
	if len(s.Registries) != 1 || s.Registries[0].URL != "https://b" {
		t.Fatalf("PutRegistry did not replace: %+v", s.Registries)
	}
}

func TestFailedLookupsAreKeptShorter(t *testing.T) {
	s := &Store{CLI: &CLICheck{URL: "u", Current: "0.1.0", CheckedAt: t0, Failed: "timeout"}}
	if s.FreshCLI("u", "0.1.0", t0.Add(59*time.Minute)) == nil {
		t.Fatal("a failed CLI lookup is not kept within FailureTTL")
	}
	if s.FreshCLI("u", "0.1.0", t0.Add(61*time.Minute)) != nil {
		t.Fatal("a failed CLI lookup is kept past FailureTTL")
	}
	s.PutRegistry(RegistryCheck{Name: "r", URL: "u", CheckedAt: t0, Failed: "timeout"})
	day := SkillTTL(86400)
	if s.FreshRegistry("r", "u", "", []string{"a"}, day, t0.Add(59*time.Minute)) == nil {
		t.Fatal("a failed registry lookup is not kept within FailureTTL, whatever skills it covers")
	}
	if s.FreshRegistry("r", "u", "", []string{"a"}, day, t0.Add(61*time.Minute)) != nil {
		t.Fatal("a failed registry lookup is kept past FailureTTL")
	}
	if s.FreshRegistry("r", "u", "", nil, MinSkillTTL, t0.Add(61*time.Second)) != nil {
		t.Fatal("a failed registry lookup outlives a TTL shorter than FailureTTL")
	}
}

func TestParseChoice(t *testing.T) {
	for _, tt := range []struct {
		in      string
		details bool
		want    Choice
	}{
		{"u\n", false, Update}, {"U\n", false, Update}, {"update\n", false, Update},
		{"r\n", false, Remind}, {"d\n", false, Dismiss}, {"\n", false, Continue},
		{"", false, Continue}, {"x\n", false, Continue}, {"i\n", false, Continue},
		{"i\n", true, Details}, {"d", false, Dismiss},
		{strings.Repeat("u", 1000) + "\n", false, Continue},
	} {
		answer, ended := ReadAnswer(bufioReader(tt.in))
		if got := ParseChoice(answer, tt.details); got != tt.want {
			t.Errorf("ParseChoice(ReadAnswer(%q)) = %v, want %v", tt.in, got, tt.want)
		}
		if want := !strings.HasSuffix(tt.in, "\n"); ended != want {
			t.Errorf("ReadAnswer(%q) ended = %v, want %v", tt.in, ended, want)
		}
	}
}
