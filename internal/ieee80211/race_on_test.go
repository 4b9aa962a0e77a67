//go:build race

package ieee80211

// raceEnabled skips allocation counts, which the race detector perturbs;
// make norace runs those tests without it.
const raceEnabled = true
