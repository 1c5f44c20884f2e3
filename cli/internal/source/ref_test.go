package source

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/validate"
)

func TestParse(t *testing.T) {
	cwd := "/work/app"
	tests := []struct {
		in      string
		ok      bool
		code    string
		kind    Kind
		repo    string
		url     string
		ref     string
		subpath string
		skill   string
	}{
		// registry references are not sources
		{in: "java-basics"},
		{in: "java-basics@1.2"},
		{in: "java-basics@^1.2.0"},
		{in: "official:java-basics"},
		{in: "official:java-basics@1.0.0"},
		{in: ""},
		{in: "@org/skill"},
		// GitHub shorthand
		{in: "owner/repo", ok: true, kind: KindGitHub, repo: "owner/repo", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo.git", ok: true, kind: KindGitHub, repo: "owner/repo", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo/skills/pdf", ok: true, kind: KindGitHub, repo: "owner/repo", subpath: "skills/pdf", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo@pdf", ok: true, kind: KindGitHub, repo: "owner/repo", skill: "pdf", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo#v1.2.0", ok: true, kind: KindGitHub, repo: "owner/repo", ref: "v1.2.0", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo@pdf#main", ok: true, kind: KindGitHub, repo: "owner/repo", skill: "pdf", ref: "main", url: "https://github.com/owner/repo.git"},
		{in: "owner/repo/a/b#feature/x", ok: true, kind: KindGitHub, repo: "owner/repo", subpath: "a/b", ref: "feature/x", url: "https://github.com/owner/repo.git"},
		{in: "github:owner/repo", ok: true, kind: KindGitHub, repo: "owner/repo", url: "https://github.com/owner/repo.git"},
		{in: "gitlab:group/repo/skills/x", ok: true, kind: KindGitLab, repo: "group/repo", subpath: "skills/x", url: "https://gitlab.com/group/repo.git"},
		// web URLs
		{in: "https://github.com/owner/repo", ok: true, kind: KindGitHub, repo: "owner/repo", url: "https://github.com/owner/repo.git"},
		{in: "https://github.com/owner/repo.git", ok: true, kind: KindGitHub, repo: "owner/repo", url: "https://github.com/owner/repo.git"},
		{in: "https://github.com/owner/repo/tree/main/skills/pdf", ok: true, kind: KindGitHub, repo: "owner/repo", ref: "main", subpath: "skills/pdf", url: "https://github.com/owner/repo.git"},
		{in: "https://github.com/owner/repo/blob/v2/skills/pdf/SKILL.md", ok: true, kind: KindGitHub, repo: "owner/repo", ref: "v2", subpath: "skills/pdf", url: "https://github.com/owner/repo.git"},
		{in: "https://gitlab.com/g/sub/repo/-/tree/dev/skills/x", ok: true, kind: KindGitLab, repo: "g/sub/repo", ref: "dev", subpath: "skills/x", url: "https://gitlab.com/g/sub/repo.git"},
		{in: "https://gitlab.com/g/sub/repo.git", ok: true, kind: KindGitLab, repo: "g/sub/repo", url: "https://gitlab.com/g/sub/repo.git"},
		// git URLs
		{in: "https://git.example.com/team/skills.git#v1", ok: true, kind: KindGit, url: "https://git.example.com/team/skills.git", ref: "v1"},
		{in: "ssh://git@git.example.com/team/skills.git", ok: true, kind: KindGit, url: "ssh://git@git.example.com/team/skills.git"},
		{in: "git@github.com:owner/repo.git", ok: true, kind: KindGit, repo: "owner/repo", url: "git@github.com:owner/repo.git"},
		{in: "git@example.com:team/skills.git#main", ok: true, kind: KindGit, url: "git@example.com:team/skills.git", ref: "main"},
		{in: "file:///srv/git/skills.git", ok: true, kind: KindGit, url: "file:///srv/git/skills.git"},
		// local folders and archives
		{in: "./my-skill", ok: true, kind: KindLocal, url: "/work/app/my-skill"},
		{in: "../x", ok: true, kind: KindLocal, url: "/work/x"},
		{in: "/abs/skills", ok: true, kind: KindLocal, url: "/abs/skills"},
		{in: "~/skills/x", ok: true, kind: KindLocal, url: "~/skills/x"},
		{in: ".", ok: true, kind: KindLocal, url: "/work/app"},
		{in: "./dist/x.zip", ok: true, kind: KindArchive, url: "/work/app/dist/x.zip"},
		{in: "dist/x.tgz", ok: true, kind: KindArchive, url: "/work/app/dist/x.tgz"},
		{in: "/tmp/x.skill", ok: true, kind: KindArchive, url: "/tmp/x.skill"},
		{in: "x.zip", ok: true, kind: KindArchive, url: "/work/app/x.zip"},
		{in: "github.com/owner/repo/tree/v1/x", ok: true, kind: KindGitHub, repo: "owner/repo", ref: "v1", subpath: "x", url: "https://github.com/owner/repo.git"},
		{in: "https://example.com/x.tar.gz", ok: true, kind: KindArchive, url: "https://example.com/x.tar.gz"},
		{in: "https://example.com/x.zip#skills/y", ok: true, kind: KindArchive, url: "https://example.com/x.zip", subpath: "skills/y"},
		{in: "file:///tmp/a.zip", ok: true, kind: KindArchive, url: "/tmp/a.zip"},
		// errors
		{in: "-owner/repo", code: "ASK_SOURCE_INVALID"},
		{in: "owner/repo#-x", code: "ASK_SOURCE_INVALID"},
		{in: "owner/repo#a..b", code: "ASK_SOURCE_INVALID"},
		{in: "owner/repo/../etc", code: "ASK_SOURCE_INVALID"},
		{in: "own er/repo", code: "ASK_SOURCE_INVALID"},
		{in: "owner/repo@bad name", code: "ASK_SOURCE_INVALID"},
		{in: "ftp://example.com/x.git", code: "ASK_SOURCE_INVALID"},
		{in: "ssh://example.com/x.zip", code: "ASK_SOURCE_INVALID"},
		{in: "https://github.com/owner/repo/issues", code: "ASK_SOURCE_INVALID"},
		{in: "github:owner", code: "ASK_SOURCE_INVALID"},
		{in: "vendored/tools", code: "ASK_SOURCE_AMBIGUOUS"},
	}
	isDir := func(p string) bool { return p == filepath.Join(cwd, "vendored", "tools") }
	for _, tt := range tests {
		r, ok, err := Parse(tt.in, cwd, isDir)
		if tt.code != "" {
			if codeOf(err) != tt.code || ok {
				t.Errorf("Parse(%q) = %v, %v, want error %s", tt.in, ok, err, tt.code)
			}
			continue
		}
		if err != nil || ok != tt.ok {
			t.Errorf("Parse(%q) = ok %v, %v, want ok %v", tt.in, ok, err, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		got := Ref{Kind: r.Kind, Repo: r.Repo, URL: r.URL, Ref: r.Ref, Subpath: r.Subpath, Skill: r.Skill}
		want := Ref{Kind: tt.kind, Repo: tt.repo, URL: tt.url, Ref: tt.ref, Subpath: tt.subpath, Skill: tt.skill}
		if got != want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, want)
		}
	}
}

// The forced readings of an ambiguous reference each parse.
func TestParseForced(t *testing.T) {
	isDir := func(string) bool { return true }
	for in, want := range map[string]Kind{"./owner/repo": KindLocal, "github:owner/repo": KindGitHub} {
		r, ok, err := Parse(in, "/app", isDir)
		if err != nil || !ok || r.Kind != want {
			t.Errorf("Parse(%q) = %v, %v, %v, want kind %s", in, r.Kind, ok, err, want)
		}
	}
}

func TestIdentity(t *testing.T) {
	env := map[string]string{"AGENT_SKILLS_GITHUB_URL": "file:///srv/gh"}
	getenv := func(k string) string { return env[k] }
	groups := [][]string{
		{"owner/repo", "Owner/Repo", "github:owner/repo", "https://github.com/owner/repo", "https://github.com/owner/repo.git",
			"https://GitHub.com/Owner/repo/", "git@github.com:owner/repo.git", "ssh://git@github.com/owner/repo",
			"owner/repo#v1", "owner/repo/skills/x", "file:///srv/gh/owner/repo.git", "https://github.com/owner/repo/tree/main/x"},
		{"https://git.example.com/team/skills.git", "https://GIT.example.com/team/skills", "git@git.example.com:team/skills.git",
			"ssh://git@git.example.com/team/skills.git/", "git://git.example.com/team/skills"},
		{"gitlab:g/repo", "https://gitlab.com/g/repo.git", "git@gitlab.com:g/repo.git", "https://gitlab.com/G/repo/-/tree/main/x"},
	}
	var ids []string
	for _, g := range groups {
		first := ""
		for i, in := range g {
			r, ok, err := Parse(in, "/app", nil)
			if !ok || err != nil {
				t.Fatalf("Parse(%q) = %v, %v", in, ok, err)
			}
			id := Identity(r, getenv)
			if i == 0 {
				first = id
				ids = append(ids, id)
			} else if id != first {
				t.Errorf("Identity(%q) = %q, want %q (as for %q)", in, id, first, g[0])
			}
		}
	}
	want := []string{"github:owner/repo", "https://git.example.com/team/skills", "gitlab:g/repo"}
	for i := range want {
		if ids[i] != want[i] {
			t.Errorf("Identity(%q) = %q, want %q", groups[i][0], ids[i], want[i])
		}
	}
	// Different repositories stay different.
	a, _, _ := Parse("file:///srv/other/owner/repo.git", "/app", nil)
	if id := Identity(a, getenv); id == "github:owner/repo" {
		t.Errorf("Identity(%q) = %q, want a file:// id", a.Input, id)
	}
}

func TestScrub(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fatal: https://user:s3cret@host/x.git not found", "fatal: https://host/x.git not found"},
		{"token ghp_abcdef1234 leaked", "token *** leaked"},
		{"header Authorization: Basic eC1hY2Nlc3MtdG9rZW46Z2hwX2FiY2RlZjEyMzQ=", "header Authorization: Basic ***"},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := scrub(tt.in, []string{"ghp_abcdef1234"}); got != tt.want {
			t.Errorf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPseudoVersion(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	sha := "0123456789abcdef0123456789abcdef01234567"
	if got, want := PseudoVersion(at, sha), "0.0.0-20260102020405-0123456789ab"; got != want {
		t.Errorf("PseudoVersion(%v, %q) = %q, want %q", at, sha, got, want)
	}
	if err := validate.CheckVersion(PseudoVersion(at, sha)); err != nil {
		t.Errorf("CheckVersion(PseudoVersion) = %v, want nil", err)
	}
}

func TestTagVersion(t *testing.T) {
	tests := []struct{ ref, want string }{{"v1.2.3", "1.2.3"}, {"1.2.3", "1.2.3"}, {"v1.2", ""}, {"main", ""}, {"v1.0.0-rc.1", "1.0.0-rc.1"}}
	for _, tt := range tests {
		if got := tagVersion(tt.ref); got != tt.want {
			t.Errorf("tagVersion(%q) = %q, want %q", tt.ref, got, tt.want)
		}
	}
}

// TestRecord: a source reached over ssh is recorded with its transport and
// user, and is still the same source as its https and shorthand forms.
func TestRecord(t *testing.T) {
	tests := []struct{ in, want, same string }{
		{"git@github.com:Owner/Repo.git", "git@github.com:owner/repo", "github:owner/repo"},
		{"git@git.example.com:team/skills.git", "git@git.example.com:team/skills", "https://git.example.com/team/skills"},
		{"git@git.example.com:Team/Skills/", "git@git.example.com:Team/Skills", "https://git.example.com/Team/Skills"},
		{"ssh://git@GIT.example.com/team/skills.git", "ssh://git@git.example.com/team/skills", "https://git.example.com/team/skills"},
		{"ssh://git:pw@git.example.com:2222/team/skills", "ssh://git@git.example.com:2222/team/skills", "https://git.example.com/team/skills"},
		{"git+ssh://deploy@host.example/srv/x.git#v1", "ssh://deploy@host.example/srv/x", "https://host.example/srv/x"},
		{"https://github.com/owner/repo", "github:owner/repo", "github:owner/repo"},
		{"https://git.example.com/team/skills.git", "https://git.example.com/team/skills", "git@git.example.com:team/skills"},
		{"owner/repo", "github:owner/repo", "git@github.com:owner/repo.git"},
	}
	for _, tt := range tests {
		r, ok, err := Parse(tt.in, "/app", nil)
		if !ok || err != nil {
			t.Fatalf("Parse(%q) = %v, %v", tt.in, ok, err)
		}
		if got := Record(r, nil); got != tt.want {
			t.Errorf("Record(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !SameSource(Record(r, nil), tt.same) {
			t.Errorf("SameSource(%q, %q) = false, want true", Record(r, nil), tt.same)
		}
		if got := Record(r, nil); !SameSource(got, Identity(r, nil)) {
			t.Errorf("SameSource(Record(%q), Identity) = false, want true", tt.in)
		}
	}
	for _, pair := range [][2]string{
		{"git@github.com:owner/repo", "github:owner/other"},
		{"git@a.example:team/x", "git@b.example:team/x"},
		{"/srv/skills/a", "/srv/skills/b"},
	} {
		if SameSource(pair[0], pair[1]) {
			t.Errorf("SameSource(%q, %q) = true, want false", pair[0], pair[1])
		}
	}
}
