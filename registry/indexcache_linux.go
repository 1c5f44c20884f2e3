package registry

import (
	"io/fs"
	"syscall"
)

// identityOf returns the identity of the file fi describes.
func identityOf(fi fs.FileInfo) fileIdentity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdentity{}
	}
	return fileIdentity{
		dev:   st.Dev,
		ino:   st.Ino,
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
		mode:  st.Mode,
	}
}
