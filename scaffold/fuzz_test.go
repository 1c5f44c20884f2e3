package scaffold

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// FuzzNew feeds arbitrary names and descriptions to New. New must never
// panic; when it succeeds, the package must load without errors and keep
// the description exactly in the manifest and in the entrypoint, whatever
// quotes, colons or escapes it holds.
func FuzzNew(f *testing.F) {
	f.Add("ab", "plain", uint8(0))
	f.Add("java-performance", `colon: hash # quote " apostrophe ' backslash \`, uint8(1))
	f.Add("x-y", `- [x] {y} *z &a !b %c @d `+"`e`", uint8(2))
	f.Add("abc", "line\nbreak", uint8(0))
	f.Add("a--b", "", uint8(1))
	f.Add("wf", `${x} \u0041 \x41 </script>`, uint8(2))
	f.Add("n1", "word word word word word word word word word word word word word word word word word", uint8(0))
	f.Fuzz(func(t *testing.T, name, desc string, k uint8) {
		kinds := format.Kinds()
		kind := kinds[int(k)%len(kinds)]
		files, err := New(Options{Name: name, Kind: kind, Description: desc})
		if err != nil {
			if errCode(err) == "" {
				t.Fatalf("New(%q, %q) error %v has no code", name, desc, err)
			}
			return
		}
		pkg, diags := format.Load(mapFS(files), format.LoadOptions{})
		if pkg == nil || diags.HasErrors() {
			t.Fatalf("Load(New(%q, %q, %s)) = %v", name, desc, kind, diags)
		}
		want, err := checkDescription(desc)
		if err != nil {
			t.Fatalf("New accepted %q but checkDescription refuses it: %v", desc, err)
		}
		if want == "" {
			want = defaultDescription(kind, name)
		}
		if pkg.Manifest.Description != want {
			t.Errorf("New(%q, %q) manifest description = %q, want %q", name, desc, pkg.Manifest.Description, want)
		}
		if got, _ := pkg.Entrypoint.String("description"); got != want {
			t.Errorf("New(%q, %q) entrypoint description = %q, want %q", name, desc, got, want)
		}
	})
}

// FuzzAdoptLicense feeds arbitrary front matter licences, and a file the
// folder may hold, to Adopt. It must never panic; whatever licence it
// writes is one validation accepts for the adopted package, free text
// included (issue 13, item 5).
func FuzzAdoptLicense(f *testing.F) {
	f.Add("Proprietary. LICENSE.txt has complete terms", "LICENSE.txt")
	f.Add("Complete terms in LICENSE.txt", "")
	f.Add("MIT", "")
	f.Add("SEE LICENSE IN TERMS", "TERMS")
	f.Add("see (legal/TERMS.md).", "legal/TERMS.md")
	f.Add("© 2026 — all rights reserved", "")
	f.Add("GPL-2.0", "")
	f.Add("Apache 2.0 ../../etc/passwd", "x")
	f.Fuzz(func(t *testing.T, license, file string) {
		fsys := fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: ab\ndescription: Covers ab. Use when ab.\nversion: 1.0.0\nlicense: " +
			strconv.Quote(license) + "\n---\n# AB\n")}}
		if fs.ValidPath(file) && file != "." && file != "SKILL.md" && !strings.HasPrefix(file, "SKILL.md/") {
			fsys[file] = &fstest.MapFile{Data: []byte("terms\n")}
		}
		a, err := Adopt(fsys, "ab", AdoptOptions{})
		if err != nil {
			if errCode(err) == "" {
				t.Fatalf("Adopt(license %q) error %v has no code", license, err)
			}
			return
		}
		fsys["skill.yaml"] = &fstest.MapFile{Data: a.Files[0].Data}
		pkg, diags := format.Load(fsys, format.LoadOptions{})
		if pkg == nil || pkg.Manifest == nil {
			t.Fatalf("Load(Adopt(license %q)) = %v", license, diags)
		}
		if err := validate.CheckLicense(pkg.Manifest.License); pkg.Manifest.License != "" && err != nil {
			t.Errorf("Adopt(license %q) wrote license %q: %v", license, pkg.Manifest.License, err)
		}
		for _, d := range validate.Package(pkg, validate.Options{DirName: "ab"}) {
			if d.Code == validate.CodeLicenseInvalid {
				t.Errorf("Adopt(license %q) wrote license %q: %s", license, pkg.Manifest.License, d)
			}
		}
	})
}
