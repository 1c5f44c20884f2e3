package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var (
	codeLiteral = regexp.MustCompile(`"(ASK_[A-Z0-9_]+)"`)
	docHeading  = regexp.MustCompile(`(?m)^### (ASK_[A-Z0-9_]+)\s*$`)
	docExit     = regexp.MustCompile(`\*\*Exit code:\*\* (\d+)`)
)

// sourceCodes returns every ASK_* code written as a string literal in the
// non-test Go files of the workspace, except the exit-code table itself.
func sourceCodes(t *testing.T) map[string][]string {
	t.Helper()
	codes := map[string][]string{}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || d.Name() == "exitcodes.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range codeLiteral.FindAllStringSubmatch(string(data), -1) {
			codes[m[1]] = append(codes[m[1]], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return codes
}

// docCodes returns every code documented in docs/errors.md with its exit code.
func docCodes(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	out := map[string]int{}
	idx := docHeading.FindAllStringSubmatchIndex(text, -1)
	for i, m := range idx {
		code := text[m[2]:m[3]]
		end := len(text)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		section := text[m[1]:end]
		em := docExit.FindStringSubmatch(section)
		if em == nil {
			t.Errorf("docs/errors.md: %s has no **Exit code:** line", code)
			continue
		}
		n, _ := strconv.Atoi(em[1])
		for _, field := range []string{"**Meaning:**", "**Example:**", "**Fix:**"} {
			if !strings.Contains(section, field) {
				t.Errorf("docs/errors.md: %s lacks %s", code, field)
			}
		}
		if _, dup := out[code]; dup {
			t.Errorf("docs/errors.md documents %s twice", code)
		}
		out[code] = n
	}
	return out
}

func TestErrorCodesDocumented(t *testing.T) {
	src := sourceCodes(t)
	docs := docCodes(t)
	if len(src) == 0 || len(docs) == 0 {
		t.Fatalf("found %d codes in the source and %d in docs/errors.md; both must be non-empty", len(src), len(docs))
	}
	for code, files := range src {
		if _, ok := docs[code]; !ok {
			slices.Sort(files)
			t.Errorf("%s is used in %s but not documented in docs/errors.md", code, strings.Join(slices.Compact(files), ", "))
		}
	}
	for code, exit := range docs {
		if _, ok := src[code]; !ok {
			t.Errorf("%s is documented in docs/errors.md but no source produces it", code)
		}
		want := exitFailure
		if n, ok := exitCodes[code]; ok {
			want = n
		}
		if exit != want {
			t.Errorf("docs/errors.md says %s exits %d; the CLI exits %d", code, exit, want)
		}
	}
	for code := range exitCodes {
		if _, ok := docs[code]; !ok {
			t.Errorf("exit-code table names %s, which docs/errors.md does not document", code)
		}
	}
}
