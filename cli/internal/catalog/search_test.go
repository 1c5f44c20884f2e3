package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

func TestSearch(t *testing.T) {
	installed := []Skill{
		{Name: "java-basics", Description: "Java fundamentals.", Source: "installed:project", Dir: "/p/java-basics"},
		{Name: "go-style", Description: "Go style.", Source: "installed:global", Dir: "/g/go-style"},
	}
	idx := &registry.Index{SchemaVersion: 1, Skills: []*registry.Skill{
		{Name: "java-basics", Description: "Java basics.", Latest: "1.2.0", Keywords: []string{"java"}},
		{Name: "jvm-gc-tuning", Description: "GC tuning for Java.", Latest: "1.1.0"},
	}}
	other := &registry.Index{SchemaVersion: 1, Skills: []*registry.Skill{{Name: "java-basics", Description: "Fork.", Latest: "9.0.0"}}}
	loaded := []registry.Loaded{{Registry: "bundled", Index: idx}, {Registry: "team", Index: other}}
	tests := []struct {
		query string
		limit int
		want  []string
	}{
		{"java", 0, []string{"installed:project/java-basics", "bundled/java-basics", "team/java-basics(bundled)", "bundled/jvm-gc-tuning"}},
		{"java", 2, []string{"installed:project/java-basics", "bundled/java-basics"}},
		{"go", 0, []string{"installed:global/go-style"}},
		{"nothing-matches", 0, nil},
		{strings.Repeat("x", MaxQueryLength+10), 0, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, h := range Search(installed, loaded, tt.query, tt.limit) {
			s := h.Source + "/" + h.Name
			if h.ShadowedBy != "" {
				s += "(" + h.ShadowedBy + ")"
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("Search(%.20q, %d) = %v, want %v", tt.query, tt.limit, got, tt.want)
		}
	}
}

func TestBuildOverview(t *testing.T) {
	var skills []Skill
	for i := range 30 {
		skills = append(skills, Skill{Name: fmt.Sprintf("skill-%02d", i), Description: strings.Repeat("word ", 100), Source: "installed:global"})
	}
	tests := []struct {
		opts        OverviewOptions
		wantEntries int
	}{
		{OverviewOptions{MaxEntries: 5}, 5},
		{OverviewOptions{MaxEntries: 100, MaxBytes: 2000}, 8},
		{OverviewOptions{}, 30},
	}
	for _, tt := range tests {
		ov := BuildOverview(skills, tt.opts)
		maxBytes := tt.opts.MaxBytes
		if maxBytes == 0 {
			maxBytes = DefaultMaxBytes
		}
		if len(ov.Entries) != tt.wantEntries || len(ov.Text) > maxBytes || ov.Omitted != 30-tt.wantEntries {
			t.Errorf("BuildOverview(%+v) = %d entries, %d bytes, %d omitted; want %d entries within %d bytes",
				tt.opts, len(ov.Entries), len(ov.Text), ov.Omitted, tt.wantEntries, maxBytes)
		}
		if ov.Omitted > 0 && !strings.Contains(ov.Text, "more not listed") {
			t.Errorf("BuildOverview(%+v) text lacks the omitted note", tt.opts)
		}
	}
}
