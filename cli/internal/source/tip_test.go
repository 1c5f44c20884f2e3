package source

import (
	"context"
	"path/filepath"
	"testing"
)

func TestTip(t *testing.T) {
	fx := newFixture(t)
	first := fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One.")})
	fx.tag("acme/one", "v1.0.0")
	second := fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One, again.")})
	wt := filepath.Join(fx.work, "acme/one")
	runGit(t, wt, "push", "-q", filepath.Join(fx.base, "acme/one.git"), first+":refs/heads/old")
	r := mustParse(t, "acme/one")
	for _, c := range []struct{ ref, want string }{
		{"", second},
		{"main", second},
		{"old", first},
		{"v1.0.0", first}, // the peeled commit, not the annotated tag
	} {
		got, err := Tip(context.Background(), r, c.ref, fetchOpts(t, fx))
		if err != nil || got != c.want {
			t.Errorf("Tip(acme/one, %q) = %q, %v, want %q", c.ref, got, err, c.want)
		}
	}
	if _, err := Tip(context.Background(), r, "gone", fetchOpts(t, fx)); codeOf(err) != "ASK_SOURCE_NOT_FOUND" {
		t.Errorf("Tip(acme/one, gone) = %v, want ASK_SOURCE_NOT_FOUND", err)
	}
	if _, err := Tip(context.Background(), r, "--upload-pack=x", fetchOpts(t, fx)); codeOf(err) != "ASK_SOURCE_INVALID" {
		t.Errorf("Tip(acme/one, --upload-pack=x) = %v, want ASK_SOURCE_INVALID", err)
	}
	opts := fetchOpts(t, fx)
	opts.Offline = true
	if _, err := Tip(context.Background(), mustParse(t, "https://example.com/o/r.git"), "", opts); codeOf(err) != CodeSourceUnavailable {
		t.Errorf("Tip(offline) = %v, want %s", err, CodeSourceUnavailable)
	}
	if got, err := Tip(context.Background(), Ref{Kind: KindLocal, URL: t.TempDir()}, "", opts); got != "" || err != nil {
		t.Errorf("Tip(a folder) = %q, %v, want none", got, err)
	}
}

func TestPickTip(t *testing.T) {
	a, b, c := "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"
	out := a + "\trefs/tags/x\n" + b + "\trefs/tags/x^{}\n" + c + "\tHEAD\nnot-an-oid\trefs/heads/y\n"
	for _, tc := range []struct{ ref, want string }{{"", c}, {"x", b}, {"y", ""}, {"z", ""}} {
		if got := pickTip(out, tc.ref); got != tc.want {
			t.Errorf("pickTip(%q) = %q, want %q", tc.ref, got, tc.want)
		}
	}
	if got := pickTip(b+"\trefs/heads/x\n"+a+"\trefs/tags/x\n", "x"); got != b {
		t.Errorf("pickTip prefers %q, want the branch %q", got, b)
	}
}
