package registry

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/bits"
	"os"
	"path/filepath"
)

// The decoded-index cache: a large index (above indexCacheMin bytes) is
// decoded and validated once, then kept under CacheDir/index/ in a compact
// binary form keyed by the SHA-256 of the source bytes, so that the next
// process loads it without YAML or JSON parsing. The source is still read
// and hashed every time; a changed source never hits a stale entry. File
// names are <hash of the source name>-<hash of the content>.bin, and
// writing an entry removes the older entries of the same source. A
// damaged cache file is ignored and rewritten.

// indexCacheMin is the source size from which the cache is used.
const indexCacheMin = 1 << 20

// indexCacheMagic starts every cache file; bump the digit when the layout
// changes.
const indexCacheMagic = "ASKIDX1\n"

// decodeIndexCached is DecodeIndex with the decoded-index cache in
// cacheDir ("" disables it).
func decodeIndexCached(data []byte, file, cacheDir string) (*Index, error) {
	if cacheDir == "" || len(data) < indexCacheMin {
		return DecodeIndex(data, file)
	}
	src := sha256.Sum256([]byte(file))
	sum := sha256.Sum256(data)
	prefix := hex.EncodeToString(src[:8]) + "-"
	path := filepath.Join(cacheDir, "index", prefix+hex.EncodeToString(sum[:])+".bin")
	if raw, err := os.ReadFile(path); err == nil {
		if idx, err := unmarshalIndex(raw); err == nil {
			return idx, nil
		}
	}
	idx, err := DecodeIndex(data, file)
	if err != nil {
		return nil, err
	}
	if writeAtomic(path, marshalIndex(idx)) == nil { // a failed write only costs speed
		// Drop the entries of earlier versions of the same source.
		old, _ := filepath.Glob(filepath.Join(cacheDir, "index", prefix+"*.bin"))
		for _, o := range old {
			if o != path {
				_ = os.Remove(o)
			}
		}
	}
	return idx, nil
}

// marshalIndex encodes a validated index in the cache layout: the magic,
// then uvarint-length-prefixed strings and uvarint counts in a fixed order.
func marshalIndex(x *Index) []byte {
	b := []byte(indexCacheMagic)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(n int) { b = binary.AppendUvarint(b, uint64(n)) }
	num(x.SchemaVersion)
	str(x.Name)
	str(x.UpdatedAt)
	num(len(x.Skills))
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
			str(v.Integrity)
			str(v.PublishedAt)
			str(v.DeprecationReason)
			if v.Deprecated {
				num(1)
			} else {
				num(0)
			}
		}
	}
	return b
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
func (r *cacheReader) num(limit int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint([]byte(r.s[r.off:min(len(r.s), r.off+binary.MaxVarintLen64)]))
	if n <= 0 || v > uint64(limit) || n != uvarintLen(v) {
		r.err = errCacheCorrupt
		return 0
	}
	r.off += n
	return int(v)
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

// unmarshalIndex decodes the cache layout.
func unmarshalIndex(raw []byte) (*Index, error) {
	if len(raw) < len(indexCacheMagic) || string(raw[:len(indexCacheMagic)]) != indexCacheMagic {
		return nil, errCacheCorrupt
	}
	r := &cacheReader{s: string(raw), off: len(indexCacheMagic)}
	lim := DefaultIndexLimits()
	x := &Index{}
	x.SchemaVersion = r.num(IndexSchemaVersion)
	x.Name = r.str()
	x.UpdatedAt = r.str()
	n := r.num(lim.MaxSkills)
	x.Skills = make([]*Skill, 0, n)
	for range n {
		s := &Skill{Name: r.str(), Description: r.str(), Latest: r.str()}
		if k := r.num(lim.MaxKeywords); k > 0 {
			s.Keywords = make([]string, k)
			for i := range s.Keywords {
				s.Keywords[i] = r.str()
			}
		}
		nv := r.num(lim.MaxVersionsPerSkill)
		vs := make([]Version, nv)
		s.Versions = make([]*Version, nv)
		for i := range vs {
			v := &vs[i]
			v.Version, v.Path, v.Tarball, v.Integrity = r.str(), r.str(), r.str(), r.str()
			v.PublishedAt, v.DeprecationReason = r.str(), r.str()
			v.Deprecated = r.num(1) == 1
			s.Versions[i] = v
		}
		if r.err != nil {
			return nil, r.err
		}
		x.Skills = append(x.Skills, s)
	}
	if r.err != nil || r.off != len(r.s) {
		return nil, errCacheCorrupt
	}
	x.buildMap()
	return x, nil
}
