package upstream

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
)

const (
	commit1 = "1111111111111111111111111111111111111111"
	commit2 = "2222222222222222222222222222222222222222"
)

func d(s string) string { return format.BytesDigest([]byte(s)) }

func TestCompare(t *testing.T) {
	e := &Entry{Package: "skills/review", Source: Source{Repository: "github:acme/skills", Path: "skills/review", Commit: commit1},
		Digest: "sha256-old",
		Files: []File{
			{Path: "SKILL.md", Digest: d("skill v1")},
			{Path: "a.md", Digest: d("a v1")},
			{Path: "b.md", Digest: d("b v1")},
			{Path: "c.md", Digest: d("c v1")},
			{Path: "gone.md", Digest: d("gone")},
			{Path: "same.md", Digest: d("same")},
		},
		License: &License{Path: "LICENSE", Digest: d("MIT"), Content: []byte("MIT")},
	}
	cur := &Captured{Commit: commit2, Digest: "sha256-new",
		Files: []File{
			{Path: "SKILL.md", Digest: d("skill v2")},
			{Path: "a.md", Digest: d("a v2")},
			{Path: "b.md", Digest: d("b v2")},
			{Path: "c.md", Digest: d("c v2")},
			{Path: "new.md", Digest: d("new")},
			{Path: "same.md", Digest: d("same")},
		},
		License: &License{Path: "LICENSE", Digest: d("Apache-2.0")},
	}
	local := map[string]string{
		"SKILL.md": d("skill v1"),   // unmodified: equals the recorded upstream
		"a.md":     d("a v2"),       // already has the current upstream
		"b.md":     d("b local"),    // a local contribution
		"gone.md":  d("gone"),       // removed upstream, untouched here
		"same.md":  d("same local"), // diverged, but the upstream did not change it
		"new.md":   d("new local"),  // a local file where the upstream added one
	}
	got := Compare(e, cur, local)
	want := []FileChange{
		{Path: "SKILL.md", Change: Changed, Recorded: d("skill v1"), Current: d("skill v2"), Local: LocalUnmodified},
		{Path: "a.md", Change: Changed, Recorded: d("a v1"), Current: d("a v2"), Local: LocalCurrent},
		{Path: "b.md", Change: Changed, Recorded: d("b v1"), Current: d("b v2"), Local: LocalDiverged},
		{Path: "c.md", Change: Changed, Recorded: d("c v1"), Current: d("c v2"), Local: LocalAbsent},
		{Path: "gone.md", Change: Removed, Recorded: d("gone"), Local: LocalUnmodified},
		{Path: "new.md", Change: Added, Current: d("new"), Local: LocalDiverged},
	}
	if !reflect.DeepEqual(got.Files, want) {
		t.Errorf("Compare files = %+v\nwant %+v", got.Files, want)
	}
	if got.Status != StatusChanged || got.CurrentCommit != commit2 {
		t.Errorf("Compare status, commit = %q, %q; want changed, %s", got.Status, got.CurrentCommit, commit2)
	}
	if got.Digest == nil || got.Digest.Recorded != "sha256-old" || got.Digest.Current != "sha256-new" {
		t.Errorf("Compare digest = %+v", got.Digest)
	}
	// same.md is a local change the upstream did not touch; c.md, which
	// the upstream changed, is reported with the upstream's changes only.
	wantLocal := []LocalChange{{Path: "same.md", Change: Changed}}
	if !reflect.DeepEqual(got.LocalChanges, wantLocal) {
		t.Errorf("Compare local changes = %+v, want %+v", got.LocalChanges, wantLocal)
	}
	local["extra.md"] = d("only here")
	delete(local, "same.md")
	wantLocal = []LocalChange{{Path: "extra.md", Change: Added}, {Path: "same.md", Change: Removed}}
	if got := Compare(e, cur, local); !reflect.DeepEqual(got.LocalChanges, wantLocal) {
		t.Errorf("Compare local changes = %+v, want %+v", got.LocalChanges, wantLocal)
	}
	wantLic := &LicenseChange{Change: Changed, Path: "LICENSE", CurrentPath: "LICENSE", Recorded: d("MIT"), Current: d("Apache-2.0")}
	if !reflect.DeepEqual(got.License, wantLic) {
		t.Errorf("Compare licence = %+v, want %+v", got.License, wantLic)
	}
}

