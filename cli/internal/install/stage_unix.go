//go:build unix

package install

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/agent-skills/agent-skills/agents"
)

// Staging is most of an install's system calls: a file per package file
// per root. So the staged copy is written through file descriptors: the
// root's staging folder is opened once per run (stageDirs), and every
// staged folder, sub-folder and file is created relative to it with
// mkdirat and openat. A file is created with its
// mode (an fchmod only when the umask would take bits of it), written with
// write(2) and closed: no os.File, whose poller registration costs four
// fcntl and a failing epoll_ctl per file, and no MkdirAll, which stats
// every parent of every file.

// openDirFd opens the folder p, which must not be a link.
func openDirFd(p string) (int, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return fd, nil
}

// closeFd closes fd unless it is -1.
func closeFd(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// stageInto writes t's staged copy below the staging folder d.
func (t *txn) stageInto(ctx context.Context, d *stageDir, s *syncer) error {
	name := t.stageName(".staged")
	if t.shape == agents.ShapeFile {
		if err := createAt(d.fd, name, t.files[0]); err != nil {
			return ioError("stage", t.stagePath(), pathErr("create", t.stagePath(), err))
		}
		s.add(t.stagePath())
		return nil
	}
	if err := unix.Mkdirat(d.fd, name, 0o755); err != nil {
		return ioError("stage", t.stagePath(), pathErr("mkdir", t.stagePath(), err))
	}
	// Everything below the staged folder is created relative to the
	// staging folder's descriptor, through the staged folder's name
	// ("<name>/<rel>"): opening the staged folder and closing it again
	// cost two system calls per transaction and guarded nothing more, the
	// commit renames the staged folder by its path.
	var made map[string]bool
	for _, f := range t.files {
		if err := ctx.Err(); err != nil {
			return err // interrupted: the caller's undo removes what was staged
		}
		rel := name + "/" + f.rel
		if err := mkParents(d.fd, rel, len(name)+1, &made); err != nil {
			return ioError("stage", t.stagedPath(f.rel), pathErr("mkdir", t.stagedPath(f.rel), err))
		}
		if f.from != "" {
			if err := carry(f.from, t.stagedPath(f.rel)); err != nil {
				return ioError("stage", t.stagedPath(f.rel), err)
			}
		} else if err := createAt(d.fd, rel, f); err != nil {
			return ioError("stage", t.stagedPath(f.rel), pathErr("create", t.stagedPath(f.rel), err))
		}
		if syncsPaths {
			// Two paths built per staged file, only where they are used.
			s.add(t.stagedPath(f.rel))
		}
	}
	for _, rel := range t.keeps() {
		from := t.destPath(rel)
		p := t.stagedPath(rel)
		if err := mkParents(d.fd, name+"/"+rel, len(name)+1, &made); err != nil {
			return ioError("stage", p, pathErr("mkdir", p, err))
		}
		if err := carry(from, p); err != nil {
			return ioError("keep your file", from, err)
		}
		s.add(p)
	}
	return nil
}

// pathErr names the path of a failed system call, as package os does.
func pathErr(op, p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// mkParents creates the folders above the slash-separated rel below the
// folder dirfd from its byte from on (the folders before it exist), each
// once per staged copy (made remembers them).
func mkParents(dirfd int, rel string, from int, made *map[string]bool) error {
	for i := from; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		dir := rel[:i]
		if (*made)[dir] {
			continue
		}
		if err := unix.Mkdirat(dirfd, dir, 0o755); err != nil && err != unix.EEXIST {
			return err
		}
		if *made == nil {
			*made = map[string]bool{}
		}
		(*made)[dir] = true
	}
	return nil
}

// copyBufs are the buffers files read from a package's file system are
// copied through.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// createAt creates the file rel below dirfd, which must not exist yet,
// with f's bytes and mode.
func createAt(dirfd int, rel string, f stagedFile) (err error) {
	fd, err := unix.Openat(dirfd, rel, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(f.perm.Perm()))
	if err != nil {
		return err
	}
	defer func() {
		if cerr := unix.Close(fd); err == nil {
			err = cerr
		}
	}()
	if data, ok, err := f.src.bytes(f.fsys, f.copyFrom); ok {
		defer f.src.done()
		if err != nil {
			return err
		}
		if err := writeAll(fd, data); err != nil {
			return err
		}
	} else if f.copyFrom != "" {
		in, err := f.fsys.Open(f.copyFrom)
		if err != nil {
			return err
		}
		bp := copyBufs.Get().(*[]byte)
		err = copyTo(fd, in, *bp)
		copyBufs.Put(bp)
		in.Close()
		if err != nil {
			return err
		}
	} else if err := writeAll(fd, f.content); err != nil {
		return err
	}
	if f.perm.Perm()&umask() != 0 {
		return unix.Fchmod(fd, uint32(f.perm.Perm()))
	}
	return nil
}

// copyTo writes everything in reads to fd through buf.
func copyTo(fd int, in io.Reader, buf []byte) error {
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if werr := writeAll(fd, buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// writeAll writes b to fd.
func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// writeNew creates the file p, which must not exist (nor be a link), with
// data: three system calls.
func writeNew(p string, data []byte, perm fs.FileMode) error {
	return writeFlags(p, data, perm, unix.O_EXCL)
}

// writeOver creates or truncates the file p, never following a link at
// its own name, and writes data.
func writeOver(p string, data []byte, perm fs.FileMode) error {
	return writeFlags(p, data, perm, unix.O_TRUNC)
}

func writeFlags(p string, data []byte, perm fs.FileMode, flag int) (err error) {
	fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC|flag, uint32(perm))
	if err != nil {
		return &fs.PathError{Op: "open", Path: p, Err: err}
	}
	err = writeAll(fd, data)
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err == nil && perm&umask() != 0 {
		err = os.Chmod(p, perm)
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: p, Err: err}
	}
	return nil
}

// renameRaw renames from to to with one rename(2), without the lstat of
// to that os.Rename makes first.
func renameRaw(from, to string) error {
	if err := unix.Rename(from, to); err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// removeFile removes the file p with one unlink(2); a missing p is not
// an error.
func removeFile(p string) error {
	if err := unix.Unlink(p); err != nil && err != unix.ENOENT {
		return &fs.PathError{Op: "remove", Path: p, Err: err}
	}
	return nil
}

// readSmall reads the file p without following a link at its own name,
// up to limit bytes (more is an error), without an os.File.
//
// The file is read into a buffer from smallBufs and copied out at its
// size: a receipt is about a kilobyte, and reading each into a buffer
// grown from 4 KiB allocated four to ten times that (140 MB at 20,000
// receipts), which the view then kept whole.
func readSmall(p string, limit int) ([]byte, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	bp := smallBufs.Get().(*[]byte)
	defer smallBufs.Put(bp)
	buf := (*bp)[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) > limit {
				return nil, &fs.PathError{Op: "read", Path: p, Err: errTooLarge}
			}
			// Past the pooled buffer: a new array, which is returned as it is.
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if n == 0 {
			if len(buf) > limit {
				return nil, &fs.PathError{Op: "read", Path: p, Err: errTooLarge}
			}
			if cap(buf) > cap(*bp) {
				return buf, nil
			}
			return append(make([]byte, 0, len(buf)), buf...), nil
		}
		buf = buf[:len(buf)+n]
	}
}

// smallBufs are the buffers readSmall reads into.
var smallBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}
