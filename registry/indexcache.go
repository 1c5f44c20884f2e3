package registry

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The decoded-index cache: a large index (from indexCacheMin bytes) is
// decoded and validated once, then kept under CacheDir/index/ in a compact
// binary form, so that the next process loads it without YAML or JSON
// parsing. There is one entry per source, named after the SHA-256 of the
// source's name (<16 hex digits>.bin); it records the SHA-256 of the
// source bytes it was decoded from and, for an index read from a file,
// that file's identity.
//
// An entry is used when the source file's identity is the one recorded —
// device, inode, size, modification time, change time and mode, the rule
// git's index and the installed-metadata cache (cli/internal/catalog)
// apply — without reading the source at all; otherwise when the SHA-256
// of the source bytes is the one recorded. Writing a file, replacing it
// or changing its mode sets its change time to the present, which no
// unprivileged program can set back, so an unchanged identity means
// unchanged bytes even when a hostile index keeps its size and sets its
// modification time back. A file changed less than indexRacyWindow before
// it was read could change again within the time stamps' granularity, so
// its identity is not recorded and the next read hashes it. An entry that
// does not parse is ignored and rewritten; one that records another
// source's name cannot be found under this one.

// indexCacheMin is the source size from which the cache is used.
const indexCacheMin = 1 << 20

// indexRacyWindow is how long before a read a source file must have last
// changed for its identity to vouch for its bytes.
const indexRacyWindow = 2 * time.Second

// indexCacheMagic starts every cache file; bump the digit when the layout
// changes.
const indexCacheMagic = "ASKIDX4\n"

// fileIdentity is what vouches for a file's bytes without reading them.
// The zero value is unknown: it matches nothing.
type fileIdentity struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds since the epoch
	mode         uint32
}

func (id fileIdentity) known() bool { return id.ino != 0 }

// settled reports whether id was last changed at least racy before start.
func (id fileIdentity) settled(start time.Time, racy time.Duration) bool {
	limit := start.Add(-racy).UnixNano()
	return id.known() && id.mtime < limit && id.ctime < limit
}

// cacheEntry is a parsed cache file: the source identity and digest it
// was made from, and the encoded index.
type cacheEntry struct {
	id      fileIdentity
	sum     [sha256.Size]byte
	payload string
}

// cachePath is the cache file of the source called name.
func cachePath(cacheDir, name string) string {
	h := sha256.Sum256([]byte(name))
	return filepath.Join(cacheDir, "index", hex.EncodeToString(h[:8])+".bin")
}

// loadIndexFile reads the index file at path and decodes it through the
// decoded-index cache in cacheDir ("" disables it); path also names the
// index in messages. A read error is returned as it is, a decode error as
// DecodeIndex returns it. racy is indexRacyWindow except in tests.
func loadIndexFile(path, cacheDir string, racy time.Duration) (*Index, error) {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	lim := DefaultIndexLimits()
	if cacheDir == "" || !fi.Mode().IsRegular() || fi.Size() < indexCacheMin {
		text, _, err := readIndexText(f, fi.Size(), lim.MaxBytes, false)
		if err != nil {
			return nil, err
		}
		return decodeIndexText(text, path, lim)
	}
	id := identityOf(fi)
	cfile := cachePath(cacheDir, path)
	entry, entryOK := readCacheEntry(cfile)
	if entryOK && id.known() && entry.id == id {
		if idx, err := unmarshalIndex(entry.payload); err == nil {
			return idx, nil
		}
		entryOK = false
	}
	text, sum, err := readIndexText(f, fi.Size(), lim.MaxBytes, true)
	if err != nil {
		return nil, err
	}
	if !id.settled(start, racy) {
		id = fileIdentity{}
	}
	if entryOK && entry.sum == sum {
		if idx, err := unmarshalIndex(entry.payload); err == nil {
			if id != entry.id && id.known() {
				// Touched but unchanged: record the new identity.
				_ = writeAtomic(cfile, appendCacheEntry(nil, id, sum, entry.payload))
			}
			return idx, nil
		}
	}
	idx, err := decodeIndexText(text, path, lim)
	if err != nil {
		return nil, err
	}
	writeCacheEntry(cfile, id, sum, idx)
	return idx, nil
}

// readIndexText reads an open index file of the given size into a
// string, and its SHA-256 when sum is set, refusing more than limit
// bytes.
func readIndexText(f *os.File, size int64, limit int, sum bool) (string, [sha256.Size]byte, error) {
	var (
		sb  strings.Builder
		out [sha256.Size]byte
	)
	if size > 0 && size <= int64(limit) {
		sb.Grow(int(size))
	}
	var w io.Writer = &sb
	h := sha256.New()
	if sum {
		w = io.MultiWriter(&sb, h)
	}
	n, err := io.Copy(w, io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "", out, err
	}
	if n > int64(limit) {
		return "", out, fmt.Errorf("%s is larger than %d bytes", f.Name(), limit)
	}
	h.Sum(out[:0])
	return sb.String(), out, nil
}

