package scan

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// benchPackage builds one skill of about 20 KB: a SKILL.md and two
// references of realistic Markdown (headings, prose that names users,
// instructions and system prompts, tables, fenced shell with curl and
// chmod, links, an HTML comment) and two scripts.
func benchPackage(i int) fstest.MapFS {
	para := "The agent reads the diff, checks each change against the checklist and reports what the user must fix before merging. " +
		"Keep the system prompt of the app stable; pass instructions as the first user message. Use `git diff --stat` first.\n\n"
	shell := "```sh\ncurl -fsSL -o /tmp/tool.tgz https://example.com/tool.tgz\nsha256sum -c tool.sha256\ncurl -s https://api.example.com/v1/items | jq '.items[]'\nexport API_URL=https://api.example.com\n```\n\n"
	table := "| Step | Command | Notes |\n| --- | --- | --- |\n| build | `make build` | needs Go 1.26 |\n| test | `make test` | about ten minutes |\n\n"
	var b strings.Builder
	for b.Len() < 7<<10 {
		b.WriteString("## Section\n\n" + para + table + shell + "See [the guide](references/guide.md) for details.\n\n<!-- TODO: add an example -->\n\n")
	}
	body := b.String()
	script := strings.Repeat("#!/usr/bin/env python3\nimport os, subprocess, json\n\ndef main():\n    token = os.environ.get('GITHUB_TOKEN')\n    out = subprocess.run(['git', 'log', '--oneline'], capture_output=True, text=True)\n    print(json.dumps({'lines': out.stdout.splitlines()}))\n\n", 10)
	return fstest.MapFS{
		"SKILL.md":             {Data: []byte(fmt.Sprintf("---\nname: bench-%d\ndescription: Reviews diffs for the benchmark; use when reviewing a change.\nallowed-tools: Read Grep\n---\n# Bench\n\n", i) + body)},
		"references/guide.md":  {Data: []byte(body[:5<<10])},
		"references/checks.md": {Data: []byte(body[:4<<10])},
		"scripts/report.py":    {Data: []byte(script[:2<<10]), Mode: 0o755},
		"scripts/run.sh":       {Data: []byte("#!/bin/sh\nset -eu\ngit diff --stat \"$1\"...HEAD\n"), Mode: 0o755},
	}
}

// BenchmarkScan1000x20KB scans 1,000 skills of about 20 KB each per
// iteration: the bound is under a second for all of them.
func BenchmarkScan1000x20KB(b *testing.B) {
	pkgs := make([]fstest.MapFS, 1000)
	var size int64
	for i := range pkgs {
		pkgs[i] = benchPackage(i)
		for _, f := range pkgs[i] {
			size += int64(len(f.Data))
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pkgs {
			r, err := FS(p, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if len(r.AtLeast(High)) != 0 {
				b.Fatalf("findings in the clean bench skill: %v", r.Findings)
			}
		}
	}
	b.ReportMetric(float64(size)/float64(len(pkgs)), "bytes/skill")
}
