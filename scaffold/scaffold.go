package scaffold

import (
	"bytes"
	"io/fs"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// FileMode is the permission every generated file gets: readable by all,
// writable by the owner. Nothing generated is executable.
const FileMode fs.FileMode = 0o644

// File is one generated file: where it goes inside the package folder, what
// it contains and its permission bits.
type File struct {
	// Path is slash-separated and relative to the package folder.
	Path string
	// Data is the file's content.
	Data []byte
	// Mode holds the permission bits to create the file with.
	Mode fs.FileMode
}

func newFile(path string, data []byte) File {
	return File{Path: path, Data: data, Mode: FileMode}
}

// New generates a complete package of the kind opts asks for and returns its
// files sorted by path. Nothing is written: the caller decides where and how
// (the CLI writes them atomically into a new folder named opts.Name).
//
// The result is a good package, not a placeholder: it passes strict
// validation, and its entrypoint teaches the author what belongs in each
// section. A skill gets skill.yaml, SKILL.md and references/REFERENCE.md; a
// command gets skill.yaml and COMMAND.md (a Claude Code command using
// $ARGUMENTS); a workflow gets skill.yaml and WORKFLOW.js with a static
// `export const meta` literal.
//
// Errors are *Error values: ASK_NAME_INVALID for a bad name,
// ASK_VERSION_INVALID and ASK_LICENSE_INVALID for a bad version or licence,
// and ASK_USAGE for an unknown kind or an unusable description or author.
func New(opts Options) ([]File, error) {
	s, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	var files []File
	switch s.kind {
	case format.KindCommand:
		files, err = commandFiles(s)
	case format.KindWorkflow:
		files, err = workflowFiles(s)
	default:
		files, err = skillFiles(s)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// manifest returns the manifest fields every kind shares.
func (s settings) manifest() manifest {
	m := manifest{
		name:        s.name,
		version:     s.version,
		description: s.description,
		license:     s.license,
		keywords:    keywordsFromName(s.name),
	}
	if s.author != nil {
		m.authors = []author{*s.author}
	}
	return m
}

// frontMatter renders ordered key/value pairs as a YAML front matter block,
// delimiters included.
func frontMatter(pairs ...[2]string) ([]byte, error) {
	doc := newYAMLMap()
	for _, p := range pairs {
		doc.set(p[0], yamlText(p[1]), "")
	}
	data, err := doc.encode(false)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(data)
	b.WriteString("---\n")
	return b.Bytes(), nil
}
