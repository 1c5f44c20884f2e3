package plugin

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"time"
)

// zipTime is the modification time of every ZIP entry: the earliest an
// MS-DOS time can say, so that no clock reaches the archive.
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Zip encodes the tree as a ZIP archive whose root is the tree's root:
// entries sorted by path, files only, deflated, every entry dated
// 1980-01-01 00:00 UTC with mode 0644 (0755 when executable). The same
// tree always gives the same bytes.
func (t Tree) Zip() ([]byte, error) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	w.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	for _, f := range t.Files {
		h := &zip.FileHeader{Name: f.Path, Method: zip.Deflate, Modified: zipTime}
		mode := fileMode(f)
		h.SetMode(mode)
		fw, err := w.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := fw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
