package source

import (
	"testing"
	"testing/fstest"
)

func BenchmarkParse(b *testing.B) {
	refs := []string{"owner/repo/skills/x@y#v1.2.0", "https://github.com/o/r/tree/main/skills/x", "git@example.com:t/s.git", "java-basics@^1.2"}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range refs {
			Parse(r, "/cwd", nil)
		}
	}
}

func BenchmarkDiscover(b *testing.B) {
	fsys := fstest.MapFS{}
	for i := range 200 {
		name := "s" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		fsys["skills/cat"+string(rune('a'+i%5))+"/"+name+"/SKILL.md"] = md(name)
		fsys["skills/cat"+string(rune('a'+i%5))+"/"+name+"/references/r.md"] = &fstest.MapFile{Data: []byte("r")}
	}
	b.ReportAllocs()
	for b.Loop() {
		if d, err := discover(fsys, "", 0); err != nil || len(d.found) != 200 {
			b.Fatalf("discover = %d, %v", len(d.found), err)
		}
	}
}

func BenchmarkSynthManifest(b *testing.B) {
	sk := bareSkill{name: "bench", description: "A benchmark skill. Use it.", license: "MIT", files: []string{"SKILL.md", "references/", "skill.yaml"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := synthManifest(sk, "0.0.0-20260102030405-0123456789ab"); err != nil {
			b.Fatal(err)
		}
	}
}
