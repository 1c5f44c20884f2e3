//go:build !unix

package registry

import "time"

// cpuTime is not measured here: the cpu-ms/op metric reads 0.
func cpuTime() time.Duration { return 0 }
