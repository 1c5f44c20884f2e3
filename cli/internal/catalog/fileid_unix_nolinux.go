//go:build unix && !linux

package catalog

import "syscall"

// statID returns the unknown identity: see lstatID.
func statID(st *syscall.Stat_t) fileID { return fileID{} }
