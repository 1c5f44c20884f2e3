package format

import "sync"

// EntrypointCache remembers entrypoints decoded through it, by their bytes,
// name, kind and size limit, so that a caller decoding the same file more
// than once decodes it once: an install reads each SKILL.md's front matter
// to discover the skill, again to synthesise its skill.yaml and again to
// load the package (LoadOptions.Entrypoints). Each hit is a copy of the
// Entrypoint struct, so that one holder's Package.Compact does not reach
// another's; the decoded values themselves are shared and never changed.
// It holds at most maxCachedEntrypoints entries and then decodes without
// remembering, so a source of 10,000 skills does not keep them all. The
// zero value is ready; a nil cache only decodes. It is safe for
// concurrent use: a source's skills are materialised in parallel.
type EntrypointCache struct {
	mu     sync.Mutex
	byData map[string][]cachedEntrypoint
	n      int
}

// maxCachedEntrypoints bounds an EntrypointCache: about 2 MiB for typical
// SKILL.md files and their decoded front matter.
const maxCachedEntrypoints = 256

// cachedEntrypoint is one decode: its inputs besides the bytes, and its
// results.
type cachedEntrypoint struct {
	file  string
	kind  Kind
	limit int64
	e     *Entrypoint
	diags Diagnostics
}

// Decode is DecodeEntrypoint, through the cache.
func (c *EntrypointCache) Decode(data []byte, file string, kind Kind) (*Entrypoint, Diagnostics) {
	return c.decode(data, file, kind, DefaultMaxEntrypointSize)
}

// decode is decodeEntrypoint, through the cache.
func (c *EntrypointCache) decode(data []byte, file string, kind Kind, limit int64) (*Entrypoint, Diagnostics) {
	if c == nil {
		return decodeEntrypoint(data, file, kind, limit)
	}
	c.mu.Lock()
	for _, h := range c.byData[string(data)] {
		if h.file == file && h.kind == kind && h.limit == limit {
			c.mu.Unlock()
			return h.copy()
		}
	}
	c.mu.Unlock()
	// Decoded outside the lock; two callers decoding the same bytes at
	// once get equal results, and the first remembered is kept.
	e, diags := decodeEntrypoint(data, file, kind, limit)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.byData[string(data)] {
		if h.file == file && h.kind == kind && h.limit == limit {
			return h.copy()
		}
	}
	if c.n < maxCachedEntrypoints {
		if c.byData == nil {
			c.byData = map[string][]cachedEntrypoint{}
		}
		h := cachedEntrypoint{file: file, kind: kind, limit: limit, e: e, diags: diags}
		c.byData[string(data)] = append(c.byData[string(data)], h)
		c.n++
		return h.copy()
	}
	return e, diags
}

// copy returns the remembered results, each the caller's own.
func (h cachedEntrypoint) copy() (*Entrypoint, Diagnostics) {
	var e *Entrypoint
	if h.e != nil {
		cp := *h.e
		e = &cp
	}
	return e, append(Diagnostics(nil), h.diags...)
}
