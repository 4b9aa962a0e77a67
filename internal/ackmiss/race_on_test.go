//go:build race

package ackmiss

// raceEnabled: allocation tests skip under -race.
const raceEnabled = true
