//go:build race

package rsn

// raceEnabled: allocation tests skip under -race.
const raceEnabled = true
