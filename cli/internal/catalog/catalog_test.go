package catalog

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/validate"
)

func TestBuild(t *testing.T) {
	c, err := Build(collection(), validate.Options{})
	if err != nil {
		t.Fatalf("Build(collection) = %v, want nil", err)
	}
	if len(c.Skills) != 2 {
		t.Fatalf("Build(collection) gave %d skills, want 2", len(c.Skills))
	}
	a, b := c.Skills[0], c.Skills[1]
	if a.Name != "alpha" || a.Path != "skills/alpha" || a.Version != "1.0.0" || a.Kind != "skill" {
		t.Errorf("Build(collection)[0] = %+v, want alpha 1.0.0 at skills/alpha", a)
	}
	if strings.Join(a.Keywords, ",") != "alpha,beta" || !strings.HasPrefix(a.Digest, "sha256-") {
		t.Errorf("Build(collection)[0] keywords %v digest %q, want [alpha beta] and a sha256 digest", a.Keywords, a.Digest)
	}
	if b.Name != "beta" || b.Version != "" || len(b.Keywords) != 0 {
		t.Errorf("Build(collection)[1] = %+v, want bare beta without version or keywords", b)
	}
	again, _ := Build(collection(), validate.Options{})
	if !bytes.Equal(c.Encode(), again.Encode()) {
		t.Errorf("Build twice gave different bytes:\n%s\n%s", c.Encode(), again.Encode())
	}
}

func TestBuildInvalid(t *testing.T) {
	fsys := collection()
	fsys["skills/gamma/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: Gamma_Bad\ndescription: x\n---\n")}
	_, err := Build(fsys, validate.Options{})
	if codeOf(err) != "ASK_VALIDATION_FAILED" {
		t.Fatalf("Build(invalid) = %v, want ASK_VALIDATION_FAILED", err)
	}
	if !strings.Contains(err.Error(), "skills/gamma/SKILL.md") {
		t.Errorf("Build(invalid) = %q, want the failing file named", err)
	}
}

func TestEncodeCanonical(t *testing.T) {
	c := &Catalog{SchemaVersion: 1, Skills: []Entry{{Name: "a", Path: "a", Description: "x <y> & z", Digest: "sha256-x", Kind: "skill"}}}
	got := string(c.Encode())
	want := "{\n  \"schemaVersion\": 1,\n  \"skills\": [\n    {\n      \"description\": \"x <y> & z\",\n      \"digest\": \"sha256-x\",\n" +
		"      \"keywords\": [],\n      \"kind\": \"skill\",\n      \"name\": \"a\",\n      \"path\": \"a\"\n    }\n  ]\n}\n"
	if got != want {
		t.Errorf("Encode() = %q, want %q", got, want)
	}
	back, err := Decode([]byte(got))
	if err != nil || !bytes.Equal(back.Encode(), []byte(got)) {
		t.Errorf("Decode(Encode()) = %v, %v; want the same catalog", back, err)
	}
}

func TestDecodeRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"not json", "{"},
		{"unknown key", `{"schemaVersion":1,"skills":[],"extra":1}`},
		{"future schema", `{"schemaVersion":2,"skills":[]}`},
		{"trailing data", `{"schemaVersion":1,"skills":[]} {}`},
	}
	for _, tt := range tests {
		if _, err := Decode([]byte(tt.in)); err == nil {
			t.Errorf("Decode(%q) = nil error, want an error (%s)", tt.in, tt.name)
		}
	}
}

func TestCheck(t *testing.T) {
	fresh, err := Build(collection(), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := fresh.Encode()
	changedDesc := *fresh
	changedDesc.Skills = append([]Entry(nil), fresh.Skills...)
	changedDesc.Skills[0].Description = "old"
	changedDesc.Skills[0].Digest = "sha256-old"
	removedBeta := &Catalog{SchemaVersion: 1, Skills: fresh.Skills[:1]}
	extra := &Catalog{SchemaVersion: 1, Skills: append(append([]Entry(nil), fresh.Skills...), Entry{Name: "zeta", Path: "skills/zeta"})}
	tests := []struct {
		name      string
		committed []byte
		want      []string
	}{
		{"fresh", base, nil},
		{"missing", nil, []string{"unreadable: skills-catalog.json does not exist"}},
		{"garbage", []byte("nope"), []string{"unreadable"}},
		{"changed", changedDesc.Encode(), []string{"changed: alpha (skills/alpha): description, digest"}},
		{"added", removedBeta.Encode(), []string{"added: beta (skills/beta)"}},
		{"removed", extra.Encode(), []string{"removed: zeta (skills/zeta)"}},
		{"noncanonical", bytes.ReplaceAll(base, []byte("  "), []byte("\t")), []string{"noncanonical"}},
	}
	for _, tt := range tests {
		got := Check(tt.committed, fresh)
		if len(got) != len(tt.want) {
			t.Errorf("Check(%s) = %v, want %v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i].String(), tt.want[i]) {
				t.Errorf("Check(%s)[%d] = %q, want prefix %q", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func TestBuildRootPackage(t *testing.T) {
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte(skillMD("solo", "Solo. Use when alone."))}}
	before, err := Build(fsys, validate.Options{DirName: "solo"})
	if err != nil {
		t.Fatal(err)
	}
	fsys[FileName] = &fstest.MapFile{Data: before.Encode()}
	after, err := Build(fsys, validate.Options{DirName: "solo"})
	if err != nil {
		t.Fatal(err)
	}
	if ch := Check(fsys[FileName].Data, after); ch != nil || before.Skills[0].Path != "." {
		t.Errorf("Build(package root) after writing the catalog: Check = %v, path %q; want fresh at \".\"", ch, before.Skills[0].Path)
	}
}
