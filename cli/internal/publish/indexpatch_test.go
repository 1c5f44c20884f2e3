package publish

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") != "", "rewrite golden files")

const testSum = "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

// editCases are the index edits the golden tests apply.
func editCases() map[string]*indexEdit {
	return map[string]*indexEdit{
		"new-version": {
			name:        "alpha",
			add:         &registry.Version{Version: "1.1.0", Path: "skills/alpha", Integrity: testSum, PublishedAt: "2026-11-30T12:00:00Z"},
			latest:      "1.1.0",
			setFields:   true,
			description: "A new description.",
			keywords:    []string{"test", "sample", "new"},
			tarball:     map[string]string{"1.0.0": "archive/alpha-1.0.0.tar.gz"},
			updatedAt:   "2026-11-30T12:00:00Z",
		},
		"drop-version": {
			name:        "zulu",
			add:         &registry.Version{Version: "3.1.0", Path: "skills/zulu", Integrity: testSum},
			latest:      "3.1.0",
			setFields:   true,
			description: "Last.",
			drop:        []string{"3.0.0"},
		},
		"new-skill": {
			name: "mike",
			skill: &registry.Skill{Name: "mike", Description: "Middle.", Keywords: []string{"m"}, Latest: "0.1.0",
				Versions: []*registry.Version{{Version: "0.1.0", Path: "skills/mike", Integrity: testSum}}},
		},
	}
}

func TestPatchIndexGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "commented.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range editCases() {
		t.Run(name, func(t *testing.T) {
			got, err := patchText(src, e)
			if err != nil {
				t.Fatalf("patchText(%s) = %v, want a text patch", name, err)
			}
			checked, err := patchIndex(src, "commented.yaml", nil, e)
			if err != nil {
				t.Fatalf("patchIndex(%s) = %v", name, err)
			}
			if !bytes.Equal(got, checked) {
				t.Errorf("patchIndex(%s) did not use the text patch:\n%s", name, checked)
			}
			golden := filepath.Join("testdata", "commented."+name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("patchText(%s) =\n%s\nwant\n%s", name, got, want)
			}
			// Every comment of the source survives.
			for _, line := range strings.Split(string(src), "\n") {
				if i := strings.Index(line, "#"); i >= 0 && !strings.Contains(line, "sha256") && !strings.Contains(string(got), strings.TrimSpace(line[i:])) {
					t.Errorf("patchText(%s) lost the comment %q", name, line[i:])
				}
			}
		})
	}
}

func TestPatchIndexKeepsOriginFixture(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "fixtures", "origin-registry", "registry", "skills.yaml"))
	if err != nil {
		t.Skip("origin fixture not available")
	}
	e := &indexEdit{name: "jvm-gc-tuning", add: &registry.Version{Version: "1.1.0", Path: "skills/jvm-gc-tuning", Integrity: testSum}, latest: "1.1.0"}
	got, err := patchIndex(src, "skills.yaml", nil, e)
	if err != nil {
		t.Fatalf("patchIndex(origin) = %v", err)
	}
	// The result is the source with exactly the new item added and the
	// latest line changed: every other byte is kept.
	old := "latest: 1.0.0\n    versions:\n      - version: 1.0.0\n        path: skills/jvm-gc-tuning\n"
	if !strings.Contains(string(src), old) {
		t.Skip("origin fixture changed shape")
	}
	want := strings.Replace(string(src), old, "latest: 1.1.0\n    versions:\n      - version: 1.1.0\n        path: skills/jvm-gc-tuning\n        integrity: "+testSum+"\n      - version: 1.0.0\n        path: skills/jvm-gc-tuning\n", 1)
	if string(got) != want {
		t.Errorf("patchIndex(origin) =\n%s\nwant\n%s", got, want)
	}
}

func TestPatchIndexFallsBackToNodes(t *testing.T) {
	tests := []struct {
		desc, src string
		e         *indexEdit
		want      []string
	}{
		{"flow versions", "# head\nschemaVersion: 1\nskills:\n  - name: alpha\n    latest: 1.0.0\n    versions: [{version: 1.0.0, path: skills/alpha, integrity: " + testSum + "}]\n",
			&indexEdit{name: "alpha", add: &registry.Version{Version: "2.0.0", Path: "skills/alpha", Integrity: testSum}, latest: "2.0.0"},
			[]string{"# head", "version: 2.0.0", "latest: 2.0.0"}},
		{"empty skills", "# head\nschemaVersion: 1\nskills: []\n",
			&indexEdit{name: "alpha", skill: &registry.Skill{Name: "alpha", Latest: "1.0.0", Versions: []*registry.Version{{Version: "1.0.0", Path: "skills/alpha", Integrity: testSum}}}},
			[]string{"# head", "- name: alpha"}},
		{"no skills key", "schemaVersion: 1 # v\n",
			&indexEdit{name: "alpha", skill: &registry.Skill{Name: "alpha", Latest: "1.0.0", Versions: []*registry.Version{{Version: "1.0.0", Path: "skills/alpha", Integrity: testSum}}}},
			[]string{"# v", "name: alpha"}},
		{"empty file", "",
			&indexEdit{name: "alpha", skill: &registry.Skill{Name: "alpha", Latest: "1.0.0", Versions: []*registry.Version{{Version: "1.0.0", Path: "skills/alpha", Integrity: testSum}}}},
			[]string{"schemaVersion: 1", "name: alpha"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := patchIndex([]byte(tt.src), "skills.yaml", nil, tt.e)
			if err != nil {
				t.Fatalf("patchIndex(%s) = %v", tt.desc, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("patchIndex(%s) = %s, want it to contain %q", tt.desc, got, w)
				}
			}
		})
	}
}

func TestPatchIndexCRLF(t *testing.T) {
	src := strings.ReplaceAll("schemaVersion: 1\nskills:\n- name: alpha\n  latest: 1.0.0\n  versions:\n  - version: 1.0.0\n    path: skills/alpha\n    integrity: "+testSum+"\n", "\n", "\r\n")
	e := &indexEdit{name: "alpha", add: &registry.Version{Version: "1.1.0", Path: "skills/alpha", Integrity: testSum}, latest: "1.1.0"}
	got, err := patchText([]byte(src), e)
	if err != nil {
		t.Fatalf("patchText(CRLF) = %v", err)
	}
	if strings.Count(string(got), "\n") != strings.Count(string(got), "\r\n") {
		t.Errorf("patchText(CRLF) = %q, want CRLF line ends only", got)
	}
	if !strings.Contains(string(got), "  versions:\r\n  - version: 1.1.0\r\n    path: skills/alpha\r\n") {
		t.Errorf("patchText(CRLF) = %q, want the new item at the list's indentation", got)
	}
}

func TestPatchIndexRefusesImpossibleEdit(t *testing.T) {
	src := []byte("schemaVersion: 1\nskills:\n  - name: alpha\n    versions:\n      - version: 1.0.0\n        path: skills/alpha\n        integrity: " + testSum + "\n")
	// An edit for a skill the document does not list, without a new item.
	e := &indexEdit{name: "ghost", add: &registry.Version{Version: "1.0.0", Path: "skills/ghost", Integrity: testSum}}
	_, err := patchIndex(src, "skills.yaml", nil, e)
	if got := codeOf(err); got != "ASK_PUBLISH_INDEX_PATCH" {
		t.Fatalf("patchIndex(ghost) = %v, want ASK_PUBLISH_INDEX_PATCH", err)
	}
}
