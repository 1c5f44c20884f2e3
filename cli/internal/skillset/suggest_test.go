package skillset

import (
	"errors"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"
)

// A misspelt name gets the near names of the registries and the command
// with the nearest; the error keeps its code and its own lines.
func TestInstallDidYouMean(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	tests := []struct {
		args   []string
		detail []string
		try    string
	}{
		{[]string{"libb"}, []string{"libb: did you mean lib (registry team)?"}, "agent-skills install lib"},
		{[]string{"team:tooll@^1"}, []string{"team:tooll@^1: did you mean tool (registry team)?"}, "agent-skills install team:tool@^1"},
		// Only the name that is not found is corrected.
		{[]string{"app", "extr"}, []string{"extr: did you mean extra (registry team)?"}, "agent-skills install extra"},
	}
	for _, tt := range tests {
		_, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: tt.args})
		if codeOf(err) != resolve.CodeSkillNotFound || !errors.Is(err, resolve.ErrNotFound) {
			t.Errorf("Install(%q) = %v, want %s", tt.args, err, resolve.CodeSkillNotFound)
			continue
		}
		detail := askerr.DetailOf(err)
		if !slices.Equal(detail[len(detail)-len(tt.detail):], tt.detail) || len(detail) <= len(tt.detail) {
			t.Errorf("Install(%q) detail = %q, want the resolver's lines, then %q", tt.args, detail, tt.detail)
		}
		if try := askerr.TryOf(err); try[0] != tt.try || len(try) < 2 {
			t.Errorf("Install(%q) try = %q, want %q first, then the resolver's", tt.args, try, tt.try)
		}
	}
	// Nothing near: the error as it was.
	_, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"flame-graph-analysis"}})
	var re *resolve.Error
	if !errors.As(err, &re) || error(re) != err || codeOf(err) != resolve.CodeSkillNotFound {
		t.Errorf("Install(flame-graph-analysis) = %#v, want the resolver's error unchanged", err)
	}
}
