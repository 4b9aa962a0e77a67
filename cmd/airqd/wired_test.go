package main

import (
	"slices"
	"testing"

	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// The shell is handed a wired side per BSS, in the file's order: the first
// BSS's TAP from -tap, a section's named after its bss= name unless its
// tap= says otherwise, each with its own bridge= and the radio's offload.
func TestWiredSidesFromSections(t *testing.T) {
	path := writeConf(t, "interface=wl0\nssid=main\nbridge=br-lan\nbss=guest\nssid=guest\nbridge=br-guest\nbss=iot\nssid=iot\ntap=iot-tap\n")
	o, _ := parseFlags([]string{"-radio", "sim", "-control", "", "-tap", "airq-tap7", "-config", path}) // refused: not served yet
	got := o.wiredSides(tap.OffloadTSO)
	want := []shell.WiredSide{
		{BSS: "wl0", TAP: "airq-tap7", Bridge: "br-lan", Offload: tap.OffloadTSO},
		{BSS: "guest", TAP: "guest", Bridge: "br-guest", Offload: tap.OffloadTSO},
		{BSS: "iot", TAP: "iot-tap", Offload: tap.OffloadTSO},
	}
	if !slices.Equal(got, want) {
		t.Errorf("wired sides\n%+v\nwant\n%+v", got, want)
	}
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-bridge", "br0"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.wiredSides(tap.OffloadGRO), []shell.WiredSide{{BSS: o.Ifname, TAP: "airq-tap0", Bridge: "br0"}}; !slices.Equal(got, want) {
		t.Errorf("one BSS: %+v, want %+v", got, want)
	}
}
