// Package readmetest holds README.md's figures to the tests and benchmarks
// that compute them, so that a figure that drifts fails the gate instead
// of misleading a reader. A test that computes a figure the README quotes
// finds the quote by a regular expression around it and compares: exactly
// for what is deterministic (virtual-time results, byte and allocation
// counts), within a stated slack for what the Go runtime's collector moves
// by a few bytes. Host-timing figures are not checked: the README gives
// them as ranges with the load they were measured at. Tests only.
package readmetest
