package format

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

const typicalManifest = `name: demo
version: 1.2.3
description: A demo skill.
files:
  - SKILL.md
  - skill.yaml
  - references/
  - scripts/run.sh
`

const typicalSkill = "---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n"

func typicalFS() fstest.MapFS {
	return fstest.MapFS{
		"skill.yaml":               {Data: []byte(typicalManifest)},
		"SKILL.md":                 {Data: []byte(typicalSkill)},
		"references/a.md":          {Data: []byte("a")},
		"references/deep/b.md":     {Data: []byte("b")},
		"references/.DS_Store":     {Data: []byte("junk")},
		"references/.git/config":   {Data: []byte("junk")},
		"references/node_modules/": {Mode: fs.ModeDir},
		"scripts/run.sh":           {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
		"scripts/other.sh":         {Data: []byte("not listed")},
		"notes.txt":                {Data: []byte("not listed")},
	}
}

func TestLoadTypical(t *testing.T) {
	pkg, diags := Load(typicalFS(), LoadOptions{})
	if len(diags) != 0 {
		t.Fatalf("Load(typical) diagnostics = %v, want none", diags)
	}
	wantFiles := []string{"SKILL.md", "references/a.md", "references/deep/b.md", "scripts/run.sh", "skill.yaml"}
	if !reflect.DeepEqual(pkg.Files, wantFiles) {
		t.Errorf("Load(typical).Files = %q, want %q", pkg.Files, wantFiles)
	}
	if pkg.Bare || pkg.Kind != KindSkill || pkg.EntrypointFile != "SKILL.md" || pkg.Manifest == nil || pkg.Entrypoint == nil {
		t.Errorf("Load(typical) = %+v, want a non-bare skill with manifest and entrypoint", pkg)
	}
	if pkg.Name() != "demo" || pkg.Version() != "1.2.3" || pkg.Description() != "A demo skill." {
		t.Errorf("Load(typical) Name, Version, Description = %q, %q, %q", pkg.Name(), pkg.Version(), pkg.Description())
	}
}

func TestLoadBare(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":         {Data: []byte("---\nname: bare\ndescription: Bare.\nversion: 2.0\n---\n")},
		"scripts/x.py":     {Data: []byte("print(1)")},
		".git/HEAD":        {Data: []byte("ref")},
		"node_modules/a":   {Data: []byte("a")},
		".agent-skills/rc": {Data: []byte("a")},
		".DS_Store":        {Data: []byte("a")},
	}
	pkg, diags := Load(fsys, LoadOptions{})
	if len(diags) != 0 {
		t.Fatalf("Load(bare) diagnostics = %v, want none", diags)
	}
	if !pkg.Bare || pkg.Manifest != nil || pkg.Kind != KindSkill || pkg.Entrypoint == nil {
		t.Errorf("Load(bare) = %+v, want bare skill with entrypoint", pkg)
	}
	if want := []string{"SKILL.md", "scripts/x.py"}; !reflect.DeepEqual(pkg.Files, want) {
		t.Errorf("Load(bare).Files = %q, want %q", pkg.Files, want)
	}
	if pkg.Name() != "bare" || pkg.Version() != "2.0" || pkg.Description() != "Bare." {
		t.Errorf("Load(bare) Name, Version, Description = %q, %q, %q; want bare, 2.0, Bare.", pkg.Name(), pkg.Version(), pkg.Description())
	}
}

func TestLoadKinds(t *testing.T) {
	tests := []struct {
		kind       string
		entrypoint string
		data       string
		wantMiss   bool
	}{
		{"command", "COMMAND.md", "---\ndescription: Run.\n---\nDo it.\n", false},
		{"workflow", "WORKFLOW.js", "export const meta = { name: 'w', description: 'd' }\n", false},
		{"skill", "SKILL.md", "", true},
		{"plugin", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			fsys := fstest.MapFS{"skill.yaml": {Data: []byte("name: w\nkind: " + tt.kind + "\nfiles: [skill.yaml]\n")}}
			if tt.data != "" {
				fsys[tt.entrypoint] = &fstest.MapFile{Data: []byte(tt.data)}
			}
			pkg, diags := Load(fsys, LoadOptions{})
			if pkg.EntrypointFile != tt.entrypoint || string(pkg.Kind) != tt.kind {
				t.Errorf("Load(kind %s) entrypoint, kind = %q, %q; want %q, %q", tt.kind, pkg.EntrypointFile, pkg.Kind, tt.entrypoint, tt.kind)
			}
			switch {
			case tt.wantMiss:
				if got := diagSummary(diags); !reflect.DeepEqual(got, []string{"0:0 ASK_ENTRYPOINT_MISSING"}) || pkg.Entrypoint != nil {
					t.Errorf("Load(kind %s) = %v, want ASK_ENTRYPOINT_MISSING", tt.kind, diags)
				}
			case tt.data != "":
				if len(diags) != 0 || pkg.Entrypoint == nil || pkg.Entrypoint.Kind != pkg.Kind {
					t.Errorf("Load(kind %s) = %v, %v; want a decoded entrypoint", tt.kind, pkg.Entrypoint, diags)
				}
			default:
				if len(diags) != 0 || pkg.Entrypoint != nil {
					t.Errorf("Load(kind %s) = %v, %v; want no entrypoint and no diagnostics", tt.kind, pkg.Entrypoint, diags)
				}
			}
		})
	}
}

