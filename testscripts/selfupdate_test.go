package testscripts

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// installexe puts a copy of the agent-skills binary at PATH, for the
// self-update scripts that need it where an installer would put it (a
// Homebrew Cellar, an npm package):
//
//	installexe prefix/Cellar/agent-skills/0.1.0/bin/agent-skills
//
// The copy keeps the name agent-skills, which is how testscript's binary
// knows to run agent-skills.
func installexe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: installexe PATH")
	}
	dest := ts.MkAbs(args[0])
	if base := filepath.Base(dest); base != "agent-skills" && base != "agent-skills.exe" {
		ts.Fatalf("installexe: %s must be named agent-skills", dest)
	}
	src, err := exec.LookPath("agent-skills")
	ts.Check(err)
	ts.Check(os.MkdirAll(filepath.Dir(dest), 0o755))
	if os.Link(src, dest) == nil {
		return
	}
	in, err := os.Open(src)
	ts.Check(err)
	defer in.Close()
	out, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	ts.Check(err)
	_, err = io.Copy(out, in)
	ts.Check(err)
	ts.Check(out.Close())
}
