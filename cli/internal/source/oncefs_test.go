package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// describe renders what a file system answers about name: the Stat and
// Lstat types and sizes (or whether they fail, and with a link refusal),
// the listing of a folder and the bytes of a file.
func describe(fsys interface {
	fs.StatFS
	fs.ReadDirFS
	fs.ReadFileFS
	Lstat(string) (fs.FileInfo, error)
}, name string) string {
	var b strings.Builder
	res := func(what string, info fs.FileInfo, err error) {
		switch {
		case isLink(err):
			fmt.Fprintf(&b, "%s: link refused; ", what)
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(&b, "%s: not found; ", what)
		case err != nil:
			fmt.Fprintf(&b, "%s: error; ", what)
		case info.IsDir():
			fmt.Fprintf(&b, "%s: folder; ", what)
		default:
			fmt.Fprintf(&b, "%s: %v %d bytes; ", what, info.Mode().Type(), info.Size())
		}
	}
	info, err := fsys.Stat(name)
	res("stat", info, err)
	info, err = fsys.Lstat(name)
	res("lstat", info, err)
	if info, err := fsys.Lstat(name); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		b.WriteString("not listed; ") // a FIFO: opening it would block
	} else if ents, err := fsys.ReadDir(name); err == nil {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name()+":"+e.Type().String())
		}
		fmt.Fprintf(&b, "list: %s; ", strings.Join(names, " "))
	} else {
		fmt.Fprintf(&b, "list fails (link %v); ", isLink(err))
	}
	if info, err := fsys.Lstat(name); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		b.WriteString("not read") // a FIFO: opening it would block
	} else if data, err := fsys.ReadFile(name); err == nil {
		fmt.Fprintf(&b, "read: %q", data)
	} else {
		fmt.Fprintf(&b, "read fails (link %v)", isLink(err))
	}
	return b.String()
}

// The onceFS answers every question about a hostile source — links out
// of it and back into it, a FIFO, missing paths, paths through a link or
// a file — as the treeFS does, with its fast path and without openat2,
// asked in any order, and every path twice.
func TestOnceFSAnswersAsTreeFS(t *testing.T) {
	src := linkedSource(t)
	writeFiles(t, src, map[string]string{"skills/own/references/a.md": "a\n"})
	if err := os.WriteFile(filepath.Join(src, "skills", "own", "empty.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(src, "skills", "own", "pipe")); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	var names []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(src, p); err == nil && rel != "." {
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	names = append(names, "skills/own/nope", "skills/own/SKILL.md/x", "linked/victim/SKILL.md",
		"skills/holder/references/x/victim/secret.md", ".codex/skills/own/SKILL.md", "nope/SKILL.md", ".", "../src", "/abs")
	for _, fast := range []bool{true, false} {
		for _, order := range []string{"forward", "backward"} {
			t.Run(fmt.Sprintf("openat2 %v, %s", fast, order), func(t *testing.T) {
				tree, err := openTreeFS(src)
				if err != nil {
					t.Fatal(err)
				}
				defer tree.Close()
				ref, err := openTreeFS(src)
				if err != nil {
					t.Fatal(err)
				}
				defer ref.Close()
				tree.noOpenat2.Store(!fast)
				once := newOnceFS(tree)
				asked := slices.Clone(names)
				if order == "backward" {
					slices.Reverse(asked)
				}
				for range 2 {
					for _, n := range asked {
						if got, want := describe(once, n), describe(ref, n); got != want {
							t.Errorf("%s:\nonceFS %s\ntreeFS %s", n, got, want)
						}
					}
				}
			})
		}
	}
}

// Reading a source through a onceFS opens each file once and lists each
// folder once, however often they are asked for.
func TestOnceFSOpensOnce(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"skills/a/SKILL.md": skillMD("a", "A. Use it."), "skills/a/r/x.md": "x\n", "skills/b/SKILL.md": skillMD("b", "B. Use it.")})
	opens := map[string]int{}
	var mu sync.Mutex // discovery reads on several goroutines
	defer SetReadHook(func(op, name string) {
		mu.Lock()
		opens[strings.TrimPrefix(name, src+"/")]++
		mu.Unlock()
	})()
	tree, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	once := newOnceFS(tree)
	for range 3 {
		if d, err := discover(once, "", 0); err != nil || len(d.found) != 2 {
			t.Fatalf("discover = %v, %v", d.found, err)
		}
		for _, n := range []string{"skills/a/SKILL.md", "skills/a/r/x.md"} {
			if _, err := fs.ReadFile(once, n); err != nil {
				t.Fatal(err)
			}
			if _, err := fs.Stat(once, n); err != nil {
				t.Fatal(err)
			}
		}
	}
	for n, c := range opens {
		if c != 1 {
			t.Errorf("%s opened %d times, want once", n, c)
		}
	}
	if opens["skills/a/SKILL.md"] != 1 || opens["skills"] != 1 {
		t.Errorf("opens = %v, want skills/ and skills/a/SKILL.md among them", opens)
	}
}

// A onceFS holds at most onceCache bytes of files not taken yet; past it
// a file is opened again when read, and its bytes are still right. Not
// parallel: onceCache is the package's.
func TestOnceFSCacheBounded(t *testing.T) {
	defer func(n int64) { onceCache = n }(onceCache)
	onceCache = 2500
	src := t.TempDir()
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d"} {
		files[n+".md"] = strings.Repeat(n, 1000)
	}
	writeFiles(t, src, files)
	opens := map[string]int{}
	var mu sync.Mutex // discovery reads on several goroutines
	defer SetReadHook(func(op, name string) {
		mu.Lock()
		opens[strings.TrimPrefix(name, src+"/")]++
		mu.Unlock()
	})()
	tree, err := openTreeFS(src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	once := newOnceFS(tree)
	for n := range files {
		if _, err := once.Lstat(n); err != nil {
			t.Fatal(err)
		}
	}
	if once.cached > onceCache {
		t.Errorf("the onceFS holds %d bytes, more than its %d", once.cached, onceCache)
	}
	for n, want := range files {
		data, _, err := once.take(n, 1000)
		if err != nil || string(data) != want {
			t.Errorf("take(%s) = %q, %v", n, data, err)
		}
	}
	if once.cached != 0 {
		t.Errorf("after every file was taken the onceFS holds %d bytes, want none", once.cached)
	}
	reopened := 0
	for _, c := range opens {
		if c > 1 {
			reopened++
		}
	}
	if reopened != 2 {
		t.Errorf("opens = %v; want the two files past the cache opened twice, the others once", opens)
	}
}
