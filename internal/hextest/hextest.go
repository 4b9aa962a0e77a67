// Package hextest reads the hex dumps of test vectors as the standards
// print them: grouped by blanks, tabs, newlines or '|'.
package hextest

import (
	"encoding/hex"
	"strings"
	"testing"
)

var separators = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "")

// Decode returns the bytes of s, separators ignored.
func Decode(s string) ([]byte, error) { return hex.DecodeString(separators.Replace(s)) }

// Bytes is Decode for a test: a dump that is not hex fails it.
func Bytes(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := Decode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
