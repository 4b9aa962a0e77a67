//go:build race

package sim

// raceEnabled: the flood study runs shorter under -race; make norace runs
// it in full without it.
const raceEnabled = true
