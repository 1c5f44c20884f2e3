package catalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
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

// cacheKey names a skill folder: a root and a folder name in it.
type cacheKey struct{ root, name string }

// MetaCache remembers the metadata ScanInstalled read, so that a later scan
// reads only the skills whose files changed: it checks each file with one
// lstat instead of opening and reading it. A file changed less than
// racyWindow before it was read is not remembered, since a change within
// the file system's time-stamp granularity could go unseen. A MetaCache is
// safe for concurrent scans. See LoadMetaCache and Save.
type MetaCache struct {
	mu      sync.Mutex
	entries map[cacheKey]cacheEntry // replaced, never modified in place
	gen     int                     // counts replacements
	saved   int                     // the generation on disk
}

// racyWindow is how recent a change must be for its file not to be
// cached; tests shorten it.
var racyWindow = 2 * time.Second

// Limits on a cache file, which is read before anything else is known.
const (
	maxCacheBytes   = 64 << 20
	maxCacheEntries = 100_000
	maxCacheString  = 1 << 20
	cacheMagic      = "agent-skills installed-metadata cache 1\n"
)

// NewMetaCache returns an empty cache.
func NewMetaCache() *MetaCache { return &MetaCache{entries: map[cacheKey]cacheEntry{}} }

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
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return c
	}
	if entries, err := decodeMetaCache(data); err == nil {
		c.entries = entries
	}
	return c
}

// Save writes the cache to path atomically when a scan changed it, creating
// the folder. An unchanged cache writes nothing.
func (c *MetaCache) Save(path string) error {
	c.mu.Lock()
	entries, gen, saved := c.entries, c.gen, c.saved
	c.mu.Unlock()
	if gen == saved {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, encodeMetaCache(entries), 0o644); err != nil {
		return err
	}
	c.mu.Lock()
	c.saved = max(c.saved, gen)
	c.mu.Unlock()
	return nil
}

// Len returns the number of skill folders remembered.
func (c *MetaCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// snapshot returns the current entries for a scan to read without a lock.
func (c *MetaCache) snapshot() map[cacheKey]cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries
}

// lookup returns the metadata remembered for dir when its files are the
// ones read then. A skill whose version came from neither file is a miss
// when this scan wants the manifest and the earlier one did not read it.
// rootFD is the root folder, opened by openRoot.
func lookup(entries map[cacheKey]cacheEntry, k cacheKey, rootFD int, manifest bool) (skillMeta, bool) {
	ent, ok := entries[k]
	if !ok {
		return skillMeta{}, false
	}
	if id, absent, err := lstatAt(rootFD, k.name+"/SKILL.md"); err != nil || absent || id != ent.md {
		return skillMeta{}, false
	}
	if ent.yamlRead {
		id, absent, err := lstatAt(rootFD, k.name+"/skill.yaml")
		if err != nil || absent != ent.yamlAbsent || (!absent && id != ent.yaml) {
			return skillMeta{}, false
		}
	} else if manifest && ent.meta.version == "" {
		return skillMeta{}, false
	}
	return ent.meta, true
}

// settled reports whether id was last changed long enough before start to
// be cached.
func settled(id fileID, start time.Time) bool {
	limit := start.Add(-racyWindow).UnixNano()
	return id.known() && id.mtime < limit && id.ctime < limit
}

// update records one scan of roots: fresh holds the entries read this time
// (the hits are carried over), and every remembered folder of a scanned
// root that the scan did not see is forgotten. Folders of other roots are
// kept, so scans from different projects share the global ones.
func (c *MetaCache) update(scanned map[string]bool, hits []cacheKey, fresh map[cacheKey]cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.entries
	kept := 0
	for k := range old {
		if scanned[k.root] {
			kept++
		}
	}
	if len(fresh) == 0 && kept == len(hits) {
		return // every remembered folder of these roots was found unchanged
	}
	next := make(map[cacheKey]cacheEntry, len(old)+len(fresh))
	for k, e := range old {
		if !scanned[k.root] {
			next[k] = e
		}
	}
	for _, k := range hits {
		next[k] = old[k]
	}
	maps.Copy(next, fresh)
	if len(next) > maxCacheEntries {
		// Keep this scan's folders; forget the others.
		for k := range next {
			if len(next) <= maxCacheEntries {
				break
			}
			if !scanned[k.root] {
				delete(next, k)
			}
		}
	}
	c.entries = next
	c.gen++
}

// The cache file is the magic line, a count, and per entry: the root and
// folder name, a flags byte, the identities, and the metadata. Integers
// are unsigned varints, strings a length and bytes.

const (
	flagYAMLRead = 1 << iota
	flagYAMLAbsent
)

func encodeMetaCache(entries map[cacheKey]cacheEntry) []byte {
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
	w(uint64(len(entries)))
	for k, e := range entries {
		str(k.root)
		str(k.name)
		var flags byte
		if e.yamlRead {
			flags |= flagYAMLRead
		}
		if e.yamlAbsent {
			flags |= flagYAMLAbsent
		}
		b.WriteByte(flags)
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
	return b.Bytes()
}

var errBadCache = errors.New("corrupt metadata cache")

// cacheReader decodes the cache file; the first error sticks. The file is
// converted to one string whose substrings become the entries' strings, so
// decoding allocates no string of its own.
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
// truncated, over the limits or followed by extra bytes.
func decodeMetaCache(data []byte) (map[cacheKey]cacheEntry, error) {
	if !bytes.HasPrefix(data, []byte(cacheMagic)) {
		return nil, errBadCache
	}
	r := &cacheReader{data: string(data[len(cacheMagic):])}
	n := r.uvarint()
	// Each entry takes at least 14 bytes, which bounds the count by the
	// size before anything is allocated.
	if r.err != nil || n > maxCacheEntries || n > uint64(len(r.data))/14 {
		return nil, errBadCache
	}
	entries := make(map[cacheKey]cacheEntry, n)
	for range n {
		k := cacheKey{root: r.str(), name: r.str()}
		var e cacheEntry
		flags := r.byte()
		if flags&^(flagYAMLRead|flagYAMLAbsent) != 0 || (flags&flagYAMLAbsent != 0 && flags&flagYAMLRead == 0) {
			return nil, errBadCache
		}
		e.yamlRead, e.yamlAbsent = flags&flagYAMLRead != 0, flags&flagYAMLAbsent != 0
		e.md = r.id()
		if e.yamlRead && !e.yamlAbsent {
			e.yaml = r.id()
		}
		e.meta.description = r.str()
		e.meta.version = r.str()
		e.meta.problem = r.str()
		nk := r.uvarint()
		if nk > uint64(len(r.data)) {
			return nil, errBadCache
		}
		if nk > 0 {
			e.meta.keywords = make([]string, nk)
			for i := range e.meta.keywords {
				e.meta.keywords[i] = r.str()
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		if _, dup := entries[k]; dup || !e.md.known() {
			return nil, errBadCache
		}
		entries[k] = e
	}
	if r.err != nil || len(r.data) != 0 {
		return nil, errBadCache
	}
	return entries, nil
}
