//go:build !race

package ieee80211

const raceEnabled = false
