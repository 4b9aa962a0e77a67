package txq

import (
	"flag"
	"os"
	"testing"
)

// TestMain bounds the property tests' iterations (fewer under -race) unless
// -rapid.checks is given.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		n := "20"
		if raceEnabled {
			n = "3"
		}
		flag.Set("rapid.checks", n)
	}
	os.Exit(m.Run())
}
