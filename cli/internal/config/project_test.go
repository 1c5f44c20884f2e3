package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseProjectReportsEveryProblem: a hostile project file is refused
// whole, with every problem and its line, and its passwords masked.
func TestParseProjectReportsEveryProblem(t *testing.T) {
	in := `{
  "schemaVersion": 1,
  "registries": [
    {"name": "official", "url": "https://elsewhere.example/skills.git"},
    {"name": "leak", "url": "https://bob:s3cret@git.example.com/skills.git"},
    {"name": "team", "url": "https://git.example.com/team.git"},
    {"name": "team", "url": "https://git.example.com/other.git"},
    {"name": "bundled", "url": "bundled:", "kind": "bundled"},
    {"name": "web", "url": "https://skills.example.com/index.json", "ref": "main"},
    {"name": "github", "url": "https://github.com/o/r.git"},
    {"name": "Bad_Name", "url": "x"},
    {"name": "empty", "url": ""},
    {"name": "ftp", "url": "x", "kind": "ftp"}
  ]
}
`
	_, err := ParseProject([]byte(in), "skills-registries.json")
	var pe *ProjectError
	if !errors.As(err, &pe) {
		t.Fatalf("ParseProject = %v, want *ProjectError", err)
	}
	want := map[int]string{
		4:  "the name official is reserved",
		5:  "carries a password",
		7:  `registry "team" is listed twice`,
		8:  "the name bundled is reserved",
		9:  "ref applies to git registries only",
		10: "the name github is reserved",
		11: "a registry name is 1-64 lowercase letters",
		12: "url is empty",
		13: `kind "ftp" is not one of local, git, http`,
	}
	got := map[int]string{}
	for _, p := range pe.Problems {
		got[p.Line] += p.Message + "|"
	}
	for line, msg := range want {
		if !strings.Contains(got[line], msg) {
			t.Errorf("ParseProject: line %d = %q, want a problem containing %q", line, got[line], msg)
		}
	}
	if _, ok := got[6]; ok {
		t.Errorf("ParseProject: line 6 (a valid entry) has problems %q", got[6])
	}
	if pe.ErrorCode() != CodeProjectRegistriesInvalid {
		t.Errorf("ErrorCode() = %s, want %s", pe.ErrorCode(), CodeProjectRegistriesInvalid)
	}
	all := pe.Error() + strings.Join(pe.ErrorDetail(), "\n")
	if strings.Contains(all, "s3cret") {
		t.Errorf("the error shows the password: %s", all)
	}
	if len(pe.ErrorDetail()) != len(pe.Problems)+1 {
		t.Errorf("ErrorDetail() has %d lines, want one per problem (%d) and the consequence", len(pe.ErrorDetail()), len(pe.Problems))
	}
}

// TestDecodeProjectRefusesTrust: a project cannot mark its registry
// trusted (or set any other key of config.json), and says why.
func TestDecodeProjectRefusesTrust(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"trusted", "{\"registries\": [\n  {\"name\": \"t\", \"url\": \"x\", \"trusted\": true}\n]}\n", 2, "trust is each user's own decision"},
		{"allowInsecure", "{\"registries\": [\n  {\"name\": \"t\", \"url\": \"x\", \"allowInsecure\": true}\n]}\n", 2, `unknown key "allowInsecure"`},
		{"cache", "{\n  \"cache\": {\"ttlSeconds\": 0}\n}\n", 2, `unknown key "cache"`},
		// Custom agents are each user's own (config.json): a project's
		// agent roots would aim installs and removals where it likes.
		{"agents", "{\n  \"agents\": {\"acme\": {\"projectRoot\": \".git/hooks\"}}\n}\n", 2, "cannot define or change agents"},
		{"newer", "{\n  \"schemaVersion\": 2\n}\n", 2, "upgrade agent-skills"},
		{"syntax", "{\"registries\": [\n  {\"name\": \"t\",}\n]}\n", 2, "not valid JSON"},
		{"trailing", "{}\n{}\n", 2, "after the JSON object"},
	}
	for _, tt := range tests {
		_, err := DecodeProject([]byte(tt.in), "skills-registries.json")
		var pe *ProjectError
		if !errors.As(err, &pe) || len(pe.Problems) != 1 {
			t.Errorf("%s: DecodeProject = %v, want one problem", tt.name, err)
			continue
		}
		if p := pe.Problems[0]; p.Line != tt.line || !strings.Contains(p.Message, tt.msg) {
			t.Errorf("%s: DecodeProject = line %d %q, want line %d containing %q", tt.name, p.Line, p.Message, tt.line, tt.msg)
		}
	}
}

