//go:build linux

package source

import (
	"encoding/binary"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// resolveBeneath is how every fast-path open resolves a path below the
// tree: no symbolic link on the way or at the end, no way out.
const resolveBeneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// listRaw lists the folder name below the tree: one openat2(2) that
// refuses every link (as openNoLinks), then getdents64 on the descriptor,
// each entry with the type the folder records for it (lstat's type; an
// entry of unknown type is fstatat'ed, without following it). buf is the
// reusable getdents buffer. ok is false when the fast path is not
// available or failed: the caller lists through the checked treeFS,
// which gives the exact error.
func (t *treeFS) listRaw(name string, buf *[]byte) (ents []rawEntry, ok bool) {
	if t.noOpenat2.Load() || t.dir == nil {
		return nil, false
	}
	fd, err := unix.Openat2(t.dirfd, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_DIRECTORY,
		Resolve: resolveBeneath,
	})
	if err != nil {
		t.refused(err)
		return nil, false
	}
	defer unix.Close(fd)
	t.countRead("open", name)
	if *buf == nil {
		*buf = make([]byte, 32<<10)
	}
	b := *buf
	for {
		n, err := unix.Getdents(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			return ents, true
		}
		for off := 0; off+19 <= n; {
			reclen := int(binary.NativeEndian.Uint16(b[off+16:]))
			if reclen == 0 || off+reclen > n {
				return nil, false
			}
			typ := b[off+18]
			nb := b[off+19 : off+reclen]
			for i, c := range nb {
				if c == 0 {
					nb = nb[:i]
					break
				}
			}
			off += reclen
			if len(nb) == 0 || string(nb) == "." || string(nb) == ".." {
				continue
			}
			e := rawEntry{name: string(nb)}
			switch typ {
			case unix.DT_REG:
			case unix.DT_DIR:
				e.typ = fs.ModeDir
			case unix.DT_LNK:
				e.typ = fs.ModeSymlink
			case unix.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case unix.DT_SOCK:
				e.typ = fs.ModeSocket
			case unix.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case unix.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				var st unix.Stat_t
				if unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
					return nil, false
				}
				e.typ = modeOf(&st).Type()
			}
			ents = append(ents, e)
		}
	}
}

// readRaw opens the file name below the tree in one openat2(2) that
// refuses every link, fstats the descriptor and, when it is a regular
// file of at most max bytes, reads it whole with a buffer of its size:
// four system calls for a skill's file. ok is false when the fast path is
// not available or failed: the caller asks the checked treeFS; info is
// nil with ok true when name is not a regular file any more. The descriptor is opened non-blocking, so a FIFO
// swapped in for the file cannot hang the read (it is refused after the
// fstat).
func (t *treeFS) readRaw(name string, max int64) (info fs.FileInfo, data []byte, ok bool) {
	if t.noOpenat2.Load() || t.dir == nil {
		return nil, nil, false
	}
	fd, err := unix.Openat2(t.dirfd, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY,
		Resolve: resolveBeneath,
	})
	if err != nil {
		t.refused(err)
		return nil, nil, false
	}
	defer unix.Close(fd)
	t.countRead("open", name)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil, nil, false
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		// Swapped for something else since it was listed: what it is
		// now is asked of the treeFS's stat, never opened again (a FIFO
		// would block a blocking open).
		return nil, nil, true
	}
	base := name
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			base = name[i+1:]
			break
		}
	}
	fi := &rawInfo{name: base, size: st.Size, mode: modeOf(&st), mtime: time.Unix(st.Mtim.Unix())}
	if st.Size > max {
		return fi, nil, true
	}
	data = make([]byte, st.Size)
	got := 0
	for got < len(data) {
		n, err := unix.Read(fd, data[got:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, false
		}
		if n == 0 {
			break // it shrank: what was read is what it holds
		}
		got += n
	}
	fi.size = int64(got)
	return fi, data[:got], true
}

// refused records a kernel or sandbox without openat2.
func (t *treeFS) refused(err error) {
	switch err {
	case unix.ENOSYS, unix.EPERM, unix.EINVAL, unix.E2BIG:
		t.noOpenat2.Store(true)
	}
}

// modeOf is the fs.FileMode of a stat result, as os gives it.
func modeOf(st *unix.Stat_t) fs.FileMode {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// rawInfo is a file's info from its fstat.
type rawInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func (i *rawInfo) Name() string       { return i.name }
func (i *rawInfo) Size() int64        { return i.size }
func (i *rawInfo) Mode() fs.FileMode  { return i.mode }
func (i *rawInfo) ModTime() time.Time { return i.mtime }
func (i *rawInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *rawInfo) Sys() any           { return nil }
