package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrNotPlain is ReadPlain's error for a path that is not a regular file.
var ErrNotPlain = errors.New("not a regular file")

// ErrTooLarge is ReadPlain's error for a file larger than its limit.
var ErrTooLarge = errors.New("file too large")

// ReadPlain reads a small configuration file that may come from anyone (a
// project's file): nil and no error when it does not exist; ErrNotPlain
// when it is a folder, a device or — unless follow — a symbolic link;
// ErrTooLarge past limit bytes, read no further.
func ReadPlain(file string, follow bool, limit int) ([]byte, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotPlain
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, ErrTooLarge
	}
	return data, nil
}
