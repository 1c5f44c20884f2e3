package validate

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// CheckPath reports whether p is a package path that is safe to create on
// every supported system: relative, slash-separated and inside the package.
// The rules are format's, so that validation, the loader, the registry's
// extractor and the agents' layouts cannot disagree about a path: it
// applies format.CheckEntryPath, which refuses, in this order: an empty
// path, invalid UTF-8, a path over format.DefaultMaxPathLength bytes,
// control characters (below 0x20, and 0x7f), UNC paths ("\\srv\x",
// "//srv/x"), absolute paths ("/x"), drive letters ("C:"), ".." segments
// anywhere, backslashes, empty segments ("a//b"), "." segments, segments
// over format.MaxSegmentLength bytes, the characters <>:"|?*, segments
// ending in a dot or a space, and Windows reserved device names (CON, PRN,
// AUX, NUL, COM0-9, LPT0-9, COM¹-³, LPT¹-³, CONIN$, CONOUT$;
// case-insensitive, also with an extension such as "nul.txt"). One
// trailing "/" is allowed: it marks a directory entry such as
// "references/".
//
// It returns nil or a *Problem with code ASK_FILES_UNSAFE_PATH naming the
// first rule broken.
func CheckPath(p string) error {
	if err := format.CheckEntryPath(p); err != nil {
		return &Problem{
			Code:    CodeFilesUnsafePath,
			Message: "path " + err.Error(),
			Fix:     "use a relative path inside the package with forward slashes and portable names, such as references/guide.md",
		}
	}
	return nil
}

// CheckFiles checks every entry of a files list with CheckPath and reports
// duplicates (code ASK_FILES_DUPLICATE): the same path twice, "dir" and
// "dir/", or two paths that differ only in case or Unicode normalisation
// (format.FoldPath), which would overwrite each other on case-insensitive
// or normalising file systems. Problems come in list order, each with its
// field path "files[i]".
func CheckFiles(files []string) []FieldProblem {
	var out []FieldProblem
	seen := make(map[string]int, len(files))
	folded := make(map[string]int, len(files))
	for i, f := range files {
		if err := CheckPath(f); err != nil {
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: err.(*Problem)})
			continue
		}
		key := strings.TrimSuffix(f, "/")
		if j, ok := seen[key]; ok {
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: &Problem{
				Code:    CodeFilesDuplicate,
				Message: fmt.Sprintf("files entry %q repeats files[%d] (%q)", f, j, files[j]),
				Fix:     "remove the repeated entry",
			}})
			continue
		}
		seen[key] = i
		low := format.FoldPath(key)
		if j, ok := folded[low]; ok {
			how := "differs only in case from"
			if !strings.EqualFold(key, strings.TrimSuffix(files[j], "/")) {
				how = "differs only in case or Unicode normalisation (NFC/NFD) from"
			}
			out = append(out, FieldProblem{Field: fmt.Sprintf("files[%d]", i), Problem: &Problem{
				Code:    CodeFilesDuplicate,
				Message: fmt.Sprintf("files entry %q %s files[%d] (%q); case-insensitive or normalising file systems (Windows, macOS) would merge them", f, how, j, files[j]),
				Fix:     "rename one of the two so that the names differ by more than case or normalisation",
			}})
			continue
		}
		folded[low] = i
	}
	return out
}
