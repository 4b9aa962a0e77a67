//go:build race

package ieee80211

// raceEnabled skips allocation counts, which the race detector perturbs.
const raceEnabled = true
