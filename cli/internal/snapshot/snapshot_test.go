package snapshot

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
)

func collection() fstest.MapFS {
	return fstest.MapFS{
		"skills-catalog.json": {Data: []byte(`{"schemaVersion":1,"skills":[]}` + "\n")},
		"pdf/skill.yaml": {Data: []byte(`schemaVersion: 1
name: pdf
kind: skill
version: 1.2.0
description: Fill and read PDF forms.
license: MIT
files: [SKILL.md, references/]
suggests: [docx]
dependencies:
  - name: files
    version: ^1.0.0
integrity: sha256-AAAA
`)},
		"pdf/SKILL.md":            {Data: []byte("---\nname: pdf\ndescription: Fill and read PDF forms.\nallowed-tools: Read\n---\n# PDF\n\nSee [forms](references/forms.md) and [the spec](https://example.com).\n")},
		"pdf/references/forms.md": {Data: []byte("# Forms\n\nBack to [the skill](../SKILL.md#top).\n")},
		"bare/SKILL.md":           {Data: []byte("---\nname: bare\ndescription: A bare skill.\n---\nBody.\n")},
	}
}

func TestCaptureCollection(t *testing.T) {
	fsys := collection()
	s, err := CaptureCollection(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != "collection" || s.Catalog == nil || s.Catalog.Digest != format.BytesDigest(fsys["skills-catalog.json"].Data) {
		t.Fatalf("kind %s, catalog %+v", s.Kind, s.Catalog)
	}
	var paths []string
	for _, p := range s.Packages {
		paths = append(paths, p.Path)
	}
	if !slices.Equal(paths, []string{"bare", "pdf"}) {
		t.Fatalf("packages %v", paths)
	}
	pdf := s.Package("pdf")
	sub, _ := fsys.Sub("pdf")
	want, _ := format.Digest(sub, []string{"SKILL.md", "references/forms.md", "skill.yaml"})
	if pdf.Digest != want {
		t.Errorf("package digest %s, want format.Digest %s", pdf.Digest, want)
	}
	c := pdf.Contract
	if c.Name != "pdf" || c.Version != "1.2.0" || c.Kind != "skill" || c.Entrypoint != "SKILL.md" {
		t.Errorf("contract %+v", c)
	}
	if !slices.Equal(c.Suggests, []string{"docx"}) || len(c.Dependencies) != 1 || c.Dependencies[0] != (Dependency{"files", "^1.0.0"}) {
		t.Errorf("suggests %v deps %v", c.Suggests, c.Dependencies)
	}
	if !slices.Contains(c.ManifestKeys, "license") || !slices.Contains(c.ManifestKeys, "integrity") {
		t.Errorf("manifest keys %v", c.ManifestKeys)
	}
	if !slices.Equal(c.FrontMatterKeys, []string{"allowed-tools", "description", "name"}) {
		t.Errorf("front-matter keys %v", c.FrontMatterKeys)
	}
	wantLinks := []Link{{"SKILL.md", "references/forms.md"}, {"references/forms.md", "SKILL.md"}}
	if !slices.Equal(c.Links, wantLinks) {
		t.Errorf("links %v, want %v", c.Links, wantLinks)
	}
	if f := pdf.File("skill.yaml"); f == nil || !bytes.Equal(f.Content, fsys["pdf/skill.yaml"].Data) || f.Digest != format.BytesDigest(f.Content) {
		t.Errorf("skill.yaml captured as %+v", f)
	}
	if b := s.Package("bare"); len(b.Contract.ManifestKeys) != 0 || b.Contract.Name != "bare" {
		t.Errorf("bare contract %+v", b.Contract)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s, err := CaptureCollection(collection(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(bytes.NewReader(b), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Encode(got)
	if !bytes.Equal(b, again) {
		t.Fatal("decode then encode changed the bytes")
	}
	// A captured package reads back through FS with the same digest.
	p := got.Package("pdf")
	var names []string
	for _, f := range p.Files {
		names = append(names, f.Path)
	}
	if d, err := format.Digest(p.FS(), names); err != nil || d != p.Digest {
		t.Fatalf("digest of FS() = %s %v, want %s", d, err, p.Digest)
	}
}

func TestDecodeRefuses(t *testing.T) {
	s, _ := CapturePackage(fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: x\ndescription: d\n---\n")}}, Options{})
	good, _ := Encode(s)
	for name, mutate := range map[string]func(string) string{
		"schema":   func(j string) string { return strings.Replace(j, Schema, "agent-skills.snapshot/9", 1) },
		"unknown":  func(j string) string { return strings.Replace(j, `"kind"`, `"extra": 1, "kind"`, 1) },
		"kind":     func(j string) string { return strings.Replace(j, `"kind": "package"`, `"kind": "tarball"`, 1) },
		"path":     func(j string) string { return strings.Replace(j, `"path": "SKILL.md"`, `"path": "../SKILL.md"`, 1) },
		"content":  func(j string) string { return strings.Replace(j, `"size": `, `"size": 1`, 1) },
		"two":      func(j string) string { return j + "{}" },
		"not json": func(string) string { return "{" },
	} {
		_, err := Decode(strings.NewReader(mutate(string(good))), "s.json")
		var e *askerr.Error
		if !errors.As(err, &e) || e.Code != CodeInvalid {
			t.Errorf("%s: Decode = %v, want %s", name, err, CodeInvalid)
		}
	}
}

func TestObserve(t *testing.T) {
	s, _ := CaptureCollection(collection(), Options{})
	enc, _ := Encode(s)
	o, err := s.Observe(enc, []byte(`{"repository": "https://github.com/acme/skills",
  "commit": "abc"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := EncodeObservation(o)
	if bytes.Contains(b, []byte(`"content"`)) || string(o.SourceEvidence) != `{"repository":"https://github.com/acme/skills","commit":"abc"}` {
		t.Fatalf("observation:\n%s", b)
	}
	if o.Snapshot != format.BytesDigest(enc) || len(o.Packages) != 2 || o.CheckEvidence != nil {
		t.Fatalf("%+v", o)
	}
	back, err := DecodeObservation(bytes.NewReader(b), "o.json")
	if err != nil || back.Packages[1].Files[0].Digest != o.Packages[1].Files[0].Digest {
		t.Fatal(back, err)
	}
	if _, err := s.Observe(enc, []byte(`{"a": `), nil); err == nil {
		t.Fatal("broken evidence attached")
	}
}
