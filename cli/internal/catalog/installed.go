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
	"sync/atomic"
	"time"

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
	// Cache, when not nil, answers for the skills whose files are unchanged
	// since it last saw them, with one lstat per file instead of an open
	// and a read, and learns what this scan reads.
	Cache *MetaCache
}

// InstalledSource returns the source name of installed skills of a scope.
func InstalledSource(scope string) string { return "installed:" + scope }

// scanRoot is a root as one scan sees it.
type scanRoot struct {
	Root
	source   string
	rc       *rootCache // the cache's record of it, or nil
	fd       int        // the open folder, for the cache's lookups, or -1
	dir      fileID     // its identity when opened
	listed   bool       // its listing came from rc
	from, to int        // its jobs
}

// scanJob is one folder or link of a root to list.
type scanJob struct {
	root int32 // index in the scan's roots
	link bool
	name string
}

// ScanInstalled lists the skills in the roots: every folder that is not
// hidden, with the description and version of its SKILL.md front matter,
// read up to MaxMetadataBytes, and — when the front matter has no version,
// as in agents' projections, and opts.Manifest is set — the version and
// keywords of its skill.yaml. Nothing is written (a Cache learns in
// memory; its Save writes) and no symbolic link is followed: a linked
// folder is listed with a Problem and no metadata. A name seen in
// several roots of one scope is listed once, with the readers of every
// root. Results are sorted by scope (project first), then name. A root
// that does not exist is skipped; only ctx's error is returned.
func ScanInstalled(ctx context.Context, roots []Root, opts ScanOptions) ([]Skill, error) {
	start := time.Now()
	var cached map[string]*rootCache
	if opts.Cache != nil {
		cached = opts.Cache.snapshot()
	}
	sroots := make([]scanRoot, len(roots))
	var jobs []scanJob
	for ri, r := range roots {
		sr := &sroots[ri]
		*sr = scanRoot{Root: r, source: InstalledSource(r.Scope), fd: -1, from: len(jobs), to: len(jobs)}
		if opts.Cache != nil {
			if fd, dir, err := openRoot(r.Path); err == nil {
				defer closeRoot(fd)
				sr.fd, sr.dir, sr.rc = fd, dir, cached[r.Path]
			}
		}
		if sr.rc != nil && sr.rc.dir.known() && sr.rc.dir == sr.dir {
			// The folder is unchanged since it was listed: so is the listing.
			sr.listed = true
			jobs = slices.Grow(jobs, len(sr.rc.ents))
			for _, e := range sr.rc.ents {
				jobs = append(jobs, scanJob{int32(ri), e.link, e.name})
			}
		} else if ents, err := os.ReadDir(r.Path); err == nil {
			jobs = slices.Grow(jobs, len(ents))
			for _, e := range ents {
				n := e.Name()
				if strings.HasPrefix(n, ".") {
					continue
				}
				switch {
				case e.Type()&fs.ModeSymlink != 0:
					jobs = append(jobs, scanJob{int32(ri), true, n})
				case e.IsDir():
					jobs = append(jobs, scanJob{int32(ri), false, n})
				}
			}
		}
		sr.to = len(jobs)
	}
	out := make([]Skill, len(jobs))
	// Per job, what the cache should keep: a hit points into the record
	// it came from, a settled fresh read is new.
	var entries []*cacheEntry
	if opts.Cache != nil {
		entries = make([]*cacheEntry, len(jobs))
	}
	scanOne := func(i int, buf []byte) {
		j := jobs[i]
		sr := &sroots[j.root]
		dir := filepath.Join(sr.Path, j.name)
		s := Skill{Name: j.name, Source: sr.source, Dir: dir, Readers: sr.Readers}
		switch {
		case j.link:
			s.Problem = "a symbolic link: not followed"
		case sr.fd >= 0:
			var re *rootEnt
			if sr.listed {
				re = &sr.rc.ents[i-sr.from] // the jobs follow the record
			} else {
				re = sr.rc.find(j.name)
			}
			ent := lookup(re, j.name, sr.fd, opts.Manifest)
			if ent == nil {
				fresh := readMetadata(dir, buf, opts.Manifest)
				ent = &fresh
				if settled(fresh.md, start) && (!fresh.yamlRead || fresh.yamlAbsent || settled(fresh.yaml, start)) {
					entries[i] = ent
				}
			} else {
				entries[i] = ent
			}
			ent.meta.fill(&s)
		default:
			readMetadata(dir, buf, opts.Manifest).meta.fill(&s)
		}
		out[i] = s
	}
	// Workers claim chunks of jobs from a counter: a channel hand-off per
	// job would cost about as much as the lstat a cached job needs.
	const chunk = 32
	workers := min(8*runtime.GOMAXPROCS(0), max(1, len(jobs)/64))
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 4<<10)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(jobs) || ctx.Err() != nil {
					return
				}
				for i := lo; i < min(lo+chunk, len(jobs)); i++ {
					scanOne(i, buf)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Cache != nil {
		scanned := make(map[string]*rootCache, len(roots))
		for _, sr := range sroots {
			if sr.fd < 0 {
				scanned[sr.Path] = nil // not there: forget it
				continue
			}
			scanned[sr.Path] = sr.record(jobs[sr.from:sr.to], entries[sr.from:sr.to], start)
		}
		opts.Cache.update(scanned)
	}
	return mergeInstalled(out), nil
}

