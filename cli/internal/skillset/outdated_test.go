package skillset

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree is every file below dir with its digest, the registry cache aside.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "cache" {
			return filepath.SkipDir
		}
		data, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %v %x\n", p, d.Type(), sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOutdatedWantedWithinTheLock: WANTED is what update would move to —
// within ^installed and what the other locked skills allow — LATEST the
// registry's latest; a disabled skill is reported as such, and nothing on
// disk changes.
func TestOutdatedWantedWithinTheLock(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	w.publish(pkgSpec{name: "pin", version: "1.0.0", deps: map[string]string{"lib": "~1.1.0"}})
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app", "pin", "tool"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.open(false, nil).Disable(t.Context(), ToggleRequest{Names: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	w.publish(pkgSpec{name: "lib", version: "1.2.0"}, pkgSpec{name: "lib", version: "2.0.0"}, pkgSpec{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.0.0"}})
	before := tree(t, w.base)
	rep, err := Outdated(t.Context(), w.machine(), OutdatedRequest{Project: true, Agents: bothAgents})
	if err != nil {
		t.Fatal(err)
	}
	if after := tree(t, w.base); after != before {
		t.Errorf("Outdated changed files:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	var got []string
	for _, s := range rep.Skills {
		got = append(got, fmt.Sprintf("%s %s %s/%s/%s %s disabled=%v", s.Scope, s.Name, s.Installed, s.Wanted, s.Latest, s.Status, s.Disabled))
	}
	want := []string{
		"project app 1.0.0/1.1.0/1.1.0 outdated disabled=false",
		"project lib 1.1.0/1.1.0/2.0.0 outdated disabled=false",
		"project pin 1.0.0/1.0.0/1.0.0 current disabled=false",
		"project tool 1.0.0/1.0.0/1.0.0 current disabled=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Outdated() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNewer(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1.1.0", "1.0.0", true}, {"1.0.0", "1.0.0", false}, {"1.0.0", "1.1.0", false},
		{"", "1.0.0", false}, {"1.0.0", "", false}, {"2.0.0-rc.1", "1.9.0", true}, {"x", "1.0.0", false},
	} {
		if got := newer(c.a, c.b); got != c.want {
			t.Errorf("newer(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if got := tagVersionOf("v1.2.3", "0.1.0"); got != "1.2.3" {
		t.Errorf("tagVersionOf(v1.2.3) = %q", got)
	}
	if got := tagVersionOf("", "0.1.0"); got != "0.1.0" {
		t.Errorf("tagVersionOf(\"\") = %q, want the fallback", got)
	}
}
