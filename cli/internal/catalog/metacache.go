package catalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// fileID is what the metadata cache knows of a file it read: device,
// inode, size, modification and change times, and mode. Writing the file,
// replacing it, or changing its mode changes the change time, which no
// program can set back, so an unchanged identity means unchanged bytes
// (git's index relies on the same). The zero value is unknown.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds since the epoch
	mode         uint32
}

func (id fileID) known() bool { return id.ino != 0 }

// skillMeta is what a scan reads from one installed skill's files.
type skillMeta struct {
	description, version, problem string
	keywords                      []string
}

// cacheEntry is one skill folder's metadata and the identities of the
// files it came from.
type cacheEntry struct {
	md         fileID // SKILL.md
	yamlRead   bool   // skill.yaml was consulted for the version
	yamlAbsent bool   // and there was none
	yaml       fileID
	meta       skillMeta
}

// rootCache is what the cache knows of one root folder: its listing,
// sorted by name, and, when the folder had not changed for racyWindow
// when it was listed, its identity, which vouches for the listing (adding,
// removing or renaming an entry changes a folder's modification time).
type rootCache struct {
	dir  fileID // unknown when the listing must be read again
	ents []rootEnt
}

// rootEnt is one listed entry: a folder or a link, and for a folder whose
// files were settled, their metadata.
type rootEnt struct {
	name   string
	link   bool
	cached bool
	e      cacheEntry
}

// find returns the entry named name, or nil.
func (rc *rootCache) find(name string) *rootEnt {
	if rc == nil {
		return nil
	}
	i := sort.Search(len(rc.ents), func(i int) bool { return rc.ents[i].name >= name })
	if i == len(rc.ents) || rc.ents[i].name != name {
		return nil
	}
	return &rc.ents[i]
}

// MetaCache remembers what ScanInstalled read, so that a later scan reads
// only the skills whose files changed: it checks each file with one lstat
// instead of opening and reading it, and a root folder whose identity is
// unchanged is not listed again. A file or folder changed less than
// racyWindow before the scan is not remembered, since a change within the
// file system's time-stamp granularity could go unseen. A MetaCache is
// safe for concurrent scans. See LoadMetaCache and Save.
type MetaCache struct {
	mu    sync.Mutex
	roots map[string]*rootCache // by root path; replaced, never modified in place
	gen   int                   // counts replacements
	saved int                   // the generation on disk
}

// racyWindow is how recent a change must be for its file not to be
// cached; tests shorten it.
var racyWindow = 2 * time.Second

// Limits on a cache file, which is read before anything else is known.
const (
	maxCacheBytes   = 64 << 20
	maxCacheEntries = 100_000
	maxCacheString  = 1 << 20
	cacheMagic      = "agent-skills installed-metadata cache 2\n"
)

// NewMetaCache returns an empty cache.
func NewMetaCache() *MetaCache { return &MetaCache{roots: map[string]*rootCache{}} }

// LoadMetaCache reads the cache file at path. A cache is only an
// accelerator: a missing, unreadable, oversized or corrupt file gives an
// empty cache, never an error.
func LoadMetaCache(path string) *MetaCache {
	c := NewMetaCache()
	f, err := os.Open(path)
	if err != nil {
		return c
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCacheBytes {
		return c
	}
	// Read into a string: the entries' strings are its substrings, so the
	// file is held once in memory and decoding copies no string.
	var sb strings.Builder
	sb.Grow(int(fi.Size()))
	if n, err := io.Copy(&sb, io.LimitReader(f, fi.Size())); err != nil || n != fi.Size() {
		return c
	}
	if roots, err := decodeMetaCache(sb.String()); err == nil {
		c.roots = roots
	}
	return c
}

// Save writes the cache to path atomically when a scan changed it, creating
// the folder. An unchanged cache writes nothing.
func (c *MetaCache) Save(path string) error {
	c.mu.Lock()
	roots, gen, saved := c.roots, c.gen, c.saved
	c.mu.Unlock()
	if gen == saved {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, encodeMetaCache(roots), 0o644); err != nil {
		return err
	}
	c.mu.Lock()
	c.saved = max(c.saved, gen)
	c.mu.Unlock()
	return nil
}

// Len returns the number of skill folders whose metadata is remembered.
func (c *MetaCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, rc := range c.roots {
		for _, e := range rc.ents {
			if e.cached {
				n++
			}
		}
	}
	return n
}

// snapshot returns the current roots for a scan to read without a lock.
func (c *MetaCache) snapshot() map[string]*rootCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.roots
}

