package skillset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// configure replaces config.json with the registries given as
// name=path pairs, in precedence order.
func (w *world) configure(regs ...string) {
	w.t.Helper()
	var entries []string
	for _, r := range regs {
		name, path, _ := strings.Cut(r, "=")
		entries = append(entries, fmt.Sprintf(`{"name":%q,"url":%q,"kind":"local","trusted":true}`, name, path))
	}
	writeFile(w.t, filepath.Join(w.env["AGENT_SKILLS_HOME"], "config.json"), `{"registries":[`+strings.Join(entries, ",")+`]}`)
}

func TestOriginSameAndString(t *testing.T) {
	tests := []struct {
		a, b Origin
		same bool
	}{
		{Origin{Registry: "team"}, Origin{Registry: "team"}, true},
		{Origin{Registry: "team"}, Origin{Registry: "company"}, false},
		{Origin{Registry: "team"}, Origin{Source: "/c"}, false},
		{Origin{Source: "github:acme/skills", Subpath: "skills/x"}, Origin{Source: "github:acme/skills", Subpath: "skills/x/"}, true},
		{Origin{Source: "github:acme/skills", Subpath: "skills/x"}, Origin{Source: "github:acme/skills", Subpath: "skills/y"}, false},
		{Origin{Source: "github:acme/skills", Subpath: "."}, Origin{Source: "github:acme/skills"}, true},
		{Origin{Source: "github:acme/skills", Subpath: "x"}, Origin{Source: "github:acme/skills/x"}, false},
		// A local folder is one folder however it was named.
		{Origin{Source: "/c", Subpath: "skills/x"}, Origin{Source: "/c/skills/x"}, true},
		{Origin{Source: "/c", Subpath: "skills/x"}, Origin{Source: "/d/skills/x"}, false},
	}
	for _, tt := range tests {
		if got := tt.a.same(tt.b); got != tt.same {
			t.Errorf("%+v.same(%+v) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
		if got := tt.b.same(tt.a); got != tt.same {
			t.Errorf("%+v.same(%+v) = %v, want %v", tt.b, tt.a, got, tt.same)
		}
	}
	for o, want := range map[Origin]string{
		{Registry: "team"}:                                  "team",
		{Source: "github:acme/skills"}:                      "github:acme/skills",
		{Source: "github:acme/skills", Subpath: "skills/x"}: "github:acme/skills//skills/x",
		{}: "",
	} {
		if got := o.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", o, got, want)
		}
	}
}

// originState renders where name comes from by the lock (in a project)
// and by every receipt of the session's agents: "lock=…" then
// "agent=…" for each copy, sorted.
func originState(w *world, s *Session, name string) string {
	var out []string
	if l := w.lock(); l != nil && s.Scope.Project() {
		if e, ok := l.Skills[name]; ok {
			out = append(out, "lock="+lockedOrigin(e).String()+fmt.Sprint(e.Agents))
		}
	}
	var copies []string
	for _, in := range w.scan(s) {
		if in.Name == name {
			copies = append(copies, strings.Join(in.Agents, ",")+"="+OriginOf(in).String())
		}
	}
	slices.Sort(copies)
	return strings.Join(append(out, copies...), " ")
}

// Installing a name from another origin is refused with both named and
// nothing changed; --force replaces it for every agent, and the lock and
// the receipts then name the new origin.
func TestOriginConflict(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		t.Run(fmt.Sprintf("global=%v", global), func(t *testing.T) {
			t.Parallel()
			w := appWorld(t)
			src := filepath.Join(w.base, "fork", "lib")
			writePackage(t, src, pkgSpec{name: "lib", version: "1.1.0", body: "# lib fork\n"})
			if _, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
				t.Fatal(err)
			}
			s := w.open(global, nil)
			lockPart := ""
			if !global {
				lockPart = "lock=team[claude-code codex] "
			}
			before := lockPart + "claude-code=team codex=team"
			if got := originState(w, s, "lib"); got != before {
				t.Fatalf("after Install(lib): %s, want %s", got, before)
			}

			out, err := s.Install(t.Context(), InstallRequest{Args: []string{src}})
			scope := map[bool]string{false: "project", true: "global"}[global]
			wantErr := "lib is installed from registry team, not from source " + src
			wantDetail := []string{"lib 1.1.0: installed from registry team for claude-code, codex; this run takes it from source " + src, "Nothing was changed."}
			wantTry := "agent-skills install " + src + " --" + scope + " --agent claude-code,codex --force   (to replace it for every selected agent)"
			if codeOf(err) != CodeOriginConflict || err.Error() != wantErr || !slices.Equal(askerr.DetailOf(err), wantDetail) || askerr.TryOf(err)[0] != wantTry {
				t.Errorf("Install(fork) = %v\n%q\n%q\nwant %s, %q, %q", err, askerr.DetailOf(err), askerr.TryOf(err), wantErr, wantDetail, wantTry)
			}
			if len(out.Results) != 0 || originState(w, s, "lib") != before {
				t.Errorf("refused Install(fork): results %v, state %s; want none and %s", results(out), originState(w, s, "lib"), before)
			}

			out, err = w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{src}, Force: true})
			if err != nil {
				t.Fatalf("Install(fork, --force) = %v", err)
			}
			if want := "note: lib now comes from source " + src + ", no longer from registry team"; !slices.Contains(notices(out), want) {
				t.Errorf("Install(fork, --force) notices = %q, want %q", notices(out), want)
			}
			lockPart = ""
			if !global {
				lockPart = "lock=" + src + "[claude-code codex] "
			}
			if got, want := originState(w, s, "lib"), lockPart+"claude-code="+src+" codex="+src; got != want {
				t.Errorf("after Install(fork, --force): %s, want %s", got, want)
			}

			// Back to the registry: the same refusal the other way round.
			_, err = w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}})
			if codeOf(err) != CodeOriginConflict || err.Error() != "lib is installed from source "+src+", not from registry team" {
				t.Errorf("Install(lib) over the fork = %v, want %s", err, CodeOriginConflict)
			}
			// A dependency that resolves in a registry is refused alike.
			_, err = w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}})
			if codeOf(err) != CodeOriginConflict || !slices.Contains(askerr.DetailOf(err), "lib 1.1.0: installed from source "+src+" for claude-code, codex; this run takes it from registry team") {
				t.Errorf("Install(app), which needs lib from team = %v %q, want %s", err, askerr.DetailOf(err), CodeOriginConflict)
			}
			// Reinstalling from the same folder is no conflict.
			if _, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{src}}); err != nil {
				t.Errorf("Install(fork) again = %v", err)
			}
		})
	}
}

