//go:build !linux

package registry

import "io/fs"

// identityOf returns the unknown identity: elsewhere than on Linux the
// cache finds an entry by the digest of the source only.
func identityOf(fi fs.FileInfo) fileIdentity { return fileIdentity{} }
