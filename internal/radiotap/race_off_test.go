//go:build !race

package radiotap

const raceEnabled = false
