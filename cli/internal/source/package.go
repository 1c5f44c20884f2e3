package source

import (
	"io/fs"
	"path"

	"github.com/agent-skills/agent-skills/format"
)

// packageAt reads the command or workflow package in folder p: a
// skill.yaml whose kind is command or workflow. Such a package has no
// SKILL.md, so discovery, which looks for skills, does not see it; named
// as the source itself (./my-command, owner/repo/path/to/workflow) it
// installs like a skill folder. Its entrypoint (COMMAND.md, WORKFLOW.js)
// is checked by validation when it is materialised.
func packageAt(fsys fs.FS, p string) (Found, bool) {
	data, err := readCapped(fsys, join(p, format.ManifestFile), format.DefaultMaxManifestSize)
	if err != nil {
		return Found{}, false
	}
	m, _ := format.DecodeManifest(data, format.ManifestFile)
	if m == nil || (m.Kind != format.KindCommand && m.Kind != format.KindWorkflow) {
		return Found{}, false
	}
	f := Found{Name: m.Name, Path: p, Description: m.Description}
	if f.Name == "" && p != "" {
		f.Name = path.Base(p)
	}
	return f, f.Name != ""
}

// packageFolderAt reads the package in folder p: a skill (skillAt), or a
// command or workflow package (packageAt).
func packageFolderAt(fsys fs.FS, p string) (Found, bool) {
	if f, ok := skillAt(fsys, p); ok {
		return f, true
	}
	return packageAt(fsys, p)
}
