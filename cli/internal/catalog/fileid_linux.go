package catalog

import "golang.org/x/sys/unix"

// openRoot opens a root folder for lstatAt and returns its identity.
func openRoot(p string) (int, fileID, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return -1, fileID{}, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fileID{}, err
	}
	return fd, statID(&st), nil
}

// statID is the identity of the file st describes.
func statID(st *unix.Stat_t) fileID {
	return fileID{
		dev:   st.Dev,
		ino:   st.Ino,
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
		mode:  st.Mode,
	}
}

func closeRoot(fd int) { unix.Close(fd) }

// lstatAt returns the identity of rel, a path under the root folder fd,
// not following a link at its end; absent is true when nothing is there.
// A path relative to an open folder spares the kernel the walk from "/".
func lstatAt(fd int, rel string) (id fileID, absent bool, err error) {
	var st unix.Stat_t
	for {
		err = unix.Fstatat(fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			break
		}
	}
	switch err {
	case nil:
		return statID(&st), false, nil
	case unix.ENOENT, unix.ENOTDIR:
		return fileID{}, true, nil
	}
	return fileID{}, false, err
}
