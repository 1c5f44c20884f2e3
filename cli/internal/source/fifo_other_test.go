//go:build !unix

package source

import "errors"

// mkfifo reports that named pipes cannot be made here.
func mkfifo(string) error { return errors.New("no named pipes") }
