package catalog

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/format"
)

// MaxMetadataBytes bounds how much of an installed SKILL.md ScanInstalled
// reads: front matter beyond it is reported, not read.
const MaxMetadataBytes int64 = 64 << 10

// Root is one folder that agents read installed skills from.
type Root struct {
	// Path is the absolute folder.
	Path string
	// Scope is "project" or "global".
	Scope string
	// Readers are the ids of the agents that read the folder.
	Readers []string
}

// Skill is one skill a query can return: installed in an agent folder or
// published in a registry.
type Skill struct {
	// Name is the skill's name.
	Name string `json:"name"`
	// Description is its description, folded to one line.
	Description string `json:"description"`
	// Version is its version; empty when unknown.
	Version string `json:"version,omitempty"`
	// Keywords are its search terms.
	Keywords []string `json:"keywords,omitempty"`
	// Source says where it comes from: "installed:project",
	// "installed:global" or a registry's name.
	Source string `json:"source"`
	// Dir is the installed folder; empty for a registry skill.
	Dir string `json:"dir,omitempty"`
	// Readers are the agents that see an installed skill.
	Readers []string `json:"readers,omitempty"`
	// Problem says why the metadata could not be read (a symbolic link,
	// no SKILL.md, broken front matter); the skill is still listed.
	Problem string `json:"problem,omitempty"`
}

// ScanOptions tune ScanInstalled.
type ScanOptions struct {
	// Manifest reads skill.yaml, for the version and keywords, when the
	// SKILL.md front matter has no version. A search wants them; a
	// session-start overview, which lists names and descriptions, does not.
	Manifest bool
}

// InstalledSource returns the source name of installed skills of a scope.
func InstalledSource(scope string) string { return "installed:" + scope }

// ScanInstalled lists the skills in the roots: every folder that is not
// hidden, with the description and version of its SKILL.md front matter,
// read up to MaxMetadataBytes, and — when the front matter has no version,
// as in agents' projections, and opts.Manifest is set — the version and
// keywords of its skill.yaml. Nothing is written and no symbolic link is followed: a
// linked folder is listed with a Problem and no metadata. A name seen in
// several roots of one scope is listed once, with the readers of every
// root. Results are sorted by scope (project first), then name. A root
// that does not exist is skipped; only ctx's error is returned.
func ScanInstalled(ctx context.Context, roots []Root, opts ScanOptions) ([]Skill, error) {
	type job struct {
		root Root
		name string
		link bool
	}
	var jobs []job
	for _, r := range roots {
		ents, err := os.ReadDir(r.Path)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if strings.HasPrefix(n, ".") {
				continue
			}
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				jobs = append(jobs, job{r, n, true})
			case e.IsDir():
				jobs = append(jobs, job{r, n, false})
			}
		}
	}
	out := make([]Skill, len(jobs))
	workers := min(8*runtime.GOMAXPROCS(0), max(1, len(jobs)/64))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 4<<10)
			for i := range next {
				j := jobs[i]
				dir := filepath.Join(j.root.Path, j.name)
				s := Skill{Name: j.name, Source: InstalledSource(j.root.Scope), Dir: dir, Readers: j.root.Readers}
				if j.link {
					s.Problem = "a symbolic link: not followed"
				} else {
					readMetadata(dir, &s, buf, opts.Manifest)
				}
				out[i] = s
			}
		}()
	}
	var err error
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return mergeInstalled(out), nil
}

// mergeInstalled sorts the skills by scope (project first) and name, and
// folds a name seen in several roots of one scope into its first folder.
func mergeInstalled(in []Skill) []Skill {
	slices.SortStableFunc(in, func(a, b Skill) int {
		if a.Source != b.Source {
			if a.Source == InstalledSource("project") {
				return -1
			}
			if b.Source == InstalledSource("project") {
				return 1
			}
			return strings.Compare(a.Source, b.Source)
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Dir, b.Dir)
	})
	out := in[:0]
	for _, s := range in {
		if n := len(out); n > 0 && out[n-1].Source == s.Source && out[n-1].Name == s.Name {
			last := &out[n-1]
			rd := slices.Clone(last.Readers)
			for _, r := range s.Readers {
				if !slices.Contains(rd, r) {
					rd = append(rd, r)
				}
			}
			slices.Sort(rd)
			last.Readers = rd
			continue
		}
		out = append(out, s)
	}
	return out
}

// frontMatter holds the SKILL.md keys a listing needs.
type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Version     string `yaml:"version"`
}

// readMetadata fills s from the front matter of dir/SKILL.md, reading into
// buf (the worker's, reused) when the front matter fits.
func readMetadata(dir string, s *Skill, buf []byte, manifest bool) {
	data, err := readHead(filepath.Join(dir, "SKILL.md"), buf)
	if err != nil {
		s.Problem = "no readable SKILL.md: " + err.Error()
		return
	}
	fm, err := format.SplitFrontMatter(data)
	var meta frontMatter
	switch {
	case err != nil:
		s.Problem = "SKILL.md front matter: " + firstLine(err.Error())
	case !fm.Present:
		s.Problem = "SKILL.md has no front matter"
	default:
		if meta, err = parseFrontMatter(fm.Data); err != nil {
			s.Problem = "SKILL.md front matter: " + firstLine(err.Error())
		}
	}
	s.Description, s.Version = oneLine(meta.Description), meta.Version
	if s.Version != "" || !manifest {
		return
	}
	// Agents' projections of SKILL.md drop the version; the installed
	// skill.yaml keeps it, with the keywords.
	if data, err := readHead(filepath.Join(dir, format.ManifestFile), buf); err == nil {
		m := parseManifest(data)
		s.Version, s.Keywords = m.Version, m.Keywords
	}
}

// readHead reads the start of a regular file into buf, or up to
// MaxMetadataBytes into a new buffer when the front matter is not closed
// within buf. It never follows a symbolic link.
func readHead(p string, buf []byte) ([]byte, error) {
	n, more, err := readSmall(p, buf)
	if err != nil {
		return nil, err
	}
	if !more {
		return buf[:n], nil
	}
	if _, serr := format.SplitFrontMatter(buf[:n]); serr == nil {
		return buf[:n], nil
	}
	big := make([]byte, MaxMetadataBytes)
	n, _, err = readSmall(p, big)
	return big[:n], err
}

// oneLine folds white-space runs, new lines included, into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstLine returns the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// openSame opens p and checks that the file opened is the one Lstat saw, so
// that a symbolic link swapped in between is never followed.
func openSame(p string, lst fs.FileInfo) (*os.File, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || !os.SameFile(fi, lst) {
		f.Close()
		return nil, errors.New(filepath.Base(p) + " changed while it was opened")
	}
	return f, nil
}
