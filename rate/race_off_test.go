//go:build !race

package rate_test

const raceEnabled = false
