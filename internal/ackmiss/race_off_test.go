//go:build !race

package ackmiss

const raceEnabled = false
