//go:build !race

package txq

const raceEnabled = false
