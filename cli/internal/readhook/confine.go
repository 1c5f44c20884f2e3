package readhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotSkill says the file read is not a countable file of an installed
// skill: outside every skill folder, reached through a link out of its
// skill or root, not a regular file, not Markdown, or (Codex) not the
// entrypoint's current bytes.
var ErrNotSkill = errors.New("not a file of an installed skill")

// MaxFile bounds the bytes Confine reads to digest a file.
const MaxFile = 16 << 20

// InstalledSkill is one installed skill as the scan of the agents' skill
// folders found it.
type InstalledSkill struct {
	// Name is the skill's name.
	Name string
	// Scope is "project" or "global".
	Scope string
	// Project is the absolute project root for the project scope, "" for
	// the global one.
	Project string
	// Root is the agents' skill folder it is in (e.g. <project>/.claude/skills).
	Root string
	// Dir is the skill's folder, directly inside Root.
	Dir string
	// Version is the skill's version, "" when it has none.
	Version string
}

// Observation is a read confined to an installed skill.
type Observation struct {
	// Skill is the skill whose file was read.
	Skill InstalledSkill
	// File is the slash path of the file relative to the skill's folder.
	File string
	// Kind is "entrypoint" for SKILL.md, else "reference".
	Kind string
	// Digest is "sha256:<hex>" of the file's current bytes.
	Digest string
}

func notSkill(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrNotSkill, fmt.Sprintf(format, a...))
}

// within reports whether p is dir or inside it; both must be clean and
// absolute.
func within(p, dir string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// Confine checks that c's path resolves (every link followed) to a regular
// file inside the folder of one of skills, that the skill's folder itself
// resolves to a folder inside its root (no link out of the root) and that
// the file is SKILL.md or another Markdown file; then digests the file's
// current bytes. For Codex the command's output must equal those bytes
// (or the lines it printed) and only SKILL.md counts. Every refusal is
// ErrNotSkill (wrapped); an I/O error reading a confined file is returned
// as is.
func Confine(c Candidate, skills []InstalledSkill) (Observation, error) {
	real, err := filepath.EvalSymlinks(c.Path)
	if err != nil {
		return Observation{}, notSkill("%s does not resolve", c.Path)
	}
	var best *InstalledSkill
	var bestDir, bestRel string
	bestLexical := false
	for i := range skills {
		s := &skills[i]
		if s.Root == "" || s.Dir == "" || filepath.Dir(filepath.Clean(s.Dir)) != filepath.Clean(s.Root) {
			continue
		}
		root, err := filepath.EvalSymlinks(s.Root)
		if err != nil {
			continue
		}
		dir, err := filepath.EvalSymlinks(s.Dir)
		if err != nil {
			continue
		}
		if rel, ok := within(dir, root); !ok || rel == "." {
			continue // the skill's folder links out of its root
		}
		rel, ok := within(real, dir)
		if !ok || rel == "." {
			continue
		}
		// Several installed folders can resolve to one (a skill folder that
		// links to a sibling): the one the host named wins, then the
		// deepest.
		_, lexical := within(c.Path, filepath.Clean(s.Dir))
		if best == nil || lexical && !bestLexical || lexical == bestLexical && len(dir) > len(bestDir) {
			best, bestDir, bestRel, bestLexical = s, dir, rel, lexical
		}
	}
	if best == nil {
		return Observation{}, notSkill("%s is in no installed skill's folder", c.Path)
	}
	file := filepath.ToSlash(bestRel)
	kind := "reference"
	switch {
	case file == "SKILL.md":
		kind = "entrypoint"
	case !strings.EqualFold(filepath.Ext(file), ".md"):
		return Observation{}, notSkill("%s is not Markdown", file)
	}
	if c.Host == "codex" && kind != "entrypoint" {
		return Observation{}, notSkill("a Codex read counts for SKILL.md only")
	}
	data, err := readRegular(real)
	if err != nil {
		return Observation{}, err
	}
	if want := printed(data, c.Lines); c.Host == "codex" && (len(want) == 0 || !bytes.Equal(c.Returned, want)) {
		return Observation{}, notSkill("the command's output is not the current %s", file)
	}
	sum := sha256.Sum256(data)
	return Observation{Skill: *best, File: file, Kind: kind, Digest: "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// readRegular reads a regular file of at most MaxFile bytes, refusing
// anything else with ErrNotSkill.
func readRegular(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, notSkill("%s cannot be opened", path)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notSkill("%s is not a regular file", path)
	}
	if fi.Size() > MaxFile {
		return nil, notSkill("%s is over %d MiB", path, MaxFile>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, notSkill("%s is over %d MiB", path, MaxFile>>20)
	}
	return data, nil
}

// printed returns what `sed -n 'A,Bp'` prints of data (lines A..B with
// their line ends), or data itself for a zero range.
func printed(data []byte, lines [2]int) []byte {
	if lines == [2]int{} {
		return data
	}
	start, n := -1, 0
	for i := 0; i < len(data); {
		n++
		j := bytes.IndexByte(data[i:], '\n')
		end := len(data)
		if j >= 0 {
			end = i + j + 1
		}
		if n == lines[0] {
			start = i
		}
		if n == lines[1] {
			return data[start:end]
		}
		i = end
	}
	if start < 0 {
		return []byte{}
	}
	return data[start:]
}