// decodeIndexCached is DecodeIndex with the decoded-index cache in
// cacheDir ("" disables it), for an index held in memory (an HTTP
// registry's): the entry is found by the digest of data.
func decodeIndexCached(data []byte, file, cacheDir string) (*Index, error) {
	if cacheDir == "" || len(data) < indexCacheMin {
		return DecodeIndex(data, file)
	}
	sum := sha256.Sum256(data)
	cfile := cachePath(cacheDir, file)
	if entry, ok := readCacheEntry(cfile); ok && entry.sum == sum {
		if idx, err := unmarshalIndex(entry.payload); err == nil {
			return idx, nil
		}
	}
	idx, err := DecodeIndex(data, file)
	if err != nil {
		return nil, err
	}
	writeCacheEntry(cfile, fileIdentity{}, sum, idx)
	return idx, nil
}

// writeCacheEntry stores a validated index; a failed write only costs
// speed. It also removes the entries of the first cache layout
// (<name hash>-<content hash>.bin) for the same source.
func writeCacheEntry(cfile string, id fileIdentity, sum [sha256.Size]byte, idx *Index) {
	b := make([]byte, 0, marshalIndexSize(idx)+len(indexCacheMagic)+6*binary.MaxVarintLen64+sha256.Size)
	b = appendCacheEntry(b, id, sum, "")
	if writeAtomic(cfile, appendIndex(b, idx)) == nil {
		old, _ := filepath.Glob(strings.TrimSuffix(cfile, ".bin") + "-*.bin")
		for _, o := range old {
			_ = os.Remove(o)
		}
	}
}

// appendCacheEntry appends the cache file header — magic, identity,
// digest — and payload to b.
func appendCacheEntry(b []byte, id fileIdentity, sum [sha256.Size]byte, payload string) []byte {
	b = append(b, indexCacheMagic...)
	for _, v := range []uint64{id.dev, id.ino, uint64(id.size), uint64(id.mtime), uint64(id.ctime), uint64(id.mode)} {
		b = binary.AppendUvarint(b, v)
	}
	b = append(b, sum[:]...)
	return append(b, payload...)
}

