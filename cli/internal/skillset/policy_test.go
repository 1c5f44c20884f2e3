package skillset

import (
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/source"
)

func TestSourceSubjects(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"acme/Skills", []string{"github.com/acme/skills"}},
		{"github:acme/skills#v1", []string{"github.com/acme/skills"}},
		{"gitlab:group/repo", []string{"gitlab.com/group/repo"}},
		{"https://git.acme.com/team/skills.git", []string{"git.acme.com/team/skills"}},
		{"git@git.acme.com:team/skills.git", []string{"git.acme.com/team/skills"}},
		{"http://127.0.0.1:8080/review.zip", []string{"127.0.0.1:8080/review.zip"}},
		{"file:///srv/git/skills.git", []string{"file:///srv/git/skills.git"}},
		{"./skills/review", []string{"file:///work/proj/skills/review"}},
		{"~/skills/review", []string{"file:///home/me/skills/review"}},
	} {
		r, ok, err := source.Parse(tc.ref, "/work/proj", nil)
		if !ok || err != nil {
			t.Fatalf("source.Parse(%q) = %v, %v", tc.ref, ok, err)
		}
		if got := sourceSubjects(r, "/home/me"); !slices.Equal(got, tc.want) {
			t.Errorf("sourceSubjects(%q) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
