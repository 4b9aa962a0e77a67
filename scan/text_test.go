package scan

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestDecisionGolden(t *testing.T) {
	nb := []BSS{{Freq: 2447, Signal: -60, HasSignal: true}}
	d, err := Select(plan24(), surveys24(map[int]int{1: 600, 6: 240, 11: 300}), nb, ACSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "acs-decision.txt", AppendDecision(nil, &d))
}
