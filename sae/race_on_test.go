//go:build race

package sae

// raceEnabled: tests that read it skip or shrink under -race; make norace
// runs them in full without it.
const raceEnabled = true
