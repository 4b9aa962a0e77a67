//go:build race

package scan

// raceEnabled skips allocation counts, which the race detector perturbs;
// make norace runs those tests without it.
const raceEnabled = true