// mergeInstalled sorts the skills by scope (project first) and name, and
// folds a name seen in several roots of one scope into its first folder.
func mergeInstalled(in []Skill) []Skill {
	project := InstalledSource("project")
	order := func(a, b Skill) int {
		if a.Source != b.Source {
			if a.Source == project {
				return -1
			}
			if b.Source == project {
				return 1
			}
			return strings.Compare(a.Source, b.Source)
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Dir, b.Dir)
	}
	if !slices.IsSortedFunc(in, order) { // one root's listing already is
		slices.SortStableFunc(in, order)
	}
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

// fill copies the metadata into s.
func (m skillMeta) fill(s *Skill) {
	s.Description, s.Version, s.Keywords, s.Problem = m.description, m.version, m.keywords, m.problem
}

// readMetadata reads the front matter of dir/SKILL.md, into buf (the
// worker's, reused) when it fits, and, when the front matter has no version
// and manifest is set, the version and keywords of dir/skill.yaml. The
// entry returned, for the cache, has a known md identity only when SKILL.md
// was read; its meta is what the scan lists.
func readMetadata(dir string, buf []byte, manifest bool) cacheEntry {
	var m skillMeta
	var ent cacheEntry
	data, id, err := readHead(filepath.Join(dir, "SKILL.md"), buf)
	if err != nil {
		m.problem = "no readable SKILL.md: " + err.Error()
		ent.meta = m
		return ent
	}
	ent.md = id
	fm, err := format.SplitFrontMatter(data)
	var meta frontMatter
	switch {
	case err != nil:
		m.problem = "SKILL.md front matter: " + firstLine(err.Error())
	case !fm.Present:
		m.problem = "SKILL.md has no front matter"
	default:
		if meta, err = parseFrontMatter(fm.Data); err != nil {
			m.problem = "SKILL.md front matter: " + firstLine(err.Error())
		}
	}
	m.description, m.version = oneLine(meta.Description), meta.Version
	if m.version == "" && manifest {
		// Agents' projections of SKILL.md drop the version; the installed
		// skill.yaml keeps it, with the keywords.
		ent.yamlRead = true
		data, id, err := readHead(filepath.Join(dir, format.ManifestFile), buf)
		switch {
		case err == nil:
			mf := parseManifest(data)
			m.version, m.keywords, ent.yaml = mf.Version, mf.Keywords, id
		case errors.Is(err, fs.ErrNotExist):
			ent.yamlAbsent = true
		default:
			ent.md = fileID{} // unreadable for another reason: do not cache
		}
	}
	ent.meta = m
	return ent
}

// readHead reads the start of a regular file into buf, or up to
// MaxMetadataBytes into a new buffer when the front matter is not closed
// within buf. It never follows a symbolic link.
func readHead(p string, buf []byte) ([]byte, fileID, error) {
	n, more, id, err := readSmall(p, buf)
	if err != nil {
		return nil, id, err
	}
	if !more {
		return buf[:n], id, nil
	}
	if _, serr := format.SplitFrontMatter(buf[:n]); serr == nil {
		return buf[:n], id, nil
	}
	big := make([]byte, MaxMetadataBytes)
	n, _, id, err = readSmall(p, big)
	return big[:n], id, err
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
