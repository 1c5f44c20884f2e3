package source

import (
	"context"
	"io/fs"
	"testing"
)

func TestCheckoutPaths(t *testing.T) {
	fx := newFixture(t)
	sha := fx.commit("acme/many", map[string]string{
		"LICENSE":                 "MIT\n",
		"README.md":               "not asked for\n",
		"skills/review/SKILL.md":  skillMD("review", "Review."),
		"skills/review/ref.md":    "# Ref\n",
		"skills/testing/SKILL.md": skillMD("testing", "Test."),
	})
	r := mustParse(t, "acme/many")
	tree, err := CheckoutPaths(context.Background(), r, "main", []string{"skills/review", "LICENSE", "COPYING"}, fetchOpts(t, fx))
	if err != nil {
		t.Fatalf("CheckoutPaths = %v", err)
	}
	defer tree.Close()
	if tree.Commit != sha {
		t.Errorf("CheckoutPaths commit = %s, want %s", tree.Commit, sha)
	}
	for name, want := range map[string]bool{
		"LICENSE": true, "skills/review/SKILL.md": true, "skills/review/ref.md": true,
		"README.md": false, "skills/testing/SKILL.md": false,
	} {
		if _, err := fs.Stat(tree.FS, name); (err == nil) != want {
			t.Errorf("CheckoutPaths: %s checked out = %v, want %v", name, err == nil, want)
		}
	}
	for _, bad := range []string{"skills/*", "../x", "/etc", ".git/config", "a\nb", "!x", "."} {
		if _, err := CheckoutPaths(context.Background(), r, "main", []string{bad}, fetchOpts(t, fx)); codeOf(err) != CodeSourceInvalid {
			t.Errorf("CheckoutPaths(%q) = %v, want %s", bad, err, CodeSourceInvalid)
		}
	}
	if _, err := CheckoutPaths(context.Background(), Ref{Kind: KindLocal, URL: t.TempDir()}, "", nil, fetchOpts(t, fx)); codeOf(err) != CodeSourceInvalid {
		t.Errorf("CheckoutPaths(a folder) = %v, want %s", err, CodeSourceInvalid)
	}
}
