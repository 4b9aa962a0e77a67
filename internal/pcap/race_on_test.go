//go:build race

package pcap

// raceEnabled skips allocation counts, which the race detector perturbs.
const raceEnabled = true