func TestLoadFilesEntries(t *testing.T) {
	manifest := `name: x
files:
  - SKILL.md
  - missing.md
  - ../outside
  - /etc/passwd
  - a\b
  - ""
  - ./SKILL.md
  - SKILL.md/inner
  - refs/gone/
  - refs
  - .git/config
`
	fsys := fstest.MapFS{
		"skill.yaml":  {Data: []byte(manifest)},
		"SKILL.md":    {Data: []byte(typicalSkill)},
		"refs/r.md":   {Data: []byte("r")},
		".git/config": {Data: []byte("c")},
	}
	pkg, diags := Load(fsys, LoadOptions{})
	want := []string{"4:5 ASK_FILES_MISSING", "10:5 ASK_FILES_MISSING", "11:5 ASK_FILES_MISSING"}
	if got := diagSummary(diags); !reflect.DeepEqual(got, want) {
		t.Errorf("Load(files entries) = %v, want %v", diags, want)
	}
	for _, d := range diags {
		if d.File != "skill.yaml" || d.Fix == "" {
			t.Errorf("Load(files entries) diagnostic = %+v, want file skill.yaml and a fix", d)
		}
	}
	if want := []string{"SKILL.md", "refs/r.md", "skill.yaml"}; !reflect.DeepEqual(pkg.Files, want) {
		t.Errorf("Load(files entries).Files = %q, want %q", pkg.Files, want)
	}
}

func TestLoadRefusesSpecialFiles(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		fsys     fstest.MapFS
		want     []string
		file     string
	}{
		{"symlink in folder", "files: [refs/]", fstest.MapFS{"refs/a": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "refs/a"},
		{"symlink entry", "files: [link]", fstest.MapFS{"link": {Data: []byte("SKILL.md"), Mode: fs.ModeSymlink}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "link"},
		{"symlinked folder on the way", "files: [dir/x.md]", fstest.MapFS{"dir": {Data: []byte("/etc"), Mode: fs.ModeSymlink}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "dir"},
		{"device", "files: [refs/]", fstest.MapFS{"refs/dev": {Mode: fs.ModeDevice}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "refs/dev"},
		{"pipe", "files: [fifo]", fstest.MapFS{"fifo": {Mode: fs.ModeNamedPipe}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "fifo"},
		{"socket", "files: [refs/]", fstest.MapFS{"refs/sock": {Mode: fs.ModeSocket}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "refs/sock"},
		{"symlinked entrypoint", "files: []", fstest.MapFS{"SKILL.md": {Data: []byte("x"), Mode: fs.ModeSymlink}},
			[]string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}, "SKILL.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := tt.fsys
			fsys["skill.yaml"] = &fstest.MapFile{Data: []byte("name: x\n" + tt.manifest + "\n")}
			if _, ok := fsys["SKILL.md"]; !ok {
				fsys["SKILL.md"] = &fstest.MapFile{Data: []byte(typicalSkill)}
			}
			pkg, diags := Load(fsys, LoadOptions{})
			if got := diagSummary(diags); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Load(%s) = %v, want %v", tt.name, diags, tt.want)
			}
			if diags[0].File != tt.file || !strings.Contains(diags[0].Message, tt.file) {
				t.Errorf("Load(%s) = %v, want it to name %s", tt.name, diags[0], tt.file)
			}
			for _, f := range pkg.Files {
				if f == tt.file {
					t.Errorf("Load(%s).Files = %q, want %s left out", tt.name, pkg.Files, tt.file)
				}
			}
		})
	}
}

func TestLoadBareRefusesSymlink(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md": {Data: []byte(typicalSkill)},
		"evil":     {Data: []byte("/"), Mode: fs.ModeSymlink},
	}
	pkg, diags := Load(fsys, LoadOptions{})
	if got := diagSummary(diags); !reflect.DeepEqual(got, []string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}) || !strings.Contains(diags[0].Message, "symbolic link") {
		t.Errorf("Load(bare with symlink) = %v, want one ASK_PACKAGE_UNSAFE_FILE about a symbolic link", diags)
	}
	if !reflect.DeepEqual(pkg.Files, []string{"SKILL.md"}) {
		t.Errorf("Load(bare with symlink).Files = %q, want [SKILL.md]", pkg.Files)
	}
}

