//go:build race

package registry

// raceEnabled reports that the race detector is on, which inflates the
// allocations the tests that count them measure.
const raceEnabled = true
