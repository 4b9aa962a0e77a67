//go:build !race

package rsn

const raceEnabled = false
