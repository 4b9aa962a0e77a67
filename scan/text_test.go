package scan

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func goldenTable() *Table {
	tab := NewTable(TableConfig{Freqs: []int{2412, 2437, 5180}})
	tab.SetInUse(5180)
	tab.Update(1000*ms, beaconSpec{ssid: "café net", channel: 6, ht: true, privacy: true}.frame(bssA, false), rx(2437, -55))
	tab.Update(1500*ms, beaconSpec{ssid: "ac", channel: 36, ht: true, vht: true}.frame(bssB, true), rx(5180, -71))
	tab.Update(1800*ms, beaconSpec{ssid: " legacy", channel: 1}.frame(bssC, false), rx(2412, -80))
	tab.Report(2412, SurveyReport{Active: 110 * ms, Busy: 40 * ms, Rx: 35 * ms, Tx: 1 * ms, Noise: -92, HasNoise: true})
	tab.Report(5180, SurveyReport{Active: 60000 * ms, Busy: 9000 * ms, Rx: 2000 * ms, Tx: 6500 * ms, Noise: -101, HasNoise: true})
	tab.Dwelt(2412, 100*ms)
	tab.Dwelt(2437, 25*ms)
	return tab
}

func TestScanDumpGolden(t *testing.T) {
	tab := goldenTable()
	now := 2 * time.Second
	golden(t, "scan-dump.txt", AppendScanDump(nil, "wlan0", now, tab.All(nil, now)))
	var buf bytes.Buffer
	if err := WriteScanDump(&buf, "wlan0", now, tab.All(nil, now)); err != nil || !strings.HasPrefix(buf.String(), "BSS 02:cc:00:00:00:03(on wlan0)\n") {
		t.Fatalf("WriteScanDump: %v %q", err, buf.String())
	}
}

func TestSurveyDumpGolden(t *testing.T) {
	tab := goldenTable()
	golden(t, "survey-dump.txt", AppendSurveyDump(nil, "wlan0", tab.Surveys(nil, 2*time.Second)))
}

func TestDecisionGolden(t *testing.T) {
	nb := []BSS{{Freq: 2447, Signal: -60, HasSignal: true}}
	d, err := Select(plan24(), surveys24(map[int]int{1: 600, 6: 240, 11: 300}), nb, ACSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "acs-decision.txt", AppendDecision(nil, &d))
}