// TestProjectResolve: a relative path is the project's own folder on
// every machine; the kind is inferred when the file leaves it out; a
// project registry is trusted (its place after the user's decides what
// it may own).
func TestProjectResolve(t *testing.T) {
	root := filepath.FromSlash("/work/proj")
	tests := []struct {
		in   ProjectRegistry
		want Registry
	}{
		{ProjectRegistry{Name: "a", URL: "team-reg"}, Registry{Name: "a", URL: filepath.Join(root, "team-reg"), Kind: KindLocal, Trusted: true}},
		{ProjectRegistry{Name: "a", URL: "regs/team.git", Kind: KindGit, Ref: "main"}, Registry{Name: "a", URL: filepath.Join(root, "regs", "team.git"), Kind: KindGit, Ref: "main", Trusted: true}},
		{ProjectRegistry{Name: "a", URL: "https://h/o/r.git#v1"}, Registry{Name: "a", URL: "https://h/o/r.git", Kind: KindGit, Ref: "v1", Trusted: true}},
		{ProjectRegistry{Name: "a", URL: "https://h/index.json"}, Registry{Name: "a", URL: "https://h/index.json", Kind: KindHTTP, Trusted: true}},
		{ProjectRegistry{Name: "a", URL: "git@h:o/r.git"}, Registry{Name: "a", URL: "git@h:o/r.git", Kind: KindGit, Trusted: true}},
		{ProjectRegistry{Name: "a", URL: "/srv/skills"}, Registry{Name: "a", URL: "/srv/skills", Kind: KindLocal, Trusted: true}},
	}
	for _, tt := range tests {
		if got := tt.in.Resolve(root); got != tt.want {
			t.Errorf("Resolve(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestSaveProject: the file round-trips byte for byte and goes away with
// its last registry.
func TestSaveProject(t *testing.T) {
	root := t.TempDir()
	p := &Project{Registries: []ProjectRegistry{
		{Name: "team", URL: "https://git.example.com/team.git", Kind: KindGit, Ref: "main"},
		{Name: "local", URL: "team-reg", Kind: KindLocal},
	}}
	if err := SaveProject(root, p); err != nil {
		t.Fatal(err)
	}
	got, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Encode()) != string(p.Encode()) {
		t.Errorf("round trip changed the file:\n%s\nwant\n%s", got.Encode(), p.Encode())
	}
	if got.Registries[1].Line != 11 {
		t.Errorf("LoadProject: the second entry is on line %d, want 11:\n%s", got.Registries[1].Line, p.Encode())
	}
	if err := SaveProject(root, &Project{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ProjectPath(root)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("SaveProject(no registries) left %s (stat: %v)", ProjectPath(root), err)
	}
	if p, err := LoadProject(root); p != nil || err != nil {
		t.Errorf("LoadProject(no file) = %v, %v; want nil, nil", p, err)
	}
}

// TestReadProjectRefusesWhatIsNotAFile: a project file that is a link
// (anywhere: the user's own config.json, /dev/zero) or a folder, or one
// larger than 1 MiB, is refused, not followed or read to its end.
func TestReadProjectRefusesWhatIsNotAFile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(outside, []byte(`{"registries": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link, dir, big := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, ProjectPath(link)); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Mkdir(ProjectPath(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ProjectPath(big), []byte(`{"registries": [], "x": "`+strings.Repeat("a", maxProjectFile)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, root := range map[string]string{"link": link, "folder": dir, "too large": big} {
		_, err := LoadProject(root)
		var pe *ProjectError
		if !errors.As(err, &pe) || pe.ErrorCode() != CodeProjectRegistriesInvalid {
			t.Errorf("%s: LoadProject = %v, want %s", name, err, CodeProjectRegistriesInvalid)
		}
	}
}

// TestCheckProjectAcceptsTeamRegistries: what a team shares is accepted.
func TestCheckProjectAcceptsTeamRegistries(t *testing.T) {
	for _, r := range []ProjectRegistry{
		{Name: "team", URL: "https://git.example.com/team/skills.git", Kind: KindGit, Ref: "main"},
		{Name: "team", URL: "git@git.example.com:team/skills.git"},
		{Name: "mirror", URL: "https://skills.example.com/index.json"},
		{Name: "in-repo", URL: "registry-folder", Kind: KindLocal},
		{Name: "user-only", URL: "https://alice@git.example.com/skills.git"},
	} {
		if whys := CheckProject(r); len(whys) > 0 {
			t.Errorf("CheckProject(%+v) = %q, want none", r, whys)
		}
	}
	if whys := CheckProject(ProjectRegistry{Name: "official", URL: "bundled:", Kind: KindBundled}); !slices.ContainsFunc(whys, func(s string) bool { return strings.Contains(s, "bundled collection") }) {
		t.Errorf("CheckProject(kind bundled) = %q, want the bundled kind refused", whys)
	}
}

// FuzzParseProject: no project file, however malformed, panics the
// parser, and one it accepts has only entries CheckProject accepts and
// encodes to a file it accepts again.
func FuzzParseProject(f *testing.F) {
	f.Add([]byte(`{"schemaVersion": 1, "registries": [{"name": "team", "url": "https://h/r.git", "kind": "git", "ref": "main"}]}`))
	f.Add([]byte(`{"registries": [{"name": "t", "url": "x", "trusted": true}]}`))
	f.Add([]byte(`{"registries": [{"name": "official", "url": "https://u:p@h/r.git"}]}`))
	f.Add([]byte("{\"registries\": [\n{\"name\": \"a\"}, {\"name\": \"a\", \"url\": \"\"}]}\n{}"))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProject(data, "skills-registries.json")
		if err != nil {
			var pe *ProjectError
			if !errors.As(err, &pe) || len(pe.Problems) == 0 {
				t.Fatalf("ParseProject error %v is not a *ProjectError with problems", err)
			}
			return
		}
		for _, r := range p.Registries {
			if whys := CheckProject(r); len(whys) > 0 {
				t.Fatalf("ParseProject accepted %+v: %q", r, whys)
			}
		}
		if _, err := ParseProject(p.Encode(), "again"); err != nil {
			t.Fatalf("ParseProject(Encode()) = %v\n%s", err, p.Encode())
		}
	})
}
