package snapshot

import (
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func capture(t *testing.T, fsys fstest.MapFS) *Snapshot {
	t.Helper()
	s, err := CaptureCollection(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lines(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func TestCompareUnchanged(t *testing.T) {
	if got := Compare(capture(t, collection()), capture(t, collection())); len(got) != 0 {
		t.Fatalf("Compare(same tree) = %v, want no change", lines(got))
	}
}

func TestCompare(t *testing.T) {
	before := capture(t, collection())
	after := collection()
	// one byte of the body changed, at offset 6 of "# Forms"
	after["pdf/references/forms.md"] = &fstest.MapFile{Data: []byte("# Formz\n\nBack to [the skill](../SKILL.md#top).\n")}
	// a new file under a listed folder, a version bump, a new package,
	// a removed package and a changed catalog
	after["pdf/references/new.md"] = &fstest.MapFile{Data: []byte("new\n")}
	after["pdf/skill.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(string(after["pdf/skill.yaml"].Data), "1.2.0", "1.3.0", 1))}
	after["docx/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: docx\ndescription: Word.\n---\n")}
	delete(after, "bare/SKILL.md")
	after["skills-catalog.json"] = &fstest.MapFile{Data: []byte(`{"schemaVersion":1,"skills":[1]}`)}
	got := Compare(before, capture(t, after))
	want := []string{
		"skills-catalog.json: catalog changed",
		"bare: package removed",
		"docx: package added",
		"pdf/references/forms.md: changed at byte 6",
		"pdf/references/new.md: file added",
		"pdf/skill.yaml: changed at byte 50",
		`pdf: contract field version changed: "1.2.0" → "1.3.0"`,
	}
	if len(got) != len(want) {
		t.Fatalf("Compare = %q, want %d changes like %q", lines(got), len(want), want)
	}
	for i, c := range got {
		if !strings.HasPrefix(c.String(), want[i]) {
			t.Errorf("change %d = %q, want it to start with %q", i, c.String(), want[i])
		}
	}
	if c := got[3]; c.Kind != ChangeFileChanged || c.Package != "pdf" || c.File != "references/forms.md" || *c.Offset != 6 {
		t.Errorf("changed file = %+v", c)
	}
}

func TestCompareRemovedFileAndLink(t *testing.T) {
	before := capture(t, collection())
	after := collection()
	delete(after, "pdf/references/forms.md")
	got := Compare(before, capture(t, after))
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, c.Kind+" "+c.File+c.Field)
	}
	want := []string{"file-removed references/forms.md", "contract links"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("Compare = %q, want %q", kinds, want)
	}
}

func TestFirstDiff(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"abc", "abd", 2}, {"abc", "abcd", 3}, {"abcd", "ab", 2}, {"", "x", 0}, {"x", "y", 0}} {
		if got := firstDiff([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("firstDiff(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestLocalChanges(t *testing.T) {
	s := capture(t, collection())
	pdf := s.Package("pdf")
	dest := func() fstest.MapFS {
		m := fstest.MapFS{}
		for _, f := range pdf.Files {
			m[f.Path] = &fstest.MapFile{Data: f.Content, Mode: 0o755} // modes are not compared
		}
		return m
	}
	if got, err := LocalChanges(pdf, dest()); err != nil || len(got) != 0 {
		t.Fatalf("LocalChanges(equal) = %q, %v, want none", lines(got), err)
	}
	d := dest()
	d["SKILL.md"] = &fstest.MapFile{Data: append(slices.Clone(d["SKILL.md"].Data), '!')}
	delete(d, "references/forms.md")
	d["notes.txt"] = &fstest.MapFile{Data: []byte("mine")}
	d["link.md"] = &fstest.MapFile{Data: []byte("SKILL.md"), Mode: fs.ModeSymlink}
	d["skill.yaml"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	got, err := LocalChanges(pdf, d)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"SKILL.md: changed at byte " + strconv.Itoa(len(d["SKILL.md"].Data)-1),
		"link.md: not a regular file (a symbolic link)",
		"notes.txt: file added",
		"references/forms.md: file removed",
		"skill.yaml: not a regular file (a folder)",
	}
	if len(got) != len(want) {
		t.Fatalf("LocalChanges = %q, want %q", lines(got), want)
	}
	for i, c := range got {
		if !strings.HasPrefix(strings.TrimPrefix(c.String(), "pdf/"), want[i]) {
			t.Errorf("change %d = %q, want it to start with %q", i, c.String(), want[i])
		}
	}
}

func TestSelect(t *testing.T) {
	s := capture(t, collection())
	if _, err := s.Select(""); err == nil {
		t.Error("Select(\"\") on two packages chose one")
	}
	if p, err := s.Select("pdf"); err != nil || p.Path != "pdf" {
		t.Errorf("Select(pdf) = %v, %v", p, err)
	}
	if _, err := s.Select("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Select(nope) = %v", err)
	}
}

func TestVerifyNamesLoadProblems(t *testing.T) {
	fsys := collection()
	want := capture(t, fsys)
	if got, err := Verify(want, fsys, Options{}); err != nil || len(got) != 0 {
		t.Fatalf("Verify(same tree) = %q, %v, want no change", lines(got), err)
	}
	fsys["pdf/skill.yaml"] = &fstest.MapFile{Data: append(slices.Clone(fsys["pdf/skill.yaml"].Data), ": [\n"...)}
	got, err := Verify(want, fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0].Kind != ChangeProblem || got[0].Package != "pdf" || !strings.Contains(got[0].String(), "ASK_MANIFEST_INVALID") {
		t.Fatalf("Verify(broken manifest) = %q, want a problem first", lines(got))
	}
	for _, c := range got[1:] {
		if c.Kind == ChangeProblem {
			t.Errorf("a second problem line: %q", c.String())
		}
	}
	// a package snapshot verifies as a package
	pkg, _ := fs.Sub(collection(), "bare")
	ps, err := CapturePackage(pkg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Verify(ps, pkg, Options{}); err != nil || len(got) != 0 {
		t.Errorf("Verify(package) = %q, %v", lines(got), err)
	}
}
