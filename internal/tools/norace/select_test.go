package main

import (
	"slices"
	"testing"
)

func TestSelectTests(t *testing.T) {
	files := map[string][]byte{
		"race_off_test.go": []byte("package p\n\nconst raceEnabled = false\n"),
		"a_test.go": []byte(`package p

import tt "testing"

func TestDirect(t *tt.T) { tt.AllocsPerRun(1, func() {}) }
func TestViaHelper(t *tt.T) { helper(t) }
func helper(t *tt.T) { deeper() }
func deeper() { _ = n }
var n = pick(raceEnabled)
func pick(b bool) int { return 1 }
func TestViaMethod(t *tt.T) { var w twins; w.step() }
type twins struct{}
func (w *twins) step() { if raceEnabled { return } }
func TestClosure(t *tt.T) { t.Run("x", func(t *tt.T) { _ = tt.AllocsPerRun }) }
func TestPlain(t *tt.T) { helperPlain() }
func helperPlain() { other() }
func other() { helperPlain() }
func Testify(t *tt.T) { tt.AllocsPerRun(1, nil) }
func TestNotATest(x int) { tt.AllocsPerRun(1, nil) }
func BenchmarkAllocs(b *tt.B) { tt.AllocsPerRun(1, nil) }
`),
		"b_test.go": []byte(`package p

import "testing"

// AllocsPerRun of another package is not testing's.
func TestOtherAllocs(t *testing.T) { var x fake; x.AllocsPerRun() }
type fake struct{}
func (fake) AllocsPerRun() {}
`),
	}
	got, err := selectTests(files)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TestClosure", "TestDirect", "TestViaHelper", "TestViaMethod"}
	if !slices.Equal(got, want) {
		t.Errorf("selectTests = %v, want %v", got, want)
	}
}

func TestSelectTestsSyntaxError(t *testing.T) {
	if _, err := selectTests(map[string][]byte{"x_test.go": []byte("package p\nfunc {")}); err == nil {
		t.Error("no error for a file that does not parse")
	}
}
