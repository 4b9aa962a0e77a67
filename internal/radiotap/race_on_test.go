//go:build race

package radiotap

// raceEnabled skips allocation counts, which the race detector perturbs.
const raceEnabled = true
