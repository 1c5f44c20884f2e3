//go:build !windows

package workspace

import "os"

// executable returns p when it is a file with an execute bit.
func executable(p string, _ func(string) string) (string, bool) {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", false
	}
	return p, true
}
