//go:build race

package handshake

// raceEnabled: allocation tests skip under -race.
const raceEnabled = true