// lookup returns the metadata remembered in re for the folder name of a
// root when its files are the ones read then, as a pointer into re. rootFD is the root folder, opened
// by openRoot. A skill whose version came from neither file is a miss when
// this scan wants the manifest and the earlier one did not read it.
func lookup(re *rootEnt, name string, rootFD int, manifest bool) *cacheEntry {
	if re == nil || !re.cached || re.link {
		return nil
	}
	ent := &re.e
	if id, absent, err := lstatAt(rootFD, name+"/SKILL.md"); err != nil || absent || id != ent.md {
		return nil
	}
	if ent.yamlRead {
		id, absent, err := lstatAt(rootFD, name+"/skill.yaml")
		if err != nil || absent != ent.yamlAbsent || (!absent && id != ent.yaml) {
			return nil
		}
	} else if manifest && ent.meta.version == "" {
		return nil
	}
	return ent
}

// record returns the cache's new record of the root after a scan: the
// jobs listed in it and, per job, the entry to keep (nil for none). When
// nothing changed it is the old record itself.
func (sr *scanRoot) record(jobs []scanJob, entries []*cacheEntry, start time.Time) *rootCache {
	if sr.listed && sr.rc != nil && len(sr.rc.ents) == len(jobs) {
		same := true
		for k := range jobs {
			old := &sr.rc.ents[k]
			if old.cached && entries[k] != &old.e || !old.cached && entries[k] != nil {
				same = false
				break
			}
		}
		if same {
			return sr.rc
		}
	}
	rc := &rootCache{ents: make([]rootEnt, len(jobs))}
	if settled(sr.dir, start) {
		rc.dir = sr.dir
	}
	for k, j := range jobs {
		re := &rc.ents[k]
		re.name, re.link = j.name, j.link
		if entries[k] != nil {
			re.cached, re.e = true, *entries[k]
		}
	}
	return rc
}

// settled reports whether id was last changed long enough before start to
// be cached.
func settled(id fileID, start time.Time) bool {
	limit := start.Add(-racyWindow).UnixNano()
	return id.known() && id.mtime < limit && id.ctime < limit
}

// update records one scan: scanned maps every root path scanned to what
// the scan found there, nil for a root that is not there. Other roots are
// kept, so that scans from different projects share the global ones.
func (c *MetaCache) update(scanned map[string]*rootCache) {
	c.mu.Lock()
	defer c.mu.Unlock()
	changed := false
	for p, rc := range scanned {
		if !sameRoot(c.roots[p], rc) {
			changed = true
			break
		}
	}
	if !changed {
		return
	}
	next := make(map[string]*rootCache, len(c.roots)+len(scanned))
	total := 0
	for p, rc := range scanned {
		if rc != nil {
			next[p] = rc
			total += len(rc.ents)
		}
	}
	// Keep other roots while the total stays within the limit.
	for _, p := range slices.Sorted(maps.Keys(c.roots)) {
		if _, ok := scanned[p]; !ok && total+len(c.roots[p].ents) <= maxCacheEntries {
			next[p] = c.roots[p]
			total += len(c.roots[p].ents)
		}
	}
	c.roots = next
	c.gen++
}

// sameRoot reports whether two records of a root say the same.
func sameRoot(a, b *rootCache) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.dir != b.dir || len(a.ents) != len(b.ents) {
		return false
	}
	for i := range a.ents {
		x, y := &a.ents[i], &b.ents[i]
		if x.name != y.name || x.link != y.link || x.cached != y.cached || (x.cached && !sameEntry(x.e, y.e)) {
			return false
		}
	}
	return true
}

func sameEntry(a, b cacheEntry) bool {
	return a.md == b.md && a.yamlRead == b.yamlRead && a.yamlAbsent == b.yamlAbsent && a.yaml == b.yaml &&
		a.meta.description == b.meta.description && a.meta.version == b.meta.version &&
		a.meta.problem == b.meta.problem && slices.Equal(a.meta.keywords, b.meta.keywords)
}

// The cache file is the magic line, the number of roots, and per root its
// path, its folder identity and its entries, in name order: name, a flags
// byte, and for a cached folder the identities and the metadata. Integers
// are unsigned varints, strings a length and bytes.

const (
	flagLink = 1 << iota
	flagCached
	flagYAMLRead
	flagYAMLAbsent
	flagsAll = flagLink | flagCached | flagYAMLRead | flagYAMLAbsent
)

