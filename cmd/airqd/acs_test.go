package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/airq/airq/monitor"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/sim"
)

func TestACSOptions(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim", "-channel", "0", "-acs-chan-bias", "1:0.5 36:1.5", "-acs-num-scans", "2", "-acs-exclude-dfs"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Channel != 0 || o.ACS.NumScans != 2 || !o.ACS.ExcludeDFS || len(o.biases) != 2 || o.biases[1] != (scan.Bias{Channel: 36, Factor: 1.5}) {
		t.Errorf("options %+v %v", o.ACS, o.biases)
	}
	for _, bad := range [][]string{{"-acs-num-scans", "0"}, {"-acs-chan-bias", "6"}, {"-acs-chan-bias", "6:-1"}} {
		if _, err := parseFlags(append([]string{"-radio", "sim", "-channel", "0"}, bad...)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if o, err := parseFlags([]string{"-radio", "sim", "-acs-chan-bias", "none"}); err != nil || !o.noBias {
		t.Errorf("none: %v %v", err, o.noBias)
	}

	path := filepath.Join(t.TempDir(), "airqd.conf")
	conf := "ssid=x\nhw_mode=a\nchannel=acs_survey\nacs_num_scans=3\nacs_exclude_dfs=1\nacs_chan_bias=36:0.9\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err = parseFlags([]string{"-radio", "sim", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	if o.Channel != 0 || o.ACS.NumScans != 3 || !o.ACS.ExcludeDFS || len(o.biases) != 1 {
		t.Errorf("from the file: channel %d %+v", o.Channel, o.ACS)
	}
	// hw_mode=a: 5 GHz candidates only, radar ones left out.
	if f := o.acsFilter(); !sameFilter(f, monitor.ACSFilter{Band5GHz: true, ExcludeDFS: true}) {
		t.Errorf("filter %+v", f)
	}
	o.HWMode, o.ACS.ExcludeDFS = "", false
	if f := o.acsFilter(); !sameFilter(f, monitor.ACSFilter{Band2GHz: true, Band5GHz: true}) {
		t.Errorf("filter without hw_mode %+v", f)
	}
	o.PHY.VHT = true
	if f := o.acsFilter(); !sameFilter(f, monitor.ACSFilter{Band5GHz: true}) {
		t.Errorf("filter with VHT %+v", f)
	}
}

// sameFilter compares two filters without a chanlist or freqlist.
func sameFilter(f, g monitor.ACSFilter) bool {
	return f.Allow == nil && g.Allow == nil && f.Band2GHz == g.Band2GHz && f.Band5GHz == g.Band5GHz && f.ExcludeDFS == g.ExcludeDFS
}

// chanlist and freqlist leave only the channels they name to the selection.
func TestACSChanlist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "airqd.conf")
	conf := "ssid=x\nhw_mode=a\nchannel=0\nchanlist=36 44-48\nfreqlist=5180-5220,5745\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := parseFlags([]string{"-radio", "sim", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, c := range o.acsSimChannels(sim.USChannels()) {
		got = append(got, c.Freq)
	}
	if !slices.Equal(got, []int{5180, 5220}) { // 36 and 44; 48 (5240) is outside freqlist
		t.Errorf("candidates %v, want 5180 and 5220", got)
	}
}