func TestLoadOSDirSymlink(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skill.yaml", "name: x\nfiles: [SKILL.md, refs/, linked/a.md]\n")
	write("SKILL.md", typicalSkill)
	write("refs/ok.md", "ok")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "a.md"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "a.md"), filepath.Join(dir, "refs", "leak.md")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	pkg, diags := Load(os.DirFS(dir), LoadOptions{})
	want := []string{"0:0 ASK_PACKAGE_UNSAFE_FILE", "0:0 ASK_PACKAGE_UNSAFE_FILE"}
	if got := diagSummary(diags); !reflect.DeepEqual(got, want) || diags[0].File != "linked" || diags[1].File != "refs/leak.md" {
		t.Errorf("Load(os.DirFS with symlinks) = %v, want linked and refs/leak.md refused", diags)
	}
	if want := []string{"SKILL.md", "refs/ok.md", "skill.yaml"}; !reflect.DeepEqual(pkg.Files, want) {
		t.Errorf("Load(os.DirFS with symlinks).Files = %q, want %q", pkg.Files, want)
	}
}

func TestLoadLimits(t *testing.T) {
	big := strings.Repeat("x", 100)
	tests := []struct {
		name   string
		limits Limits
		fsys   fstest.MapFS
		msg    string
	}{
		{"max files", Limits{MaxFiles: 3}, fstest.MapFS{"r/a": {}, "r/b": {}, "r/c": {}}, "number of files exceeds the limit of 3 files"},
		{"max file size", Limits{MaxFileSize: 60}, fstest.MapFS{"r/a": {Data: []byte(big)}}, "the file (100 bytes) exceeds the limit of 60 bytes"},
		{"max total", Limits{MaxTotalSize: 150}, fstest.MapFS{"r/a": {Data: []byte(big)}, "r/b": {Data: []byte(big)}}, "total size of the files exceeds the limit of 150 bytes"},
		{"path length", Limits{MaxPathLength: 10}, fstest.MapFS{"r/abcdefghijk": {}}, "the path (13 bytes) exceeds the limit of 10 bytes"},
		{"depth", Limits{MaxDepth: 3}, fstest.MapFS{"r/a/b/c/d": {}}, "folder nesting exceeds the limit of 3 levels"},
		{"manifest size", Limits{MaxManifestSize: 10}, fstest.MapFS{"r": {Mode: fs.ModeDir}}, "the manifest exceeds the limit of 10 bytes"},
		{"entrypoint size", Limits{MaxEntrypointSize: 10}, fstest.MapFS{"r": {Mode: fs.ModeDir}}, "the entrypoint exceeds the limit of 10 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := tt.fsys
			fsys["skill.yaml"] = &fstest.MapFile{Data: []byte("name: x\nfiles: [SKILL.md, r/]\n")}
			fsys["SKILL.md"] = &fstest.MapFile{Data: []byte(typicalSkill)}
			_, diags := Load(fsys, LoadOptions{Limits: tt.limits})
			if len(diags) != 1 || diags[0].Code != "ASK_PACKAGE_TOO_LARGE" || !strings.Contains(diags[0].Message, tt.msg) || diags[0].Fix == "" {
				t.Errorf("Load(%s) = %v, want one ASK_PACKAGE_TOO_LARGE containing %q", tt.name, diags, tt.msg)
			}
		})
	}
}

func TestLoadInspectHook(t *testing.T) {
	var seen []string
	opts := LoadOptions{Inspect: func(p string, info fs.FileInfo) error {
		seen = append(seen, p)
		if p == "references/a.md" {
			return errors.New("it has 2 hard links")
		}
		return nil
	}}
	pkg, diags := Load(typicalFS(), opts)
	if got := diagSummary(diags); !reflect.DeepEqual(got, []string{"0:0 ASK_PACKAGE_UNSAFE_FILE"}) ||
		diags[0].File != "references/a.md" || !strings.Contains(diags[0].Message, "2 hard links") {
		t.Errorf("Load(with Inspect) = %v, want references/a.md refused", diags)
	}
	if len(seen) != 5 {
		t.Errorf("Inspect called for %q, want the 5 files of the set", seen)
	}
	for _, f := range pkg.Files {
		if f == "references/a.md" {
			t.Errorf("Load(with Inspect).Files = %q, want references/a.md left out", pkg.Files)
		}
	}
}