func encodeMetaCache(roots map[string]*rootCache) []byte {
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	w := func(u uint64) { b.Write(binary.AppendUvarint(b.AvailableBuffer(), u)) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	id := func(f fileID) {
		w(f.dev)
		w(f.ino)
		w(uint64(f.size))
		w(uint64(f.mtime))
		w(uint64(f.ctime))
		w(uint64(f.mode))
	}
	w(uint64(len(roots)))
	for _, p := range slices.Sorted(maps.Keys(roots)) {
		rc := roots[p]
		str(p)
		id(rc.dir)
		w(uint64(len(rc.ents)))
		for _, re := range rc.ents {
			str(re.name)
			var flags byte
			if re.link {
				flags |= flagLink
			}
			if re.cached {
				flags |= flagCached
				if re.e.yamlRead {
					flags |= flagYAMLRead
				}
				if re.e.yamlAbsent {
					flags |= flagYAMLAbsent
				}
			}
			b.WriteByte(flags)
			if !re.cached {
				continue
			}
			e := re.e
			id(e.md)
			if e.yamlRead && !e.yamlAbsent {
				id(e.yaml)
			}
			str(e.meta.description)
			str(e.meta.version)
			str(e.meta.problem)
			w(uint64(len(e.meta.keywords)))
			for _, kw := range e.meta.keywords {
				str(kw)
			}
		}
	}
	return b.Bytes()
}

var errBadCache = errors.New("corrupt metadata cache")

// cacheReader decodes the cache file; the first error sticks.
type cacheReader struct {
	data string
	err  error
}

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	var u uint64
	for i := 0; i < len(r.data) && i < binary.MaxVarintLen64; i++ {
		b := r.data[i]
		if i == binary.MaxVarintLen64-1 && b > 1 {
			break // overflows 64 bits
		}
		u |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			r.data = r.data[i+1:]
			return u
		}
	}
	r.err = errBadCache
	return 0
}

func (r *cacheReader) str() string {
	n := r.uvarint()
	if r.err != nil || n > maxCacheString || n > uint64(len(r.data)) {
		r.err = errBadCache
		return ""
	}
	s := r.data[:n]
	r.data = r.data[n:]
	return s
}

func (r *cacheReader) byte() byte {
	if r.err != nil || len(r.data) == 0 {
		r.err = errBadCache
		return 0
	}
	c := r.data[0]
	r.data = r.data[1:]
	return c
}

func (r *cacheReader) id() fileID {
	return fileID{
		dev:   r.uvarint(),
		ino:   r.uvarint(),
		size:  int64(r.uvarint()),
		mtime: int64(r.uvarint()),
		ctime: int64(r.uvarint()),
		mode:  uint32(r.uvarint()),
	}
}

// decodeMetaCache parses a cache file, refusing anything malformed,
// truncated, unsorted, over the limits or followed by extra bytes.
func decodeMetaCache(data string) (map[string]*rootCache, error) {
	if !strings.HasPrefix(data, cacheMagic) {
		return nil, errBadCache
	}
	r := &cacheReader{data: data[len(cacheMagic):]}
	// Every root and every entry takes at least two bytes, which bounds
	// the counts by the size before anything is allocated.
	nroots := r.uvarint()
	if r.err != nil || nroots > uint64(len(r.data))/2 {
		return nil, errBadCache
	}
	roots := make(map[string]*rootCache, nroots)
	total := uint64(0)
	for range nroots {
		p := r.str()
		rc := &rootCache{dir: r.id()}
		n := r.uvarint()
		total += n
		if r.err != nil || total > maxCacheEntries || n > uint64(len(r.data))/2 {
			return nil, errBadCache
		}
		if _, dup := roots[p]; dup {
			return nil, errBadCache
		}
		rc.ents = make([]rootEnt, n)
		for i := range rc.ents {
			re := &rc.ents[i]
			re.name = r.str()
			flags := r.byte()
			if r.err != nil || flags&^flagsAll != 0 || re.name == "" || (i > 0 && re.name <= rc.ents[i-1].name) {
				return nil, errBadCache
			}
			re.link, re.cached = flags&flagLink != 0, flags&flagCached != 0
			e := &re.e
			e.yamlRead, e.yamlAbsent = flags&flagYAMLRead != 0, flags&flagYAMLAbsent != 0
			if !re.cached {
				if flags != flags&flagLink {
					return nil, errBadCache
				}
				continue
			}
			if re.link || (e.yamlAbsent && !e.yamlRead) {
				return nil, errBadCache
			}
			e.md = r.id()
			if e.yamlRead && !e.yamlAbsent {
				e.yaml = r.id()
			}
			e.meta.description = r.str()
			e.meta.version = r.str()
			e.meta.problem = r.str()
			nk := r.uvarint()
			if r.err != nil || nk > uint64(len(r.data)) {
				return nil, errBadCache
			}
			if nk > 0 {
				e.meta.keywords = make([]string, nk)
				for k := range e.meta.keywords {
					e.meta.keywords[k] = r.str()
				}
			}
			if r.err != nil || !e.md.known() {
				return nil, errBadCache
			}
		}
		roots[p] = rc
	}
	if r.err != nil || len(r.data) != 0 {
		return nil, errBadCache
	}
	return roots, nil
}
