//go:build race

package resolve

// raceEnabled reports that the race detector is on, which inflates
// memory and time beyond what the large-resolution test measures.
const raceEnabled = true
