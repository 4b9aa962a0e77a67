//go:build race

package sim

// raceEnabled: the flood study, the scan's cost and the scan under load run
// shorter under -race; make norace runs them in full without it.
const raceEnabled = true
