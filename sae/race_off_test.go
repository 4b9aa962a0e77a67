//go:build !race

package sae

const raceEnabled = false
