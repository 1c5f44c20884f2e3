package registry_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/registry"
)

// skills is an in-memory collection of two packages, as the CLI embeds
// its bundled skills/ folder.
func skills() fstest.MapFS {
	return fstest.MapFS{
		"java-basics/skill.yaml": {Data: []byte("name: java-basics\nversion: 1.2.0\ndescription: Java basics.\nkeywords: [java]\nfiles: [SKILL.md]\n")},
		"java-basics/SKILL.md":   {Data: []byte("---\nname: java-basics\ndescription: Java basics.\n---\n# Java basics\n")},
		"jvm-gc/skill.yaml":      {Data: []byte("name: jvm-gc\nversion: 2.0.0\ndescription: Garbage collection.\nfiles: [SKILL.md]\ndependencies:\n  - name: java-basics\n    version: ^1.0.0\n")},
		"jvm-gc/SKILL.md":        {Data: []byte("---\nname: jvm-gc\ndescription: Garbage collection.\n---\n# GC\n")},
	}
}

func ExampleDecodeIndex() {
	doc := []byte(`schemaVersion: 1
name: official
skills:
  - name: java-performance
    description: JVM performance.
    versions:
      - version: 1.0.0
        path: skills/java-performance
        integrity: sha256-Cg2/x3Pp2ue+0RFtNz49FCVlZ67dC2HiTDH2kt93px4=
      - version: 1.1.0
        path: skills/java-performance
        integrity: sha256-Cg2/x3Pp2ue+0RFtNz49FCVlZ67dC2HiTDH2kt93px4=
        deprecated: true
`)
	idx, err := registry.DecodeIndex(doc, "registry/skills.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := idx.Skill("java-performance")
	fmt.Println("latest:", s.Latest)

	_, err = registry.DecodeIndex([]byte("skills:\n  - name: Bad_Name\n    versions: []\n"), "skills.yaml")
	var e *registry.Error
	errors.As(err, &e)
	fmt.Println(e.ErrorCode())
	fmt.Println(err)
	for _, d := range e.ErrorDetail() {
		fmt.Println("  " + d)
	}
	// Output:
	// latest: 1.0.0
	// ASK_REGISTRY_INVALID_INDEX
	// skills.yaml:2:5: skills[0].name: name "Bad_Name" contains uppercase letters ("B", "N"); names are lowercase; contains '_'; only lowercase letters, digits and hyphens are allowed (and 1 more problem)
	//   skills.yaml:2:5: skills[0].versions: a skill needs at least one version
}

func ExampleSearch() {
	company, _ := registry.BuildIndex(fstest.MapFS{
		"java-basics/SKILL.md": {Data: []byte("---\nname: java-basics\nversion: 0.1.0\ndescription: Our Java basics.\n---\n")},
	}, "company")
	official, _ := registry.BuildIndex(skills(), "official")
	hits := registry.Search([]registry.Loaded{{Registry: "company", Index: company}, {Registry: "official", Index: official}}, "java", 10)
	for _, h := range hits {
		fmt.Printf("%s:%s@%s match=%s shadowed=%v\n", h.Registry, h.Name, h.Latest, h.Match, h.Shadowed)
	}
	// Output:
	// company:java-basics@0.1.0 match=name-prefix shadowed=false
	// official:java-basics@1.2.0 match=name-prefix shadowed=true
}

func ExampleOpen() {
	ctx := context.Background()
	r, err := registry.Open(registry.Spec{Name: "bundled", Kind: registry.KindBundled}, registry.Options{Bundled: skills()})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	f, err := r.Fetch(ctx, "jvm-gc", "2.0.0", filepath.Join(dir, "jvm-gc"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Resolved, f.Files)
	// Output: bundled:jvm-gc [SKILL.md skill.yaml]
}

func ExampleSet_Versions() {
	ctx := context.Background()
	company, _ := registry.Open(registry.Spec{Name: "company", Kind: registry.KindBundled}, registry.Options{Bundled: fstest.MapFS{
		"java-basics/SKILL.md": {Data: []byte("---\nname: java-basics\nversion: 1.0.0\ndescription: Ours.\n---\n")},
	}})
	official, _ := registry.Open(registry.Spec{Name: "official", Kind: registry.KindBundled}, registry.Options{Bundled: skills()})
	set := registry.NewSet(nil, company, official)

	// company owns java-basics: official's 1.2.0 cannot be injected.
	owner, versions, _ := set.Versions(ctx, "", "java-basics")
	fmt.Println(owner, versions)
	// A qualified reference bypasses precedence.
	owner, versions, _ = set.Versions(ctx, "official", "java-basics")
	fmt.Println(owner, versions)
	req, _ := set.Requirements(ctx, "", "jvm-gc", "2.0.0")
	fmt.Println(req.Dependencies)
	// Output:
	// company [{1.0.0 false}]
	// official [{1.2.0 false}]
	// [{java-basics ^1.0.0}]
}

func ExamplePack() {
	var a, b bytes.Buffer
	files := []string{"SKILL.md", "skill.yaml"}
	fsys := skills()
	sub := fstest.MapFS{"SKILL.md": fsys["jvm-gc/SKILL.md"], "skill.yaml": fsys["jvm-gc/skill.yaml"]}
	_ = registry.Pack(sub, files, &a)
	_ = registry.Pack(sub, files, &b)
	fmt.Println("reproducible:", bytes.Equal(a.Bytes(), b.Bytes()))

	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	got, err := registry.Extract(context.Background(), &a, dir, registry.DefaultExtractLimits())
	fmt.Println(got, err)
	// Output:
	// reproducible: true
	// [SKILL.md skill.yaml] <nil>
}