// readCacheEntry reads and parses the cache file cfile; ok is false when
// there is none or its header is damaged.
func readCacheEntry(cfile string) (e cacheEntry, ok bool) {
	f, err := os.Open(cfile)
	if err != nil {
		return e, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > int64(DefaultIndexLimits().MaxBytes) {
		return e, false
	}
	// Read into a string: the index's strings are its substrings, so the
	// file is held once in memory and decoding copies no string.
	var sb strings.Builder
	sb.Grow(int(fi.Size()))
	if n, err := io.Copy(&sb, io.LimitReader(f, fi.Size())); err != nil || n != fi.Size() {
		return e, false
	}
	return parseCacheEntry(sb.String())
}

// parseCacheEntry splits a cache file into its header and payload.
func parseCacheEntry(raw string) (e cacheEntry, ok bool) {
	if !strings.HasPrefix(raw, indexCacheMagic) {
		return e, false
	}
	r := &cacheReader{s: raw, off: len(indexCacheMagic)}
	const any64 = math.MaxUint64
	e.id.dev, e.id.ino = r.uvarint(any64), r.uvarint(any64)
	e.id.size, e.id.mtime, e.id.ctime = int64(r.uvarint(any64)), int64(r.uvarint(any64)), int64(r.uvarint(any64))
	e.id.mode = uint32(r.uvarint(math.MaxUint32))
	if r.err != nil || len(raw)-r.off < sha256.Size {
		return e, false
	}
	copy(e.sum[:], raw[r.off:])
	e.payload = raw[r.off+sha256.Size:]
	return e, true
}

// marshalIndex encodes a validated index in the cache payload layout.
func marshalIndex(x *Index) []byte {
	return appendIndex(make([]byte, 0, marshalIndexSize(x)), x)
}

// appendIndex appends the payload layout of x to b: uvarint counts and
// uvarint-length-prefixed strings in a fixed order. The skill, version
// and keyword totals come first so that a reader allocates each kind of
// object once.
func appendIndex(b []byte, x *Index) []byte {
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	nv, nk := indexTotals(x)
	num(x.SchemaVersion)
	str(x.Name)
	str(x.UpdatedAt)
	num(len(x.Skills))
	num(nv)
	num(nk)
	for _, s := range x.Skills {
		str(s.Name)
		str(s.Description)
		str(s.Latest)
		num(len(s.Keywords))
		for _, k := range s.Keywords {
			str(k)
		}
		num(len(s.Versions))
		for _, v := range s.Versions {
			str(v.Version)
			str(v.Path)
			str(v.Tarball)
			str(v.Manifest)
			str(v.Integrity)
			str(v.PublishedAt)
			str(v.DeprecationReason)
			if v.Deprecated {
				num(1)
			} else {
				num(0)
			}
			num(len(v.Signatures))
			for _, sig := range v.Signatures {
				str(sig)
			}
		}
	}
	return b
}

// indexTotals counts the versions and keywords of x.
func indexTotals(x *Index) (versions, keywords int) {
	for _, s := range x.Skills {
		versions += len(s.Versions)
		keywords += len(s.Keywords)
	}
	return versions, keywords
}

// marshalIndexSize is an upper bound of the payload size of x.
func marshalIndexSize(x *Index) int {
	const v = binary.MaxVarintLen64
	n := 6*v + len(x.Name) + len(x.UpdatedAt)
	for _, s := range x.Skills {
		n += 5*v + len(s.Name) + len(s.Description) + len(s.Latest)
		for _, k := range s.Keywords {
			n += v + len(k)
		}
		for _, e := range s.Versions {
			n += 9*v + len(e.Version) + len(e.Path) + len(e.Tarball) + len(e.Manifest) + len(e.Integrity) + len(e.PublishedAt) + len(e.DeprecationReason)
			for _, sig := range e.Signatures {
				n += v + len(sig)
			}
		}
	}
	return n
}

// errCacheCorrupt reports a damaged cache file.
var errCacheCorrupt = errors.New("index cache file is damaged")

// cacheReader reads the cache layout with bounds checks.
type cacheReader struct {
	s   string // the whole file; strings are slices of it
	off int
	err error
}

// num reads a uvarint bounded by limit.
func (r *cacheReader) num(limit int) int { return int(r.uvarint(uint64(max(limit, 0)))) }

// uvarint reads a minimally encoded uvarint bounded by limit.
func (r *cacheReader) uvarint(limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	n := 0
	for i := 0; ; i++ {
		if r.off+i >= len(r.s) || i == binary.MaxVarintLen64 {
			r.err = errCacheCorrupt
			return 0
		}
		c := r.s[r.off+i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			r.err = errCacheCorrupt // overflows 64 bits
			return 0
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			n = i + 1
			break
		}
	}
	if v > limit || n != uvarintLen(v) {
		r.err = errCacheCorrupt
		return 0
	}
	r.off += n
	return v
}

// uvarintLen is the length of the minimal uvarint encoding of v; longer,
// non-minimal encodings are refused so that a file has one meaning.
func uvarintLen(v uint64) int {
	if v == 0 {
		return 1
	}
	return (bits.Len64(v) + 6) / 7
}

// str reads a length-prefixed string.
func (r *cacheReader) str() string {
	n := r.num(len(r.s))
	if r.err != nil || r.off+n > len(r.s) {
		r.err = errCacheCorrupt
		return ""
	}
	s := r.s[r.off : r.off+n]
	r.off += n
	return s
}

// unmarshalIndex decodes the cache payload layout. Its counts are checked
// against the limits and the bytes left before anything is allocated.
func unmarshalIndex(raw string) (*Index, error) {
	r := &cacheReader{s: raw}
	lim := DefaultIndexLimits()
	x := &Index{}
	x.SchemaVersion = r.num(IndexSchemaVersion)
	x.Name = r.str()
	x.UpdatedAt = r.str()
	// A skill takes at least 5 bytes, a version 8, a keyword 1.
	left := len(raw) - r.off
	n := r.num(min(lim.MaxSkills, left/5))
	nv := r.num(min(lim.MaxVersions, left/8))
	nk := r.num(min(lim.MaxSkills*lim.MaxKeywords, left))
	if r.err != nil {
		return nil, r.err
	}
	skills := make([]Skill, n)
	x.Skills = make([]*Skill, n)
	versions := make([]Version, nv)
	vptrs := make([]*Version, nv)
	keywords := make([]string, nk)
	for i := range skills {
		s := &skills[i]
		s.Name, s.Description, s.Latest = r.str(), r.str(), r.str()
		if k := r.num(min(lim.MaxKeywords, len(keywords))); k > 0 {
			s.Keywords, keywords = keywords[:k:k], keywords[k:]
			for j := range s.Keywords {
				s.Keywords[j] = r.str()
			}
		}
		k := r.num(min(lim.MaxVersionsPerSkill, len(versions)))
		if r.err != nil {
			return nil, r.err
		}
		s.Versions, vptrs = vptrs[:k:k], vptrs[k:]
		for j := range s.Versions {
			v := &versions[j]
			v.Version, v.Path, v.Tarball, v.Manifest, v.Integrity = r.str(), r.str(), r.str(), r.str(), r.str()
			v.PublishedAt, v.DeprecationReason = r.str(), r.str()
			v.Deprecated = r.num(1) == 1
			if n := r.num(MaxVersionSignatures); n > 0 {
				v.Signatures = make([]string, n)
				for k := range v.Signatures {
					v.Signatures[k] = r.str()
				}
			}
			s.Versions[j] = v
		}
		versions = versions[k:]
		if r.err != nil {
			return nil, r.err
		}
		x.Skills[i] = s
	}
	if r.err != nil || r.off != len(r.s) || len(versions) != 0 || len(keywords) != 0 {
		return nil, errCacheCorrupt
	}
	x.buildMap()
	return x, nil
}
