package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airq/airq/config"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/tap"
)

// writeConf writes text to a file in a fresh directory.
func writeConf(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "airqd.conf")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const hostapdConf = "../../config/testdata/hostapd.conf"

// The file's keys reach the core's configuration; a flag given on the
// command line wins over the file's key and the file's other keys still
// apply.
func TestFlagsOverrideFile(t *testing.T) {
	o, err := parseFlags([]string{"-config", hostapdConf})
	if err != nil {
		t.Fatal(err)
	}
	c := o.Core
	if c.SSID != "home net " || c.Channel != 36 || c.AQL.Threshold != 9000 || c.AirtimeWeight != 512 || o.logLevel.String() != "DEBUG" {
		t.Errorf("from the file: ssid %q channel %d aql %+v weight %d level %v", c.SSID, c.Channel, c.AQL, c.AirtimeWeight, o.logLevel)
	}
	o, err = parseFlags([]string{"-config", hostapdConf, "-ssid", "flag", "-beacon-int", "100",
		"-aql-txq-limit", "BK=1:2", "-log-level", "warn"})
	if err != nil {
		t.Fatal(err)
	}
	c = o.Core
	if c.SSID != "flag" || c.BeaconInterval != 100 || c.DTIMPeriod != 3 || o.logLevel.String() != "WARN" {
		t.Errorf("ssid %q beacon %d dtim %d level %v", c.SSID, c.BeaconInterval, c.DTIMPeriod, o.logLevel)
	}
	// The flag replaces the file's aql_txq_limit lines entirely.
	if c.AQL.Low[ieee80211.ACBK] != 1 || c.AQL.Low[ieee80211.ACBE] != 5000 {
		t.Errorf("aql %+v", c.AQL)
	}
}

// Every flag a key names exists, so that the key's override works.
func TestKeysNameRealFlags(t *testing.T) {
	fs := newFlagSet(&options{})
	for _, name := range config.Names() {
		k, _ := config.Lookup(name)
		for _, f := range k.Flags {
			if fs.Lookup(f) == nil {
				t.Errorf("key %s names -%s, which airqd does not have", name, f)
			}
		}
	}
}

// tap_offload picks one of three modes; the flag overrides it and names
// the accepted values when wrong.
func TestTapOffload(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim"})
	if err != nil || o.TapOffload != tap.OffloadGRO {
		t.Fatalf("default: %v, %v", o.TapOffload, err)
	}
	path := writeConf(t, "tap_offload=tso\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path}); err != nil || o.TapOffload != tap.OffloadTSO {
		t.Fatalf("file: %v, %v", o.TapOffload, err)
	}
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path, "-tap-offload", "off"}); err != nil || o.TapOffload != tap.OffloadOff {
		t.Fatalf("flag: %v, %v", o.TapOffload, err)
	}
	if _, err = parseFlags([]string{"-radio", "sim", "-tap-offload", "yes"}); err == nil || !strings.Contains(err.Error(), "want gro, tso or off") {
		t.Fatalf("bad flag: %v", err)
	}
}

// nice defaults to -10; the file sets it, the flag overrides the file and
// is checked the same way.
func TestNiceOption(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim"})
	if err != nil || o.Nice != -10 {
		t.Fatalf("default: %d, %v", o.Nice, err)
	}
	path := writeConf(t, "nice=0\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path}); err != nil || o.Nice != 0 {
		t.Fatalf("file: %d, %v", o.Nice, err)
	}
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path, "-nice", "-5"}); err != nil || o.Nice != -5 {
		t.Fatalf("flag: %d, %v", o.Nice, err)
	}
	if _, err = parseFlags([]string{"-radio", "sim", "-nice", "20"}); err == nil || !strings.Contains(err.Error(), "-nice: 20, want -20 to 19") {
		t.Fatalf("bad flag: %v", err)
	}
}

// A file that cannot be read is named by the flag; one that does not
// parse by its path and line.
func TestConfigFileErrors(t *testing.T) {
	if _, err := parseFlags([]string{"-radio", "sim", "-config", "/nonexistent/airqd.conf"}); err == nil || !strings.Contains(err.Error(), "-config") {
		t.Errorf("missing file: %v", err)
	}
	path := writeConf(t, "ssid=x\nbeacon_int=5\n")
	if _, err := parseFlags([]string{"-radio", "sim", "-config", path}); err == nil || !strings.HasPrefix(err.Error(), path+":2: beacon_int") {
		t.Errorf("bad value: %v", err)
	}
}

// TestTapOffloadDefault: unset, the TAP cuts the host's TSO sends when the
// datapath runs at a raised priority and merges writes only at nice 0 or
// above; what the flag or the file says always wins.
func TestTapOffloadDefault(t *testing.T) {
	gro := writeConf(t, "tap_offload=gro\n")
	for _, c := range []struct {
		args []string
		nice int
		want tap.Offload
	}{
		{nil, -10, tap.OffloadTSO},
		{nil, 0, tap.OffloadGRO},
		{nil, 5, tap.OffloadGRO},
		{[]string{"-tap-offload", "gro"}, -10, tap.OffloadGRO},
		{[]string{"-tap-offload", "off"}, -10, tap.OffloadOff},
		{[]string{"-tap-offload", "tso"}, 0, tap.OffloadTSO},
		{[]string{"-config", gro}, -10, tap.OffloadGRO},
	} {
		o, err := parseFlags(append([]string{"-radio", "sim"}, c.args...))
		if err != nil {
			t.Fatal(err)
		}
		if got := o.tapOffload(c.nice); got != c.want {
			t.Errorf("%v at nice %d: %v, want %v", c.args, c.nice, got, c.want)
		}
	}
}
