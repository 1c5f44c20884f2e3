package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry/sshsig"
)

// indexPath is where git and local registries keep their index.
const indexPath = "registry/skills.yaml"

// local reads a registry directory in place (DESIGN §4.2 "local"); the
// git kind reuses it over its clone.
type local struct {
	name      string
	url       string // for resolved strings
	root      string
	indexFile string
	cacheDir  string   // for the decoded-index cache; "" disables it
	trust     *Trust   // nil: the index is not signed
	opts      *Options // the clock, when trust is set
}

// newLocal interprets a local registry URL: a directory (holding
// registry/skills.yaml), or the index file itself, as a path or file://
// URL.
func newLocal(spec Spec, cacheDir string) (*local, error) {
	p := spec.URL
	if strings.HasPrefix(p, "file://") {
		u, err := url.Parse(p)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return nil, configInvalid(spec, "not a usable file:// URL")
		}
		p = u.Path
	}
	p = filepath.Clean(p)
	l := &local{name: spec.Name, url: spec.URL, root: p, indexFile: filepath.Join(p, filepath.FromSlash(indexPath)), cacheDir: cacheDir}
	switch strings.ToLower(filepath.Ext(p)) {
	case ".yaml", ".yml", ".json":
		l.indexFile = p
		l.root = filepath.Dir(p)
		if filepath.Base(l.root) == "registry" {
			l.root = filepath.Dir(l.root)
		}
	}
	return l, nil
}

// loadIndex reads and decodes the index file.
func (l *local) loadIndex(ctx context.Context) (*Index, error) {
	var idx *Index
	var err error
	if l.trust != nil {
		idx, err = l.loadSigned()
	} else {
		idx, err = loadIndexFile(l.indexFile, l.cacheDir, indexRacyWindow)
	}
	var e *Error
	switch {
	case err == nil:
		return idx, nil
	case errors.As(err, &e):
		return nil, err
	case errors.Is(err, fs.ErrNotExist):
		return nil, unavailable(l.name, "no index at "+l.indexFile, nil,
			"check the registry URL: a registry directory holds "+indexPath)
	}
	return nil, unavailable(l.name, "cannot read the index", err)
}

// loadSigned reads the index file and its detached signature, verifies
// the signature over the exact bytes read, and only then decodes them.
func (l *local) loadSigned() (*Index, error) {
	data, err := readCapped(l.indexFile, int64(DefaultIndexLimits().MaxBytes))
	if err != nil {
		return nil, err
	}
	sig, err := readCapped(l.indexFile+SignatureSuffix, sshsig.MaxSignatureSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		sig = nil
	case err != nil:
		return nil, unavailable(l.name, "cannot read the index signature", err)
	}
	if _, err := l.trust.VerifyIndex(l.name, l.indexFile, data, sig, l.opts.now()); err != nil {
		return nil, err
	}
	return decodeIndexCached(data, l.indexFile, l.cacheDir)
}

// payload returns the package directory, refusing symbolic links on the
// way to it, or the extracted tarball.
func (l *local) payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if v.Tarball != "" {
		if strings.Contains(v.Tarball, "://") {
			return nil, unavailable(l.name, fmt.Sprintf("%s@%s: tarball URLs are served by http registries only", s.Name, v.Version), nil)
		}
		file := filepath.Join(l.root, filepath.FromSlash(v.Tarball))
		if err := noSymlinks(l.root, v.Tarball); err != nil {
			return nil, err
		}
		return r.tarballPayload(ctx, v, s.Name, func(context.Context) (io.ReadCloser, error) {
			f, err := os.Open(file)
			if err != nil {
				return nil, unavailable(l.name, fmt.Sprintf("%s@%s: cannot open the tarball", s.Name, v.Version), err)
			}
			return f, nil
		}, verify)
	}
	if v.Path == "" {
		return nil, unavailable(l.name, fmt.Sprintf("%s@%s: the index names an OCI manifest, which only OCI registries serve", s.Name, v.Version), nil,
			"report the broken entry to the registry's maintainers")
	}
	rel := strings.TrimSuffix(v.Path, "/")
	if err := noSymlinks(l.root, rel); err != nil {
		return nil, err
	}
	dir := filepath.Join(l.root, filepath.FromSlash(rel))
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, unavailable(l.name, fmt.Sprintf("%s@%s: the index names %s, which is not a directory", s.Name, v.Version, v.Path), err,
			"report the broken entry to the registry's maintainers")
	}
	return verify(os.DirFS(dir))
}

// resolved names the payload as "<url>:<path>".
func (l *local) resolved(s *Skill, v *Version) string {
	if v.Path != "" {
		return l.url + ":" + strings.TrimSuffix(v.Path, "/")
	}
	return l.url + ":" + v.Tarball
}

// noSymlinks refuses a symbolic link at any element of rel under root.
func noSymlinks(root, rel string) error {
	p := root
	for _, e := range strings.Split(rel, "/") {
		p = filepath.Join(p, e)
		info, err := os.Lstat(p)
		if err != nil {
			return nil // a missing element is reported by the caller
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return &Error{
				Code:    format.CodePackageUnsafeFile,
				Message: fmt.Sprintf("registry path %s goes through a symbolic link", rel),
				Try:     []string{"replace the link with the directory itself"},
			}
		}
	}
	return nil
}

// readCapped reads a whole file, failing when it is larger than limit.
func readCapped(file string, limit int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", file, limit)
	}
	return data, nil
}