// --force replaces a skill for the selected agents only when no other
// agent keeps a copy from the old origin: the lock could not say both.
func TestOriginConflictOtherAgents(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	w.configure("team="+w.reg, "company="+w.reg)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
		t.Fatal(err)
	}
	s := w.openFor(false, []string{"claude-code"}, nil)
	_, err := s.Install(t.Context(), InstallRequest{Args: []string{"company:lib"}, Force: true})
	wantTry := []string{"agent-skills install company:lib --project --agent claude-code,codex --force",
		"agent-skills uninstall lib --project --agent codex   (then run this command again)"}
	if codeOf(err) != CodeOriginConflict || err.Error() != "lib is also installed for codex, which this run does not select" ||
		!slices.Equal(askerr.TryOf(err), wantTry) {
		t.Errorf("Install(company:lib, --force) for claude-code = %v\n%q\n%q", err, askerr.DetailOf(err), askerr.TryOf(err))
	}
	if got, want := originState(w, w.open(false, nil), "lib"), "lock=team[claude-code codex] claude-code=team codex=team"; got != want {
		t.Errorf("after the refusal: %s, want %s", got, want)
	}
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"company:lib"}, Force: true}); err != nil {
		t.Fatalf("Install(company:lib, --force) for both = %v", err)
	}
	if got, want := originState(w, w.open(false, nil), "lib"), "lock=company[claude-code codex] claude-code=company codex=company"; got != want {
		t.Errorf("after Install(company:lib, --force): %s, want %s", got, want)
	}
}
