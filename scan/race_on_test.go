//go:build race

package scan

// raceEnabled skips allocation counts, which the race detector perturbs.
const raceEnabled = true
