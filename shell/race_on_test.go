//go:build race

package shell

// raceEnabled: tests that read it skip under -race, whose shadow memory and
// slower collector change what the runtime keeps; make norace runs them.
const raceEnabled = true
