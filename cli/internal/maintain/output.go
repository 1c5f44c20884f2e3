package maintain

import (
	"path"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

// OutputConflict says why a document written at rel — a slash-separated
// path relative to the collection root, or one starting with "../" when
// outside it — would change the state b describes, or "" when it would
// not: inside a package folder it would change that package's file set,
// on the catalog it would replace it, and a SKILL.md or skill.yaml would
// make a package of its folder.
func OutputConflict(b Baseline, rel string) string {
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	if rel == catalog.FileName {
		return "it is the collection's catalog"
	}
	switch path.Base(rel) {
	case "SKILL.md", "skill.yaml":
		return "a file of that name makes a package of its folder"
	}
	for _, p := range b.Packages {
		if p.Path == "." || rel == p.Path || strings.HasPrefix(rel, p.Path+"/") {
			return "it is inside the package " + p.Path + ", whose digest it would change"
		}
	}
	return ""
}