func TestCompareUnchanged(t *testing.T) {
	e := &Entry{Package: "p", Source: Source{Commit: commit1}, Digest: "sha256-x", Files: []File{{Path: "SKILL.md", Digest: d("s")}}}
	// The commit moved, the skill did not: unchanged.
	got := Compare(e, &Captured{Commit: commit2, Digest: "sha256-x", Files: []File{{Path: "SKILL.md", Digest: d("s")}}}, nil)
	if got.Status != StatusUnchanged || len(got.Files) != 0 || got.Digest != nil || got.License != nil {
		t.Errorf("Compare(same files) = %+v, want unchanged", got)
	}
}

func TestCompareLicense(t *testing.T) {
	mit := &License{Path: "LICENSE", Digest: d("MIT")}
	for _, tc := range []struct {
		name     string
		rec, cur *License
		want     *LicenseChange
	}{
		{"none", nil, nil, nil},
		{"same", mit, &License{Path: "LICENSE", Digest: d("MIT")}, nil},
		{"added", nil, mit, &LicenseChange{Change: Added, CurrentPath: "LICENSE", Current: d("MIT")}},
		{"removed", mit, nil, &LicenseChange{Change: Removed, Path: "LICENSE", Recorded: d("MIT")}},
		{"moved", mit, &License{Path: "COPYING", Digest: d("MIT")},
			&LicenseChange{Change: Moved, Path: "LICENSE", CurrentPath: "COPYING", Recorded: d("MIT"), Current: d("MIT")}},
		{"changed", mit, &License{Path: "LICENSE", Digest: d("GPL")},
			&LicenseChange{Change: Changed, Path: "LICENSE", CurrentPath: "LICENSE", Recorded: d("MIT"), Current: d("GPL")}},
	} {
		if got := compareLicense(tc.rec, tc.cur); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("compareLicense(%s) = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// fakeFetcher serves repositories from MapFS trees, one per repository,
// at commit2 (or commit1 when tips says so).
type fakeFetcher struct {
	trees     map[string]fstest.MapFS
	tips      map[string]string
	fail      map[string]error
	checkouts int
	paths     [][]string
}

func (f *fakeFetcher) Tip(_ context.Context, repo, _ string) (string, error) {
	if err := f.fail[repo]; err != nil {
		return "", err
	}
	return f.tips[repo], nil
}

func (f *fakeFetcher) Checkout(_ context.Context, repo, _ string, paths []string) (*Checkout, error) {
	f.checkouts++
	f.paths = append(f.paths, paths)
	return &Checkout{FS: f.trees[repo], Commit: f.tips[repo]}, nil
}

func skill(name, body string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: The " + name + " skill, for tests.\n---\n" + body + "\n")}
}

func TestRecordAndCheck(t *testing.T) {
	ctx := context.Background()
	f := &fakeFetcher{
		trees: map[string]fstest.MapFS{"github:acme/skills": {
			"LICENSE":                 {Data: []byte("MIT\n")},
			"skills/review/SKILL.md":  skill("review", "Review code."),
			"skills/review/ref.md":    {Data: []byte("# Reference\n")},
			"skills/testing/SKILL.md": skill("testing", "Write tests."),
			"skills/testing/LICENSE":  {Data: []byte("Apache-2.0\n")},
		}},
		tips: map[string]string{"github:acme/skills": commit1},
	}
	var lock Lock
	for _, req := range []Request{
		{Package: "review", Repository: "github:acme/skills", Path: "skills/review", Ref: "main"},
		{Package: "testing", Repository: "github:acme/skills", Path: "skills/testing", Ref: "main"},
	} {
		e, err := Record(ctx, f, req)
		if err != nil {
			t.Fatalf("Record(%s) = %v", req.Package, err)
		}
		lock.Put(*e)
	}
	if l := lock.Get("review").License; l == nil || l.Path != "LICENSE" || l.InPackage || string(l.Content) != "MIT\n" {
		t.Errorf("review licence = %+v, want the root LICENSE with its bytes", l)
	}
	if l := lock.Get("testing").License; l == nil || l.Path != "skills/testing/LICENSE" || !l.InPackage || l.Content != nil {
		t.Errorf("testing licence = %+v, want the package's LICENSE without bytes", l)
	}
	b, err := Encode(&lock)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bytes.NewReader(b), FileName)
	if err != nil {
		t.Fatalf("Decode(Encode) = %v", err)
	}
	if b2, _ := Encode(back); !bytes.Equal(b, b2) {
		t.Errorf("Encode(Decode(Encode)) differs:\n%s\n%s", b, b2)
	}

	local := fstest.MapFS{
		"review/SKILL.md":  f.trees["github:acme/skills"]["skills/review/SKILL.md"],
		"review/ref.md":    {Data: []byte("# Reference, extended locally\n")},
		"testing/SKILL.md": f.trees["github:acme/skills"]["skills/testing/SKILL.md"],
		"testing/LICENSE":  {Data: []byte("Apache-2.0\n")},
	}
	// Same commit: nothing fetched, nothing changed.
	rep, err := Check(ctx, &lock, local, f)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged != 2 || rep.Changed != 0 || f.checkouts != 2 {
		t.Errorf("Check at the same commit: %+v, %d checkouts; want 2 unchanged and no new checkout", rep, f.checkouts)
	}

	// The upstream moves: ref.md and LICENSE change.
	tree := f.trees["github:acme/skills"]
	tree["skills/review/ref.md"] = &fstest.MapFile{Data: []byte("# Reference v2\n")}
	tree["LICENSE"] = &fstest.MapFile{Data: []byte("Apache-2.0\n")}
	f.tips["github:acme/skills"] = commit2
	rep, err = Check(ctx, &lock, local, f)
	if err != nil {
		t.Fatal(err)
	}
	if f.checkouts != 3 {
		t.Errorf("Check: %d checkouts, want one for both entries of one repository and ref", f.checkouts-2)
	}
	r := rep.Entries[0]
	if r.Package != "review" || r.Status != StatusChanged || len(r.Files) != 1 || r.Files[0].Path != "ref.md" ||
		r.Files[0].Change != Changed || r.Files[0].Local != LocalDiverged {
		t.Errorf("review = %+v, want ref.md changed and diverged locally", r)
	}
	if r.License == nil || r.License.Change != Changed || r.License.Path != "LICENSE" {
		t.Errorf("review licence = %+v, want LICENSE changed", r.License)
	}
	if rep.Entries[1].Status != StatusUnchanged || rep.Changed != 1 || rep.Unchanged != 1 {
		t.Errorf("testing = %+v (report %d/%d), want unchanged", rep.Entries[1], rep.Changed, rep.Unchanged)
	}
}

func TestCheckUnreachable(t *testing.T) {
	lock := &Lock{Upstreams: []Entry{
		{Package: "a", Source: Source{Repository: "github:down/x", Path: ".", Commit: commit1}, Digest: "sha256-x"},
		{Package: "b", Source: Source{Repository: "github:up/y", Path: ".", Commit: commit1}, Digest: "sha256-y"},
	}}
	local := fstest.MapFS{"a/SKILL.md": skill("a", "A."), "b/SKILL.md": skill("b", "B.")}
	down := &askerr.Error{Code: "ASK_SOURCE_UNAVAILABLE", Message: "cannot fetch down/x"}
	f := &fakeFetcher{tips: map[string]string{"github:up/y": commit1}, fail: map[string]error{"github:down/x": down}}
	rep, err := Check(context.Background(), lock, local, f)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchecked != 1 || rep.Entries[0].Error == nil || rep.Entries[0].Error.Code != "ASK_SOURCE_UNAVAILABLE" {
		t.Errorf("entry a = %+v, want unchecked with ASK_SOURCE_UNAVAILABLE", rep.Entries[0])
	}
	if rep.Entries[1].Status == StatusUnchecked {
		t.Errorf("entry b = %+v, want checked despite a", rep.Entries[1])
	}
	// A local package that is gone, or holds no package.
	for name, local := range map[string]fstest.MapFS{
		"gone":  {"a/SKILL.md": skill("a", "A.")},
		"empty": {"a/SKILL.md": skill("a", "A."), "b/notes.md": {Data: []byte("no skill\n")}},
	} {
		rep, err := Check(context.Background(), lock, local, f)
		if err != nil {
			t.Fatal(err)
		}
		if p := rep.Entries[1].Error; p == nil || p.Code != CodeInvalid {
			t.Errorf("%s: entry b = %+v, want unchecked with %s", name, rep.Entries[1], CodeInvalid)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := `{"schema":"agent-skills.upstreams/1","upstreams":[{"package":"p","source":{"repository":"github:a/b","path":".","commit":"` + commit1 +
		`"},"digest":"` + d("x") + `","files":[{"path":"SKILL.md","digest":"` + d("s") + `","size":1}]}]}`
	if _, err := Decode(strings.NewReader(good), FileName); err != nil {
		t.Fatalf("Decode(good) = %v", err)
	}
	for name, in := range map[string]string{
		"schema":     strings.Replace(good, "upstreams/1", "upstreams/9", 1),
		"unknown":    strings.Replace(good, `"digest":"`+d("x"), `"extra":1,"digest":"`+d("x"), 1),
		"escape":     strings.Replace(good, `"package":"p"`, `"package":"../p"`, 1),
		"commit":     strings.Replace(good, commit1, "main", 1),
		"file path":  strings.Replace(good, `"path":"SKILL.md"`, `"path":"/etc/passwd"`, 1),
		"two values": good + good,
		"glob":       strings.Replace(good, `"path":"."`, `"path":"skills/*"`, 1),
		"git dir":    strings.Replace(good, `"files"`, `"license":{"path":".git/config","inPackage":false,"digest":"`+d("x")+`","size":1,"content":"eA=="},"files"`, 1),
		"licence":    strings.Replace(good, `"files"`, `"license":{"path":"LICENSE","inPackage":false,"digest":"`+d("MIT")+`","size":3,"content":"R1BM"},"files"`, 1),
	} {
		_, err := Decode(strings.NewReader(in), FileName)
		if !askerr.Is(err, CodeLockInvalid) {
			t.Errorf("Decode(%s) = %v, want %s", name, err, CodeLockInvalid)
		}
	}
	var e *askerr.Error
	if _, err := Decode(strings.NewReader("{"), FileName); !errors.As(err, &e) || len(e.Try) == 0 {
		t.Errorf("Decode(truncated) = %v, want a next action", err)
	}
}

func TestCheckLicenseMoved(t *testing.T) {
	ctx := context.Background()
	tree := fstest.MapFS{
		"LICENSE":         {Data: []byte("MIT\n")},
		"skill/SKILL.md":  skill("skill", "Do it."),
		"other/README.md": {Data: []byte("not checked out\n")},
	}
	f := &fakeFetcher{trees: map[string]fstest.MapFS{"r": tree}, tips: map[string]string{"r": commit1}}
	e, err := Record(ctx, f, Request{Package: "skill", Repository: "r", Path: "skill"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"skill", "LICENSE", "LICENSE.md"}; !reflect.DeepEqual(f.paths[0][:3], want) {
		t.Errorf("Record checked out %q, want the folder and the licence candidates first %q", f.paths[0], want)
	}
	lock := &Lock{Upstreams: []Entry{*e}}
	local := fstest.MapFS{"skill/SKILL.md": tree["skill/SKILL.md"]}
	for _, tc := range []struct {
		name   string
		change func()
		want   *LicenseChange
	}{
		{"moved", func() { delete(tree, "LICENSE"); tree["COPYING"] = &fstest.MapFile{Data: []byte("MIT\n")} },
			&LicenseChange{Change: Moved, Path: "LICENSE", CurrentPath: "COPYING", Recorded: d("MIT\n"), Current: d("MIT\n")}},
		{"removed", func() { delete(tree, "COPYING") },
			&LicenseChange{Change: Removed, Path: "LICENSE", Recorded: d("MIT\n")}},
		{"in the package now", func() { tree["skill/LICENSE.md"] = &fstest.MapFile{Data: []byte("GPL\n")} },
			&LicenseChange{Change: Moved, Path: "LICENSE", CurrentPath: "skill/LICENSE.md", Recorded: d("MIT\n"), Current: d("GPL\n")}},
	} {
		tc.change()
		f.tips["r"] = commit2
		rep, err := Check(ctx, lock, local, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Entries[0].License; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: licence = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