func TestLoadBrokenManifest(t *testing.T) {
	fsys := fstest.MapFS{"skill.yaml": {Data: []byte("name: [\n")}, "SKILL.md": {Data: []byte(typicalSkill)}}
	pkg, diags := Load(fsys, LoadOptions{})
	if pkg.Manifest != nil || pkg.Bare || pkg.Entrypoint != nil || len(diags) != 1 || diags[0].Code != "ASK_MANIFEST_INVALID" {
		t.Errorf("Load(broken manifest) = %+v, %v; want no manifest, not bare, one ASK_MANIFEST_INVALID", pkg, diags)
	}
}

func TestLoadBareWithoutSkill(t *testing.T) {
	_, diags := Load(fstest.MapFS{"README.md": {Data: []byte("x")}}, LoadOptions{})
	if got := diagSummary(diags); !reflect.DeepEqual(got, []string{"0:0 ASK_ENTRYPOINT_MISSING"}) || diags[0].File != "SKILL.md" {
		t.Errorf("Load(no SKILL.md) = %v, want ASK_ENTRYPOINT_MISSING for SKILL.md", diags)
	}
}

func TestLoadEntrypointProblemsPassThrough(t *testing.T) {
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: x\n")}}
	pkg, diags := Load(fsys, LoadOptions{})
	if pkg.Entrypoint != nil || len(diags) != 1 || diags[0].Code != "ASK_FRONTMATTER_INVALID" {
		t.Errorf("Load(unclosed front matter) = %v, %v; want nil entrypoint and ASK_FRONTMATTER_INVALID", pkg.Entrypoint, diags)
	}
	fsys = fstest.MapFS{"SKILL.md": {Mode: fs.ModeDir}}
	if _, diags := Load(fsys, LoadOptions{}); len(diags) != 1 || diags[0].Code != "ASK_ENTRYPOINT_MISSING" {
		t.Errorf("Load(SKILL.md folder) = %v, want ASK_ENTRYPOINT_MISSING", diags)
	}
}

func TestKinds(t *testing.T) {
	for _, k := range Kinds() {
		if !k.Valid() || EntrypointFor(k) == "" || k.String() != string(k) {
			t.Errorf("Kind(%q).Valid() = false, want true", k)
		}
	}
	if Kind("").Valid() || EntrypointFor("plugin") != "" {
		t.Errorf("Kind(\"\").Valid() or EntrypointFor(plugin) accepted an unknown kind")
	}
}

// readSized reads what io.ReadAll of a limited reader reads: short, exact,
// at and over the limit, and from a file whose Stat is wrong.
func TestReadSized(t *testing.T) {
	for _, c := range []struct {
		data  string
		limit int64
	}{{"", 10}, {"abc", 10}, {"abcdefghij", 10}, {"abcdefghijk", 10}, {strings.Repeat("x", 5000), 100000}, {strings.Repeat("y", 5000), 10}} {
		fsys := fstest.MapFS{"f": {Data: []byte(c.data)}}
		f, err := fsys.Open("f")
		if err != nil {
			t.Fatal(err)
		}
		got, err := readSized(f, c.limit)
		f.Close()
		want, _ := io.ReadAll(io.LimitReader(strings.NewReader(c.data), c.limit+1))
		if err != nil || string(got) != string(want) {
			t.Errorf("readSized(%d bytes, limit %d) = %d bytes, %v; want %d bytes", len(c.data), c.limit, len(got), err, len(want))
		}
	}
	grown := lyingFile{Reader: strings.NewReader(strings.Repeat("z", 3000)), size: 10}
	if got, err := readSized(grown, 100000); err != nil || len(got) != 3000 {
		t.Errorf("readSized(file grown past its Stat) = %d bytes, %v; want 3000", len(got), err)
	}
}

// lyingFile is an fs.File whose Stat gives a size other than its bytes.
type lyingFile struct {
	*strings.Reader
	size int64
}

func (f lyingFile) Stat() (fs.FileInfo, error) { return lyingInfo(f.size), nil }
func (f lyingFile) Close() error               { return nil }

type lyingInfo int64

func (i lyingInfo) Name() string       { return "f" }
func (i lyingInfo) Size() int64        { return int64(i) }
func (i lyingInfo) Mode() fs.FileMode  { return 0o644 }
func (i lyingInfo) ModTime() time.Time { return time.Time{} }
func (i lyingInfo) IsDir() bool        { return false }
func (i lyingInfo) Sys() any           { return nil }
