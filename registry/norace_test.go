//go:build !race

package registry

// raceEnabled reports that the race detector is on.
const raceEnabled = false
