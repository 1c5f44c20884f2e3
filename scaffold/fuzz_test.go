package scaffold

import (
	"testing"

	"github.com/agent-skills/agent-skills/format"
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
