package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// The configurations of configs/compat, as tutorials and router firmware
// write them and hostapd 2.10 starts them, start on the simulated radio:
// two stations join, each file's warnings are logged, and the beacons
// carry what the file asks for.
func TestCompatConfigsStart(t *testing.T) {
	for _, c := range []struct {
		file     string
		ssid     string
		channels []int
		warns    []string // keys warned about
		beacon   func(t *testing.T, b ieee80211.Beacon)
	}{
		{file: "raspberrypi-wpa2.conf", ssid: "NameOfNetwork", channels: []int{7}, warns: []string{"wpa_pairwise"}},
		{file: "raspberrypi-80211n.conf", ssid: "Pi3-AP", channels: []int{6}, warns: []string{"ht_capab"},
			beacon: func(t *testing.T, b ieee80211.Beacon) {
				body, _ := b.Elements().Find(ieee80211.ElemHTOper)
				if o, err := ieee80211.ParseHTOper(body); err != nil || o.SecondaryOffset() != 0 || o.AnyWidth() {
					t.Errorf("[HT40]: HT Operation % x, want 20 MHz", body)
				}
			}},
		{file: "archwiki.conf", ssid: "Café Wi-Fi", channels: []int{7}, warns: []string{"logger_stdout"},
			beacon: func(t *testing.T, b ieee80211.Beacon) {
				utf8Bit(t, b)
				preamble(t, b, false)
			}},
		{file: "router-firmware.conf", ssid: "HomeRouter", channels: []int{1, 6, 11},
			warns: []string{"uapsd_advertisement_enabled", "okc"},
			beacon: func(t *testing.T, b ieee80211.Beacon) {
				utf8Bit(t, b)
				body, ok := b.Elements().Find(ieee80211.ElemBSSLoad)
				if !ok || len(body) != 5 || binary.LittleEndian.Uint16(body) != 2 {
					t.Errorf("BSS Load % x, want 2 stations", body)
				}
				if wmm, ok := b.Elements().FindVendor([3]byte{0x00, 0x50, 0xf2}, 2); !ok || wmm[2]&0x80 != 0 {
					t.Errorf("WMM Parameter % x: U-APSD advertised", wmm)
				}
				preamble(t, b, true)
			}},
		{file: "5ghz-guide.conf", ssid: "Home-5G", channels: []int{36},
			beacon: func(t *testing.T, b ieee80211.Beacon) {
				body, ok := b.Elements().Find(32)
				if b.Capability()&0x0100 == 0 || !ok || len(body) != 1 || body[0] != 3 {
					t.Errorf("capability %#x, Power Constraint % x: want Spectrum Management and 3 dB", b.Capability(), body)
				}
			}},
		{file: "interface-wlan0.conf", ssid: "MyAccessPoint", channels: []int{11}, warns: []string{"interface"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../configs/compat", c.file))
			if err != nil {
				t.Fatal(err)
			}
			conf := writeConf(t, string(data))
			capture := filepath.Join(t.TempDir(), "f.pcap")
			// -ctrl-interface: a file's /var/run/hostapd is shared by every
			// run on the host (a second clone's tests, a real hostapd).
			d := startDaemon(t, "-config", conf, "-sim-stations", "2", "-sim-join", "100ms", "-pcap", capture,
				"-ctrl-interface", t.TempDir())
			waitAssociated(t, d, 2, 20*time.Second)
			var s ctl.Status
			d.ctlJSON(t, &s, "status")
			// The checks read the last beacon: one must go out after the
			// second station joined, or BSS Load still counts one.
			waitBeacons(t, d, s.TSF, s.BeaconInterval, 2)
			if s.SSID != c.ssid || !slices.Contains(c.channels, s.Channel) {
				t.Errorf("ssid %q channel %d, want %q on %v", s.SSID, s.Channel, c.ssid, c.channels)
			}
			for _, k := range c.warns {
				if !strings.Contains(d.log(), "level=WARN msg=\""+conf+":") || !strings.Contains(d.log(), ": warning: "+k+": ") &&
					!strings.Contains(d.log(), " "+k+": ") {
					t.Errorf("no warning logged for %s", k)
				}
			}
			stopDaemon(t, d)
			if c.beacon != nil {
				c.beacon(t, lastBeacon(t, capture, c.ssid))
			}
		})
	}
}

func utf8Bit(t *testing.T, b ieee80211.Beacon) {
	t.Helper()
	if body, ok := b.Elements().Find(ieee80211.ElemExtCap); !ok || len(body) < 7 || body[6]&0x01 == 0 {
		t.Errorf("Extended Capabilities % x without the UTF-8 SSID bit", body)
	}
}

// preamble checks a 2.4 GHz beacon's preamble with stations that all
// have the short one: short with preamble=1, else long (hostapd's
// default): the Short Preamble bit, or the ERP element's Barker bit.
func preamble(t *testing.T, b ieee80211.Beacon, short bool) {
	t.Helper()
	erp, _ := b.Elements().Find(ieee80211.ElemERP)
	gotShort := b.Capability()&ieee80211.CapShortPreamble != 0
	if len(erp) != 1 || gotShort != short || (erp[0]&ieee80211.ERPBarkerPreamble == 0) != short {
		t.Errorf("capability %#x, ERP % x; want short preamble %v", b.Capability(), erp, short)
	}
}

// waitAssociated waits until airqd has n stations, all associated.
func waitAssociated(t *testing.T, d *airqdProc, n int, limit time.Duration) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%d associated stations", n), limit, func() bool {
		var st []ctl.Station
		d.ctlJSON(t, &st, "station", "dump")
		return len(st) == n && !slices.ContainsFunc(st, func(s ctl.Station) bool { return !s.Associated })
	})
}

// waitBeacons waits until the BSS's TSF, read as tsf, has moved on by n
// beacon intervals of interval TU each.
func waitBeacons(t *testing.T, d *airqdProc, tsf uint64, interval, n int) {
	t.Helper()
	until := tsf + uint64(n*interval*1024)
	waitUntil(t, fmt.Sprintf("%d beacon intervals", n), 10*time.Second, func() bool {
		var s ctl.Status
		d.ctlJSON(t, &s, "status")
		return s.TSF >= until
	})
}

// stopDaemon ends airqd with SIGTERM and waits for it.
func stopDaemon(t *testing.T, d *airqdProc) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.done:
		d.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("airqd after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("airqd still running 10 s after SIGTERM")
	}
}

// lastBeacon reads a pcap file (radiotap link type) and returns the body
// of the last beacon naming ssid.
func lastBeacon(t *testing.T, path, ssid string) ieee80211.Beacon {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 24 {
		t.Fatalf("%s: %d bytes", path, len(b))
	}
	var last ieee80211.Beacon
	for rest := b[24:]; len(rest) >= 16; {
		n := int(binary.LittleEndian.Uint32(rest[8:]))
		if len(rest) < 16+n {
			break
		}
		rec := rest[16 : 16+n]
		rest = rest[16+n:]
		if len(rec) < 4 || int(binary.LittleEndian.Uint16(rec[2:])) > len(rec) {
			continue
		}
		fr, err := ieee80211.ParseFrame(rec[binary.LittleEndian.Uint16(rec[2:]):])
		if err != nil || !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			continue
		}
		bc, err := ieee80211.ParseBeacon(fr.Body())
		if err != nil {
			continue
		}
		if s, ok := bc.Elements().Find(ieee80211.ElemSSID); ok && string(s) == ssid {
			last = bc
		}
	}
	if last == nil {
		t.Fatalf("%s: no beacon of %q", path, ssid)
	}
	return last
}
