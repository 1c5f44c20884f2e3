// Command release versions, tags and packages the repository's Go modules,
// as versions.yaml lists them:
//
//	go run ./tools/release bump VERSION        requirements on the set, and versions.yaml, to vVERSION
//	go run ./tools/release tag [--dry-run] VERSION   annotated tags <dir>/vVERSION and vVERSION
//	go run ./tools/release proxy VERSION DIR   a file-system module proxy of the set
//
// -C DIR (before the command) names the repository root; the default is the
// current directory. See docs/modules.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: release [-C root] bump VERSION
       release [-C root] tag [--dry-run] VERSION
       release [-C root] proxy VERSION DIR`

// run is the command; its exit code is 0, 1 for a failure and 2 for a
// usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("C", ".", "the repository root (holding versions.yaml)")
	fs.Usage = func() { fmt.Fprintln(stderr, usage) }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return 2
	}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	dryRun := false
	if cmd == "tag" && len(rest) > 0 && (rest[0] == "--dry-run" || rest[0] == "-dry-run" || rest[0] == "-n") {
		dryRun, rest = true, rest[1:]
	}
	want := map[string]int{"bump": 1, "tag": 1, "proxy": 2}
	n, ok := want[cmd]
	if !ok || len(rest) != n {
		fs.Usage()
		return 2
	}
	err := func() error {
		v, err := normalizeVersion(rest[0])
		if err != nil {
			return err
		}
		r, err := loadRepo(*root)
		if err != nil {
			return err
		}
		switch cmd {
		case "bump":
			return bump(ctx, r, v, stdout)
		case "tag":
			return tag(ctx, r, v, dryRun, stdout)
		case "proxy":
			return proxy(ctx, r, v, rest[1], time.Now(), stdout)
		}
		return errors.New("unreachable")
	}()
	if err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return 1
	}
	return 0
}
