package registry

import (
	"io"
	"io/fs"
	"sync"
)

// An installer copies each package file into its destinations with
// io.Copy. A file that is not an *os.File and has no WriteTo makes io.Copy
// allocate a 32 KiB buffer per call (os.File.ReadFrom falls back to one),
// a gigabyte and more of garbage for an install of ten thousand packages.
// Snapshot and sealed files therefore implement io.WriterTo: an in-memory
// file writes its bytes in one call, a file read again from the registry
// goes through a buffer from copyBuffers.

// copyBuffers holds the buffers sealed files are copied through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Open opens a file of the snapshot; a regular file can write itself.
func (m *snapshotFS) Open(name string) (fs.File, error) {
	f, err := m.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	mf, ok := m.MapFS[name]
	s, seekable := f.(io.Seeker)
	if !ok || mf == nil || !mf.Mode.IsRegular() || !seekable {
		return f, nil
	}
	return &memFile{File: f, seek: s, data: mf.Data}, nil
}

// memFile is a snapshot file held in memory.
type memFile struct {
	fs.File
	seek io.Seeker
	data []byte
}

// WriteTo writes the rest of the file to w in one call.
func (f *memFile) WriteTo(w io.Writer) (int64, error) {
	off, err := f.seek.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if off >= int64(len(f.data)) {
		return 0, nil
	}
	n, err := w.Write(f.data[off:])
	if _, serr := f.seek.Seek(off+int64(n), io.SeekStart); err == nil {
		err = serr
	}
	return int64(n), err
}

// WriteTo copies the rest of the file to w, checking it as Read does.
func (f *sealedFile) WriteTo(w io.Writer) (int64, error) {
	if f.h == nil {
		if m, ok := f.r.(*memReader); ok {
			n, err := w.Write(m.data)
			m.data = m.data[n:]
			return int64(n), err
		}
	}
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	buf := *bp
	var written int64
	for {
		n, err := f.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			written += int64(m)
			if werr != nil {
				return written, werr
			}
			if m != n {
				return written, io.ErrShortWrite
			}
		}
		if err == io.EOF {
			return written, nil
		}
		if err != nil {
			return written, err
		}
	}
}
