//go:build !race

package resolve

// raceEnabled reports that the race detector is on.
const raceEnabled = false
