package format_test

import (
	"fmt"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"skill.yaml":          {Data: []byte("name: demo\nversion: 1.0.0\ndescription: A demo.\nfiles: [SKILL.md, references/]\n")},
		"SKILL.md":            {Data: []byte("---\nname: demo\ndescription: A demo.\n---\n# Demo\n")},
		"references/guide.md": {Data: []byte("# Guide\n")},
		"scratch.txt":         {Data: []byte("not shipped")},
	}
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	fmt.Println(pkg.Name(), pkg.Version(), pkg.Kind, pkg.EntrypointFile)
	fmt.Println(pkg.Files)
	fmt.Println(len(diags), "problems")
	// Output:
	// demo 1.0.0 skill SKILL.md
	// [SKILL.md references/guide.md skill.yaml]
	// 0 problems
}

func ExampleLoad_bare() {
	fsys := fstest.MapFS{
		"SKILL.md": {Data: []byte("---\nname: bare\ndescription: No manifest.\n---\n")},
	}
	pkg, _ := format.Load(fsys, format.LoadOptions{})
	fmt.Println(pkg.Bare, pkg.Manifest == nil, pkg.Name(), pkg.Description())
	// Output:
	// true true bare No manifest.
}

func ExampleDecodeManifest() {
	data := []byte("name: demo\nversion: 1.0\nfiles: 3\nnewField: x\n")
	m, diags := format.DecodeManifest(data, "skill.yaml")
	fmt.Printf("version %q, unknown %s at line %d\n", m.Version, m.UnknownKeys[0].Name, m.UnknownKeys[0].Pos.Line)
	fmt.Println("files at", m.Pos("files"))
	for _, d := range diags {
		fmt.Println(d)
	}
	// Output:
	// version "1.0", unknown newField at line 4
	// files at {3 8}
	// skill.yaml:3:8: error ASK_MANIFEST_INVALID files must be a list of strings, found a number
}

func ExampleDecodeEntrypoint() {
	data := []byte("---\nname: demo\ndescription: A demo.\n---\n# Demo\n")
	e, _ := format.DecodeEntrypoint(data, "SKILL.md", format.KindSkill)
	name, _ := e.String("name")
	fmt.Println(name, e.Pos("description"), "body starts on line", e.BodyLine)
	// Output:
	// demo {3 14} body starts on line 5
}

func ExampleSplitFrontMatter() {
	fm, err := format.SplitFrontMatter([]byte("---\ntitle: x\n---\nHello\n"))
	fmt.Printf("%v %q %q %d %v\n", fm.Present, fm.Data, fm.Body, fm.BodyLine, err)
	_, err = format.SplitFrontMatter([]byte("---\ntitle: x\n"))
	fmt.Println(err)
	// Output:
	// true "title: x\n" "Hello\n" 4 <nil>
	// line 1: the front matter opened on line 1 is never closed
}

func ExampleReadWorkflowMeta() {
	src := []byte(`import { step } from './steps.js'

export const meta = {
  name: 'release', // identity is read statically
  description: "Cuts a release.",
  retries: 3,
}

export default async function run() { await step(meta) }
`)
	e, diags := format.ReadWorkflowMeta(src, "WORKFLOW.js")
	fmt.Println(e.Fields["name"], e.Fields["retries"], e.Pos("description"), len(diags))

	_, diags = format.ReadWorkflowMeta([]byte("export const meta = { name: getName() }"), "WORKFLOW.js")
	fmt.Println(diags[0])
	// Output:
	// release 3 {5 16} 0
	// WORKFLOW.js:1:29: error ASK_WORKFLOW_META_INVALID the function call getName(…) is not allowed in meta; meta must be a pure literal
}

func ExampleDigest() {
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte("name: x\nversion: 1.0.0\nintegrity: sha256-old\n")},
	}
	sum, err := format.Digest(fsys, []string{"skill.yaml"})
	fmt.Println(sum, err)
	// Output:
	// sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8= <nil>
}

func ExampleParseIntegrity() {
	algo, sum, err := format.ParseIntegrity("sha256-echBAtU7xKwKXXC7ndFm4lTzyYYIHuxDZ/KtIWqVjl8=")
	fmt.Println(algo, len(sum), err)
	// Output:
	// sha256 32 <nil>
}
